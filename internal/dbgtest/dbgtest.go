// Package dbgtest is the test kit of dbg's packages: the line of a
// fixture by its marker, waits on a condition with a deadline (never a
// fixed sleep), fixtures built once per test binary, and an MCP client
// on a started `dbg mcp`. It imports no package of the module, so the
// tests of every package, leaves included, can use it.
package dbgtest

import (
	"bufio"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// LineOf returns the 1-based line of path whose text contains marker,
// and fails t when there is none.
func LineOf(t testing.TB, path, marker string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.Contains(sc.Text(), marker) {
			return n
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	t.Fatalf("no line containing %q in %s", marker, path)
	return 0
}

// Poll is how often Eventually and WaitFor ask again.
const Poll = 20 * time.Millisecond

// Eventually asks cond every Poll until it holds or d has passed, and
// says whether it held. cond is asked at least once, and once more at the
// deadline.
func Eventually(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(min(Poll, max(time.Until(deadline), time.Millisecond)))
	}
}

// WaitFor waits up to d for cond and fails t, naming what it waited
// for, when it never held.
func WaitFor(t testing.TB, d time.Duration, what string, cond func() bool) {
	t.Helper()
	if !Eventually(d, cond) {
		t.Fatalf("timed out after %s waiting for %s", d, what)
	}
}

// once holds the fixtures built by Once, by key, for the life of the
// test binary.
var once struct {
	sync.Mutex
	m map[string]*built
}

type built struct {
	sync.Once
	val string
	err error
}

// Once runs build the first time key is asked for, by whichever test
// asks first (the others wait for it), and returns its result every
// time; a failed build fails each test that asks for it.
func Once(t testing.TB, key string, build func() (string, error)) string {
	t.Helper()
	once.Lock()
	if once.m == nil {
		once.m = map[string]*built{}
	}
	r := once.m[key]
	if r == nil {
		r = &built{}
		once.m[key] = r
	}
	once.Unlock()
	r.Do(func() { r.val, r.err = build() })
	if r.err != nil {
		t.Fatalf("building %s: %v", key, r.err)
	}
	return r.val
}
