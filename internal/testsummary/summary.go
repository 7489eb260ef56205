package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json's TestEvent, with
// the build events of go test -json: ImportPath, build-output, build-fail).
type event struct {
	Time       time.Time
	Action     string
	Package    string
	Test       string
	Elapsed    float64
	Output     string
	ImportPath string
}

type testRun struct {
	name    string
	out     strings.Builder
	ended   bool
	elapsed float64
	subs    float64 // the time of its subtests that ended
}

type pkgRun struct {
	name    string
	out     strings.Builder // output of the package itself, outside any test
	tests   map[string]*testRun
	order   []string
	action  string // pass, fail or skip once the package ended
	elapsed float64
}

type timed struct {
	name    string
	elapsed float64
}

// summary follows the packages of one go test run.
type summary struct {
	w        io.Writer
	pkgs     map[string]*pkgRun
	order    []string
	builds   map[string]*strings.Builder // build output by import path
	buildBad []string
	ended    []timed // packages, as they ended
	slow     []timed // top-level tests
	failed   int     // failing tests
}

func newSummary(w io.Writer) *summary {
	return &summary{w: w, pkgs: map[string]*pkgRun{}, builds: map[string]*strings.Builder{}}
}

func (s *summary) pkg(name string) *pkgRun {
	p := s.pkgs[name]
	if p == nil {
		p = &pkgRun{name: name, tests: map[string]*testRun{}}
		s.pkgs[name] = p
		s.order = append(s.order, name)
	}
	return p
}

// read consumes the stream; a line that is not an event (go vet's or a
// build's own text) is written through as it is.
func (s *summary) read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil || e.Action == "" {
			fmt.Fprintf(s.w, "%s\n", line)
			continue
		}
		s.add(e)
	}
	return sc.Err()
}

func (s *summary) add(e event) {
	switch e.Action {
	case "build-output":
		b := s.builds[e.ImportPath]
		if b == nil {
			b = &strings.Builder{}
			s.builds[e.ImportPath] = b
		}
		b.WriteString(e.Output)
		return
	case "build-fail":
		s.buildBad = append(s.buildBad, e.ImportPath)
		if b := s.builds[e.ImportPath]; b != nil {
			fmt.Fprint(s.w, b.String())
		}
		return
	}
	if e.Package == "" {
		return
	}
	p := s.pkg(e.Package)
	if e.Test == "" {
		switch e.Action {
		case "output":
			p.out.WriteString(e.Output)
		case "pass", "fail", "skip":
			p.action, p.elapsed = e.Action, e.Elapsed
			s.endPackage(p)
		}
		return
	}
	t := p.tests[e.Test]
	if t == nil {
		t = &testRun{name: e.Test}
		p.tests[e.Test] = t
		p.order = append(p.order, e.Test)
	}
	switch e.Action {
	case "output":
		t.out.WriteString(e.Output)
	case "pass", "skip":
		s.endTest(p, t, e)
	case "fail":
		s.endTest(p, t, e)
		s.failed++
		// A subtest's own output is printed when it fails; its parent's
		// output holds only the parent's lines.
		fmt.Fprint(s.w, t.out.String())
	}
}

// endTest records t's time: what it reports, or the sum of its
// subtests' times when that is more (a test reports only its own body's
// time, without the parallel subtests it waited for).
func (s *summary) endTest(p *pkgRun, t *testRun, e event) {
	t.ended, t.elapsed = true, max(e.Elapsed, t.subs)
	if i := strings.LastIndexByte(t.name, '/'); i >= 0 {
		if parent := p.tests[t.name[:i]]; parent != nil {
			parent.subs += t.elapsed
		}
		return
	}
	s.slow = append(s.slow, timed{shortPkg(p.name) + " " + t.name, t.elapsed})
}

func (s *summary) endPackage(p *pkgRun) {
	s.ended = append(s.ended, timed{p.name, p.elapsed})
	switch p.action {
	case "fail":
		// The package's own lines hold a panic or a timeout; a test that
		// never ended was cut by it, and its output says where.
		for _, name := range p.order {
			if t := p.tests[name]; !t.ended {
				s.failed++
				fmt.Fprintf(s.w, "--- (never ended) %s\n%s", name, t.out.String())
			}
		}
		fmt.Fprint(s.w, p.out.String())
		if !strings.Contains(p.out.String(), "FAIL\t"+p.name+"\t") {
			fmt.Fprintf(s.w, "FAIL\t%s\t%.1fs\n", p.name, p.elapsed)
		}
	case "skip":
		fmt.Fprintf(s.w, "?   \t%s\t[no test files]\n", p.name)
	default:
		fmt.Fprintf(s.w, "ok  \t%s\t%.1fs\n", p.name, p.elapsed)
	}
	p.tests, p.order = nil, nil
	p.out.Reset()
}

// report writes the times and says whether the run passed.
func (s *summary) report(top int) bool {
	var bad, open []string
	for _, name := range s.order {
		switch s.pkgs[name].action {
		case "fail":
			bad = append(bad, name)
		case "":
			open = append(open, name)
		}
	}
	ran := slices.DeleteFunc(slices.Clone(s.ended), func(t timed) bool { return s.pkgs[t.name].action == "skip" })
	slices.SortStableFunc(ran, func(a, b timed) int { return cmpDesc(a.elapsed, b.elapsed) })
	fmt.Fprintf(s.w, "\n==> time per package (%d packages)\n", len(ran))
	for _, t := range ran {
		fmt.Fprintf(s.w, "%8.1fs  %s\n", t.elapsed, t.name)
	}
	slices.SortStableFunc(s.slow, func(a, b timed) int { return cmpDesc(a.elapsed, b.elapsed) })
	fmt.Fprintf(s.w, "==> the %d slowest tests (with their subtests)\n", min(top, len(s.slow)))
	for _, t := range s.slow[:min(top, len(s.slow))] {
		fmt.Fprintf(s.w, "%8.1fs  %s\n", t.elapsed, t.name)
	}
	for _, name := range open {
		fmt.Fprintf(s.w, "FAIL\t%s\t(the stream ended before the package did)\n", name)
	}
	for _, name := range s.buildBad {
		fmt.Fprintf(s.w, "FAIL\t%s\t[build failed]\n", name)
	}
	pass := len(bad) == 0 && len(open) == 0 && len(s.buildBad) == 0 && s.failed == 0
	if !pass {
		fmt.Fprintf(s.w, "==> FAIL: %d packages, %d tests, %d builds failed\n", len(bad)+len(open), s.failed, len(s.buildBad))
	}
	return pass
}

func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}

func shortPkg(p string) string {
	const mod = "github.com/dbg-dev/dbg/"
	return strings.TrimPrefix(p, mod)
}
