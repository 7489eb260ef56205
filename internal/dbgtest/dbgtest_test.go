package dbgtest

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestLineOfFindsTheMarker(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "f.go")
	if err := os.WriteFile(p, []byte("package f\n\nfunc f() {\n\treturn // BREAK\n}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := LineOf(t, p, "// BREAK"); got != 4 {
		t.Errorf("LineOf = %d, want 4", got)
	}
}

func TestEventuallyWaitsForTheCondition(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	if !Eventually(5*time.Second, func() bool { return n.Add(1) == 3 }) {
		t.Fatal("a condition that holds on the third ask never held")
	}
	if got := n.Load(); got != 3 {
		t.Errorf("asked %d times, want 3", got)
	}
	start := time.Now()
	if Eventually(50*time.Millisecond, func() bool { return false }) {
		t.Fatal("a condition that never holds held")
	}
	if el := time.Since(start); el < 50*time.Millisecond {
		t.Errorf("gave up after %s, before the deadline", el)
	}
}

func TestOnceBuildsOncePerKey(t *testing.T) {
	t.Parallel()
	var builds atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := Once(t, t.Name(), func() (string, error) { builds.Add(1); return "built", nil }); got != "built" {
				t.Errorf("Once = %q", got)
			}
		}()
	}
	wg.Wait()
	if got := builds.Load(); got != 1 {
		t.Errorf("built %d times, want 1", got)
	}
	if got := Once(t, t.Name()+"/other", func() (string, error) { return "other", nil }); got != "other" {
		t.Errorf("another key gave %q", got)
	}
}

// failed records what a fatal helper reports, without failing the test.
type failed struct {
	testing.TB
	msg string
}

func (f *failed) Helper() {}
func (f *failed) Fatalf(format string, args ...any) {
	f.msg = format
	panic(f)
}

func fatalOf(fn func(tb testing.TB)) (msg string) {
	f := &failed{}
	defer func() {
		if r := recover(); r != nil && r != f {
			panic(r)
		}
		msg = f.msg
	}()
	fn(f)
	return ""
}

func TestFailuresSayWhat(t *testing.T) {
	t.Parallel()
	if msg := fatalOf(func(tb testing.TB) { WaitFor(tb, 10*time.Millisecond, "x", func() bool { return false }) }); msg == "" {
		t.Error("WaitFor did not fail on a condition that never held")
	}
	if msg := fatalOf(func(tb testing.TB) {
		Once(tb, t.Name(), func() (string, error) { return "", errors.New("no compiler") })
	}); msg == "" {
		t.Error("Once did not fail on a failed build")
	}
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("a\nb\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if msg := fatalOf(func(tb testing.TB) { LineOf(tb, p, "zzz") }); msg == "" {
		t.Error("LineOf did not fail on a missing marker")
	}
}
