package console

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
)

// attached is an attach session stopped at src:10.
func attached(extra map[string]string) *fakeTools {
	return session(mergeAnswers(map[string]string{"create_debug_session": paused()}, extra))
}

func mergeAnswers(a, b map[string]string) map[string]string {
	for k, v := range b {
		a[k] = v
	}
	return a
}

// argsOf returns the arguments of the calls of tool.
func (f *fakeTools) argsOf(tool string) []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []map[string]any
	for i, c := range f.calls {
		if c == tool {
			out = append(out, f.args[i])
		}
	}
	return out
}

// frame 1, up and down choose the frame locals and print use.
func TestFrameSelection(t *testing.T) {
	f := attached(nil)
	out, errOut, err := run(t, f, "frame 1\nlocals\ndown\nprint a\nup 5\nframe x\n", Config{Create: map[string]any{"language": "go", "processId": 1}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "* #1 runtime.main at /usr/lib/go/src/runtime/proc.go:283") {
		t.Errorf("frame 1 not shown:\n%s", out)
	}
	if got := f.argsOf("get_local_variables"); len(got) != 1 || got[0]["frameId"] != 1001 {
		t.Errorf("locals after frame 1: %v, want frameId 1001", got)
	}
	if got := f.argsOf("evaluate_expression"); len(got) != 1 || got[0]["frameId"] != nil {
		t.Errorf("print after down: %v, want the top frame", got)
	}
	for _, want := range []string{"no frame 5 (the stack has 2", "usage: frame N"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
}

// An exception stop in runtime code prints the exception, its message
// and the nearest user frame.
func TestStopInRuntimeCode(t *testing.T) {
	stop := withSrc(`{"sessionId":"go-1","state":"paused","lastStop":{"reason":"exception","description":"panic","text":"runtime error: index out of range [5] with length 3",
"location":{"file":"/usr/lib/go/src/runtime/panic.go","line":115,"function":"runtime.goPanicIndex"}}}`)
	f := attached(map[string]string{"create_debug_session": stop,
		"get_stack_trace": withSrc(`{"stackFrames":[{"id":1,"name":"runtime.goPanicIndex","file":"/usr/lib/go/src/runtime/panic.go","line":115},{"id":2,"name":"main.get","file":"/p/main.go","line":7,"text":"return xs[i]"}]}`)})
	out, _, err := run(t, f, "", Config{Create: map[string]any{"language": "go", "processId": 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"stopped: exception in runtime.goPanicIndex at /usr/lib/go/src/runtime/panic.go:115", "exception: panic",
		"runtime error: index out of range [5] with length 3", "nearest user frame: #1 main.get at " + src + ":7", "7  return xs[i]"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
}

// continue waits for the stop and prints it; a temporary breakpoint is
// removed once hit; displays show at the stop.
func TestContinueWaitsAndTBreak(t *testing.T) {
	f := attached(map[string]string{
		"continue_execution": `{"state":"running","pending":true,"message":"running; call wait_for_stop to wait for the next stop"}`,
		"wait_for_stop": withSrc(`{"state":"paused","lastStop":{"reason":"breakpoint","hitBreakpointIds":[2],"location":{"file":"/p/main.go","line":20}},
"source":[{"line":20,"text":"x++","current":true}]}`),
		"set_breakpoint":    withSrc(`{"id":2,"file":"/p/main.go","line":20,"verified":true}`),
		"remove_breakpoint": `{}`,
	})
	out, errOut, err := run(t, f, "tbreak 20\ndisplay a\ncontinue\nuntil\n", Config{Create: map[string]any{"language": "go", "processId": 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"temporary breakpoint 2 at " + src + ":20", "stopped: breakpoint 2 at " + src + ":20", "=>   20  x++", "1: a = 101"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if got := f.argsOf("set_breakpoint"); len(got) != 1 || got[0]["file"] != src || got[0]["line"] != 20 {
		t.Errorf("tbreak 20 set %v, want the current file's line 20", got)
	}
	if got := f.argsOf("remove_breakpoint"); len(got) != 1 || got[0]["breakpointId"] != 2 {
		t.Errorf("the temporary breakpoint was not removed at its stop: %v", got)
	}
	if !strings.Contains(errOut, "usage: until LINE") {
		t.Errorf("stderr: %s", errOut)
	}
}

// Ctrl-C while the program runs pauses it; the pause is the stop shown.
func TestInterruptPauses(t *testing.T) {
	pausedCh := make(chan struct{})
	f := attached(map[string]string{
		"continue_execution": `{"state":"running","pending":true}`,
		"pause_execution":    `{"state":"paused"}`,
	})
	f.funcs = map[string]func(map[string]any) string{
		"wait_for_stop": func(map[string]any) string {
			select {
			case <-pausedCh:
				return withSrc(`{"state":"paused","lastStop":{"reason":"pause","location":{"file":"/p/main.go","line":33}}}`)
			case <-time.After(10 * time.Second):
				return `{"state":"running","pending":true}`
			}
		},
		"pause_execution": func(map[string]any) string { close(pausedCh); return `{"state":"paused"}` },
	}
	interrupts := make(chan struct{}, 1)
	go func() {
		time.Sleep(100 * time.Millisecond)
		interrupts <- struct{}{}
	}()
	start := time.Now()
	out, errOut, err := run(t, f, "continue\n", Config{Create: map[string]any{"language": "go", "processId": 1}, Interrupts: interrupts})
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 8*time.Second || !strings.Contains(out, "stopped: pause at "+src+":33") || !strings.Contains(errOut, "pausing") {
		t.Fatalf("Ctrl-C did not pause:\nstdout %s\nstderr %s", out, errOut)
	}
}

// watch answers cleanly when the server has no set_data_breakpoint.
func TestWatchWithoutTool(t *testing.T) {
	f := attached(nil)
	_, errOut, err := run(t, f, "watch total\n", Config{Create: map[string]any{"language": "go", "processId": 1}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut, "watch needs the set_data_breakpoint tool") {
		t.Fatalf("stderr: %s", errOut)
	}
}

func TestCompletion(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"main.go", "mod.go"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "pkg"), 0o755); err != nil {
		t.Fatal(err)
	}
	f := attached(nil)
	ios, _, _, _ := iostreams.Test()
	p := newPrompt(context.Background(), Config{IO: ios, Tools: f})
	p.id = "go-1"
	cases := []struct {
		text, word string
		want       []string
	}{
		{"brea", "brea", []string{"break", "breakpoints"}},
		{"b " + dir + "/m", dir + "/m", []string{dir + "/main.go:", dir + "/mod.go:"}},
		{"break " + dir + "/p", dir + "/p", []string{dir + "/pkg/"}},
		{"help ne", "ne", []string{"next"}},
		{"print a + al", "al", nil}, // not stopped: no names
	}
	for _, c := range cases {
		word, got := p.complete(c.text)
		if word != c.word || !reflect.DeepEqual(got, c.want) {
			t.Errorf("complete(%q) = %q %v, want %q %v", c.text, word, got, c.word, c.want)
		}
	}
	p.stop = p.stopOf(paused())
	word, got := p.complete("print a + al")
	if word != "al" || !reflect.DeepEqual(got, []string{"alpha"}) {
		t.Errorf("print completion: %q %v", word, got)
	}
	// readline's form: the candidates' rest after the word.
	rest, n := completer{p.complete}.Do([]rune("p a"), 3)
	if n != 1 || len(rest) != 2 || string(rest[0]) != "" || string(rest[1]) != "lpha" {
		t.Errorf("Do: %q %d", rest, n)
	}
}

func TestBreakArgs(t *testing.T) {
	abs, _ := filepath.Abs("x.go")
	cases := []struct {
		spec, file string
		want       map[string]any
		err        string
	}{
		{"x.go:12", "", map[string]any{"file": abs, "line": 12}, ""},
		{"x.go:12 if i == 3", "", map[string]any{"file": abs, "line": 12, "condition": "i == 3"}, ""},
		{"14", "/a/b.py", map[string]any{"file": "/a/b.py", "line": 14}, ""},
		{"main.add", "", map[string]any{"function": "main.add"}, ""},
		{"14", "", nil, "want FILE:LINE"},
		{"x.go:abc", "", nil, "not a number"},
		{"x.go:3 if ", "", nil, "needs a condition"},
		{"", "", nil, "usage"},
	}
	for _, c := range cases {
		got, err := BreakArgs(c.spec, c.file)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: err %v, want %q", c.spec, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %v %v, want %v", c.spec, got, err, c.want)
		}
	}
}
