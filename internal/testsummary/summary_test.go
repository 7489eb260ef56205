package main

import (
	"strings"
	"testing"
)

const stream = `{"Action":"start","Package":"m/a"}
{"Action":"run","Package":"m/a","Test":"TestOK"}
{"Action":"output","Package":"m/a","Test":"TestOK","Output":"=== RUN   TestOK\n"}
{"Action":"output","Package":"m/a","Test":"TestOK","Output":"quiet line of a passing test\n"}
{"Action":"pass","Package":"m/a","Test":"TestOK","Elapsed":2.5}
{"Action":"run","Package":"m/a","Test":"TestBad"}
{"Action":"run","Package":"m/a","Test":"TestBad/sub"}
{"Action":"output","Package":"m/a","Test":"TestBad/sub","Output":"    bad_test.go:9: want 3, got 4\n"}
{"Action":"fail","Package":"m/a","Test":"TestBad/sub","Elapsed":7}
{"Action":"fail","Package":"m/a","Test":"TestBad","Elapsed":7.25}
{"Action":"output","Package":"m/a","Output":"FAIL\n"}
{"Action":"fail","Package":"m/a","Elapsed":9.5}
{"Action":"start","Package":"m/b"}
{"Action":"run","Package":"m/b","Test":"TestHangs"}
{"Action":"output","Package":"m/b","Test":"TestHangs","Output":"=== RUN   TestHangs\n"}
{"Action":"output","Package":"m/b","Output":"panic: test timed out after 1s\n"}
{"Action":"fail","Package":"m/b","Elapsed":1}
{"Action":"start","Package":"m/c"}
{"Action":"run","Package":"m/c","Test":"TestWithParallelSubtests"}
{"Action":"run","Package":"m/c","Test":"TestWithParallelSubtests/a"}
{"Action":"run","Package":"m/c","Test":"TestWithParallelSubtests/b"}
{"Action":"pass","Package":"m/c","Test":"TestWithParallelSubtests/a","Elapsed":1.5}
{"Action":"pass","Package":"m/c","Test":"TestWithParallelSubtests/b","Elapsed":2.5}
{"Action":"pass","Package":"m/c","Test":"TestWithParallelSubtests","Elapsed":0}
{"Action":"pass","Package":"m/c","Elapsed":0.5}
{"Action":"skip","Package":"m/d","Elapsed":0}
vet: a line that is not an event
`

func TestSummaryShowsFailuresAndTimes(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	s := newSummary(&out)
	if err := s.read(strings.NewReader(stream)); err != nil {
		t.Fatal(err)
	}
	if s.report(2) {
		t.Error("the run passed with failing tests")
	}
	got := out.String()
	for _, want := range []string{
		"bad_test.go:9: want 3, got 4",
		"FAIL\tm/a\t9.5s",
		"--- (never ended) TestHangs",
		"panic: test timed out after 1s",
		"ok  \tm/c\t0.5s",
		"vet: a line that is not an event",
		"     9.5s  m/a\n     1.0s  m/b\n     0.5s  m/c\n",
		"==> the 2 slowest tests (with their subtests)\n     7.2s  m/a TestBad\n     4.0s  m/c TestWithParallelSubtests\n",
		"==> FAIL: 2 packages, 3 tests, 0 builds failed",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "quiet line of a passing test") {
		t.Errorf("a passing test's output was printed:\n%s", got)
	}
}

func TestSummaryPassesACleanRun(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	s := newSummary(&out)
	clean := "{\"Action\":\"run\",\"Package\":\"m/a\",\"Test\":\"TestOK\"}\n{\"Action\":\"pass\",\"Package\":\"m/a\",\"Test\":\"TestOK\",\"Elapsed\":1}\n{\"Action\":\"pass\",\"Package\":\"m/a\",\"Elapsed\":1}\n"
	if err := s.read(strings.NewReader(clean)); err != nil {
		t.Fatal(err)
	}
	if !s.report(10) {
		t.Errorf("a clean run failed:\n%s", out.String())
	}
}

func TestSummaryFailsACutStream(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	s := newSummary(&out)
	if err := s.read(strings.NewReader("{\"Action\":\"start\",\"Package\":\"m/a\"}\n")); err != nil {
		t.Fatal(err)
	}
	if s.report(10) || !strings.Contains(out.String(), "the stream ended before the package did") {
		t.Errorf("a cut stream passed:\n%s", out.String())
	}
}

func TestSummaryFailsABuild(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	s := newSummary(&out)
	in := "{\"ImportPath\":\"m/a [m/a.test]\",\"Action\":\"build-output\",\"Output\":\"a.go:3:1: syntax error\\n\"}\n{\"ImportPath\":\"m/a [m/a.test]\",\"Action\":\"build-fail\"}\n"
	if err := s.read(strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	if s.report(10) || !strings.Contains(out.String(), "a.go:3:1: syntax error") {
		t.Errorf("a failed build passed:\n%s", out.String())
	}
}
