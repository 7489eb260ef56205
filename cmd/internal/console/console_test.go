package console

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

// fakeTools answers tools with canned data and records the calls.
type fakeTools struct {
	mu      sync.Mutex
	answers map[string]string // tool -> data JSON; missing = a tool failure
	// funcs answer tools whose answer depends on the call (run outside mu).
	funcs map[string]func(args map[string]any) string
	calls []string
	args  []map[string]any
}

func (f *fakeTools) Call(_ context.Context, name string, args map[string]any, out any) (json.RawMessage, error) {
	f.mu.Lock()
	f.calls = append(f.calls, name)
	f.args = append(f.args, args)
	data, ok := f.answers[name]
	fn := f.funcs[name]
	f.mu.Unlock()
	if fn != nil {
		data, ok = fn(args), true
	}
	if name == "set_data_breakpoint" && !ok {
		return nil, fmt.Errorf("%s: calling \"tools/call\": unknown tool %q", name, name)
	}
	if !ok {
		return nil, &toolclient.Failure{Tool: name, Err: toolkit.NewError(toolkit.CodeInternal, name+" refused", ""),
			Raw: json.RawMessage(`{"success":false,"error":{"code":"INTERNAL","message":"refused"}}`)}
	}
	if out != nil {
		if err := json.Unmarshal([]byte(data), out); err != nil {
			return nil, err
		}
	}
	return json.RawMessage(data), nil
}

// src is a source file of the fake session, so that its stops are in
// user code; TestMain writes it.
var src string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "console-test")
	if err != nil {
		panic(err)
	}
	src = filepath.Join(dir, "main.go")
	if err := os.WriteFile(src, []byte("package main\n"), 0o644); err != nil {
		panic(err)
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

func withSrc(s string) string { return strings.ReplaceAll(s, "/p/main.go", src) }

func paused() string {
	return withSrc(`{"sessionId":"go-1","state":"paused","message":"stopped: breakpoint","lastStop":{"reason":"breakpoint","threadId":1,"hitBreakpointIds":[1],"location":{"file":"/p/main.go","line":10,"function":"main.main"}},
"source":[{"line":9,"text":"a := 1"},{"line":10,"text":"b := 2","current":true}]}`)
}

func session(extra map[string]string) *fakeTools {
	f := &fakeTools{answers: map[string]string{
		"create_debug_session": `{"sessionId":"go-1","state":"created","message":"session created"}`,
		"start_debugging":      paused(),
		"set_breakpoint":       withSrc(`{"id":1,"file":"/p/main.go","line":10,"verified":true}`),
		"step_over":            withSrc(`{"sessionId":"go-1","state":"paused","message":"stopped (step)","lastStop":{"reason":"step","location":{"file":"/p/main.go","line":11}}}`),
		"get_stack_trace":      withSrc(`{"stackFrames":[{"id":1000,"name":"main.main","file":"/p/main.go","line":11},{"id":1001,"name":"runtime.main","file":"/usr/lib/go/src/runtime/proc.go","line":283}]}`),
		"get_local_variables":  `{"variables":[{"name":"a","type":"int","value":"1"},{"name":"alpha","type":"string","value":"\"x\""}]}`,
		"evaluate_expression":  `{"result":"101"}`,
		"list_threads":         `{"threads":[{"id":1,"name":"main"}]}`,
		"close_debug_session":  `{}`,
		"detach_from_process":  `{}`,
	}}
	for k, v := range extra {
		f.answers[k] = v
	}
	return f
}

func run(t *testing.T, f *fakeTools, input string, cfg Config) (string, string, error) {
	t.Helper()
	ios, in, out, errOut := iostreams.Test()
	in.WriteString(input)
	cfg.IO, cfg.Tools = ios, f
	err := Run(context.Background(), cfg)
	return out.String(), errOut.String(), err
}

func TestLaunchPrompt(t *testing.T) {
	f := session(nil)
	out, errOut, err := run(t, f, "locals\nnext\nprint a + 100\nbt\nthreads\nbogus\nhelp\nquit\nlocals\n", Config{
		Create: map[string]any{"language": "go"},
		Launch: &Launch{Start: map[string]any{"scriptPath": src}, Breaks: []string{src + ":10"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"breakpoint 1 at " + src + ":10", "stopped: breakpoint 1, thread 1 in main.main at " + src + ":10", "=>   10  b := 2",
		"a int = 1", "stopped: step at " + src + ":11", "101\n", "* #0 main.main at " + src + ":11", "1 main\n", "break FILE:LINE [if COND]", "closed\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, `error: unknown command "bogus"`) {
		t.Errorf("stderr:\n%s", errOut)
	}
	want := []string{"create_debug_session", "set_breakpoint", "start_debugging", "get_local_variables", "step_over",
		"evaluate_expression", "get_stack_trace", "list_threads", "close_debug_session"}
	if !reflect.DeepEqual(f.calls, want) {
		t.Fatalf("calls %v, want %v", f.calls, want)
	}
	if f.args[2]["sessionId"] != "go-1" || f.args[2]["scriptPath"] != src {
		t.Fatalf("start_debugging arguments %v", f.args[2])
	}
}

// A launch whose breakpoint is refused closes its session.
func TestLaunchAbortCloses(t *testing.T) {
	for _, brk := range []string{"main.go", "main.go:x"} {
		f := session(nil)
		_, _, err := run(t, f, "", Config{Create: map[string]any{"language": "go"}, Launch: &Launch{Breaks: []string{brk}}})
		if err == nil || f.calls[len(f.calls)-1] != "close_debug_session" {
			t.Fatalf("--break %s: err %v, calls %v", brk, err, f.calls)
		}
	}
}

// The end of input detaches an attached process; JSON mode prints every
// answer, and tool failures as their envelope.
func TestAttachJSONEndOfInput(t *testing.T) {
	f := session(map[string]string{"create_debug_session": paused()})
	delete(f.answers, "list_threads")
	out, errOut, err := run(t, f, "bt\nthreads\n", Config{JSON: true, Create: map[string]any{"language": "python", "processId": 42}})
	if err != nil {
		t.Fatal(err)
	}
	if got := f.calls[len(f.calls)-2:]; !reflect.DeepEqual(got, []string{"detach_from_process", "close_debug_session"}) {
		t.Fatalf("last calls %v, want a detach, then the close", got)
	}
	dec := json.NewDecoder(strings.NewReader(out))
	var docs []map[string]any
	for {
		var v map[string]any
		if err := dec.Decode(&v); err != nil {
			break
		}
		docs = append(docs, v)
	}
	if len(docs) != 3 || docs[0]["state"] != "paused" || docs[1]["stackFrames"] == nil || docs[2]["success"] != false {
		t.Fatalf("JSON answers %v\n%s", docs, out)
	}
	if errOut != "" {
		t.Fatalf("stderr %q", errOut)
	}
}

func TestCreateFailure(t *testing.T) {
	f := session(nil)
	delete(f.answers, "create_debug_session")
	out, _, err := run(t, f, "", Config{JSON: true, Create: map[string]any{"language": "x"}})
	var tf *toolclient.Failure
	if !errors.As(err, &tf) || !strings.Contains(out, `"success": false`) {
		t.Fatalf("err %v, stdout %q", err, out)
	}
}

// stopOf decodes a stop answer's last stop.
func (p *prompt) stopOf(answer string) *sessions.StopInfo {
	var s stopAnswer
	if err := json.Unmarshal([]byte(answer), &s); err != nil {
		panic(err)
	}
	return s.LastStop
}
