package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What an agent pays for dbg's answers (docs/contract.md, "What an agent
// can afford and trust"): the 14-call flow of bench/peer (flow.go), held
// to the bytes mcp-debugger 0.24.2 answers the same calls with.

// flowBudgets are the bytes of the peer's answers to the 14-call flow, by
// language, with the repository's root written as flowRoot: measured by
// `bash bench/peer.sh -answers DIR` (4060, 4992 and 4362 bytes from a
// 17-byte root, which the peer names 10, 13 and 10 times).
var flowBudgets = map[string]int{
	"python":     3940,
	"javascript": 4836,
	"go":         4242,
}

// flowRoot stands for the repository's root in the bytes counted, so that
// the budget does not depend on where the repository is checked out.
const flowRoot = "/repo"

// flowFixture is the fixture of a language's flow: bench/peer's.
type flowFixture struct {
	lang, file, mark, expr, result string
	require                        func(*testing.T)
}

// TestFlowAnswerBytes runs the 14-call flow in Python, Go and JavaScript
// and holds its answers to the peer's bytes; each answer is checked for
// its values as it is counted. --compact=false gives the full form, which
// is larger and has the fields the compact form leaves out.
func TestFlowAnswerBytes(t *testing.T) {
	t.Parallel()
	for _, fx := range []flowFixture{
		{"python", "python/loop.py", "# BREAK", "total + 10", "10", requireDebugpy},
		{"go", "go/loop/main.go", "// BREAK", "total + 10", "10", requireDelve},
		{"javascript", "javascript/loop.js", "// BP:loop", "total + 10", "10", requireNode},
	} {
		t.Run(fx.lang, func(t *testing.T) {
			t.Parallel()
			fx.require(t)
			compact, answers := runFlow(t, fx, nil)
			t.Logf("%s: %d bytes, budget %d:\n%s", fx.lang, compact, flowBudgets[fx.lang], strings.Join(answers, "\n"))
			if compact > flowBudgets[fx.lang] {
				t.Errorf("%s: the 14-call flow answers %d bytes, over the peer's %d", fx.lang, compact, flowBudgets[fx.lang])
			}
			full, fullAnswers := runFlow(t, fx, []string{"--compact=false"})
			t.Logf("%s, --compact=false: %d bytes", fx.lang, full)
			all := strings.Join(fullAnswers, "\n")
			for _, field := range []string{`"variablesReference":0`, `"changedNote":`, `"resources":`, `"message":"stopped (`} {
				if !strings.Contains(all, field) {
					t.Errorf("--compact=false: no %s in the full form", field)
				}
			}
			if full <= compact {
				t.Errorf("the full form (%d bytes) is not larger than the compact one (%d)", full, compact)
			}
		})
	}
}

// runFlow runs fx's 14-call flow on a server of flags and returns the
// bytes of its answers (the root written as flowRoot) and the answers.
func runFlow(t *testing.T, fx flowFixture, flags []string) (int, []string) {
	root := repoRoot(t)
	src := fixture(t, fx.file)
	line := mcpLine(t, src, fx.mark)
	c := startDbgWith(t, nil, append([]string{"--toolsets", "core"}, flags...))
	lines := 5 // a stop's source lines at most: 2 on each side, or 3 in the full form
	if len(flags) > 0 {
		lines = 7
	}
	total := 0
	var answers []string
	call := func(name string, args map[string]any) obj {
		t.Helper()
		text, data := callText(t, c, name, args)
		text = strings.ReplaceAll(text, root, flowRoot)
		total += len(text)
		answers = append(answers, fmt.Sprintf("%s %d %s", name, len(text), text))
		return data
	}
	created := call("create_debug_session", map[string]any{"language": fx.lang})
	id := created.str("sessionId")
	if id == "" || created.str("language") != fx.lang {
		t.Fatalf("create_debug_session: %v", created)
	}
	if bp := call("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": line}); bp.num("line") != line {
		t.Fatalf("set_breakpoint: %v", bp)
	}
	session := map[string]any{"sessionId": id}
	st := call("start_debugging", map[string]any{"sessionId": id, "scriptPath": src, "dapLaunchArgs": map[string]any{"stopOnEntry": false}})
	if st.str("state") != "paused" {
		st = c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 60000}) // not counted, as the bench's polls
	}
	if st.num("lastStop.location.line") != line || st.str("lastStop.reason") != "breakpoint" || !sourceFits(st, lines) {
		t.Fatalf("start_debugging: not stopped at line %d: %v", line, st)
	}
	if frames := call("get_stack_trace", session).list("stackFrames"); len(frames) == 0 || frames[0].num("line") != line {
		t.Fatalf("get_stack_trace: %v", frames)
	}
	locals := call("get_local_variables", session)
	if v, ok := variableNamed(locals, "total"); !ok || v.str("value") != "0" {
		t.Fatalf("get_local_variables: total is not 0: %v", locals.list("variables"))
	}
	moved := false
	for range 3 {
		r := call("step_over", session)
		if r.str("state") != "paused" || r.num("lastStop.location.line") == 0 || !sourceFits(r, lines) {
			t.Fatalf("step_over: %v", r)
		}
		moved = moved || r.num("lastStop.location.line") != line
	}
	if !moved {
		t.Fatal("three steps never left the breakpoint's line")
	}
	for range 3 {
		if r := call("evaluate_expression", map[string]any{"sessionId": id, "expression": fx.expr}); !strings.HasPrefix(r.str("result"), fx.result) {
			t.Fatalf("evaluate_expression %s: %v", fx.expr, r)
		}
	}
	call("continue_execution", session)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for ctx.Err() == nil && !strings.Contains(c.ok("get_output", session).str("text"), "i=0") {
		c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 200}) // the first line of output, not counted
	}
	if out := call("get_output", session); !strings.Contains(out.str("text"), "i=0") {
		t.Fatalf("get_output: %v", out)
	}
	call("close_debug_session", session)
	return total, answers
}

// callText calls a tool that must succeed and returns its text content
// (what a client hands its model) and its data.
func callText(t *testing.T, c *client, name string, args map[string]any) (string, obj) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var text strings.Builder
	for _, ct := range res.Content {
		if tc, ok := ct.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	var env struct {
		Success bool           `json:"success"`
		Data    map[string]any `json:"data"`
	}
	if err := json.Unmarshal([]byte(text.String()), &env); err != nil || !env.Success || res.IsError {
		t.Fatalf("%s(%v): %s (%v)", name, args, text.String(), err)
	}
	return text.String(), obj(env.Data)
}

// variableNamed finds a variable of an answer's variables by name.
func variableNamed(answer obj, name string) (obj, bool) {
	for _, v := range answer.list("variables") {
		if v.str("name") == name {
			return v, true
		}
	}
	return nil, false
}

// sourceFits reports whether a stop's answer holds at most n source lines
// around the stop, and at least the stop's own and one on each side.
func sourceFits(answer obj, n int) bool {
	c := sourceCount(answer)
	return c >= 3 && c <= n
}

// sourceCount is how many source lines a stop's answer holds, in either
// form: a compact answer's {first, lines} (whose first is the location's
// line less 2, or the file's first line), or the full form's list.
func sourceCount(answer obj) int {
	if lines, ok := answer.get("source.lines").([]any); ok {
		if first, line := answer.num("source.first"), answer.num("lastStop.location.line"); first != max(1, line-2) {
			return -first // a window not centered on the stop
		}
		return len(lines)
	}
	return len(answer.list("source"))
}
