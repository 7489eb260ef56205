package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The prompts dbg serves are sequences of its own tool calls; these tests
// get each prompt as a client does and run the calls it teaches, as
// written, against a fixture. Placeholders left in a step ({sessionId})
// are filled from the earlier answers, as the prompt says.

var promptStep = regexp.MustCompile(`^(\d+)\. ([a-z_]+) (\{.*\})(?: — .*)?$`)

var answerField = regexp.MustCompile(`"\{([A-Za-z]+)\}"`)

// promptRun is one run of a prompt's steps: each step's answer data, by
// step, and the number of resource links each answer carried.
type promptRun struct {
	tools   []string
	answers []obj
	links   []int
}

// runPrompt gets prompt name with args from c and runs its steps. edit,
// when set, is called after each step with the values later steps fill
// placeholders from, as an agent fills in what the step's note asks for.
func runPrompt(t *testing.T, c *client, name string, args map[string]string, edit func(step int, tool string, values map[string]any)) promptRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	p, err := c.cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
	if err != nil || len(p.Messages) != 1 {
		t.Fatalf("prompts/get %s: %+v %v", name, p, err)
	}
	text := p.Messages[0].Content.(*mcp.TextContent).Text
	values := map[string]any{}
	var run promptRun
	for _, line := range strings.Split(text, "\n")[1:] {
		if line == "" {
			continue
		}
		m := promptStep.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("%s: a step line that is not `N. tool {args}`: %q", name, line)
		}
		tool, raw := m[2], m[3]
		var missing []string
		raw = answerField.ReplaceAllStringFunc(raw, func(ph string) string {
			key := ph[2 : len(ph)-2]
			v, ok := values[key]
			if !ok {
				missing = append(missing, key)
				return ph
			}
			b, _ := json.Marshal(v)
			return string(b)
		})
		if len(missing) > 0 {
			t.Fatalf("%s step %s (%s): no earlier answer gives %v", name, m[1], tool, missing)
		}
		var callArgs map[string]any
		if err := json.Unmarshal([]byte(raw), &callArgs); err != nil {
			t.Fatalf("%s step %s: arguments %s: %v", name, m[1], raw, err)
		}
		res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: callArgs})
		if err != nil {
			t.Fatalf("%s step %s %s: %v", name, m[1], tool, err)
		}
		var env result
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &env)
		if !env.Success {
			t.Fatalf("%s step %s %s%s failed: %+v", name, m[1], tool, raw, env.Error)
		}
		links := 0
		for _, item := range res.Content {
			if _, ok := item.(*mcp.ResourceLink); ok {
				links++
			}
		}
		for k, v := range env.Data {
			switch v.(type) {
			case string, float64:
				values[k] = v
			}
		}
		run.tools = append(run.tools, tool)
		run.answers = append(run.answers, obj(env.Data))
		run.links = append(run.links, links)
		if edit != nil {
			edit(len(run.tools), tool, values)
		}
	}
	if len(run.tools) < 3 {
		t.Fatalf("%s has %d steps: %q", name, len(run.tools), text)
	}
	return run
}

// answer returns the data of the run's call of tool.
func (r promptRun) answer(t *testing.T, tool string) obj {
	t.Helper()
	for i, n := range r.tools {
		if n == tool {
			return r.answers[i]
		}
	}
	t.Fatalf("the prompt made no %s call: %v", tool, r.tools)
	return nil
}

func TestPromptDebugFailingTest(t *testing.T) {
	t.Parallel()
	requireDelve(t)
	c := startDbgWith(t, nil, []string{"--project", fixture(t, "tests/go")})
	run := runPrompt(t, c, "debug-failing-test", map[string]string{"test": "TestTotalWrong", "package": "./cart"}, nil)
	d := run.answer(t, "debug_test")
	if d.str("outcome") != "failed" || !strings.Contains(d.str("message"), "want 6") || run.links[1] != 2 {
		t.Errorf("debug_test answered %v with %d links", d, run.links[1])
	}
	if vars := run.answer(t, "get_local_variables").list("variables"); len(vars) == 0 {
		t.Error("no locals at the failure")
	}
}

func TestPromptAttachToService(t *testing.T) {
	t.Parallel()
	requireDebugpy(t)
	port := freePort(t)
	src := fixture(t, "python/server.py")
	target, _ := startTarget(t, "ready", "python3", src, "--listen", fmt.Sprint(port))
	c := startDbg(t)
	run := runPrompt(t, c, "attach-to-service", map[string]string{"language": "python", "port": fmt.Sprint(port),
		"file": src, "line": fmt.Sprint(mcpLine(t, src, "TICK"))}, nil)
	if st := run.answer(t, "wait_for_stop"); st.num("lastStop.location.line") != mcpLine(t, src, "TICK") {
		t.Errorf("the stop %v", st.get("lastStop"))
	}
	if n := run.answer(t, "get_local_variables").list("variables"); len(n) == 0 {
		t.Error("no locals at the stop")
	}
	if run.links[0] != 2 {
		t.Errorf("create_debug_session carried %d resource links", run.links[0])
	}
	if !processAlive(target.Process.Pid) {
		t.Error("the service does not run after the prompt detached")
	}
}

func TestPromptWhyDoesThisValueChange(t *testing.T) {
	t.Parallel()
	requireDelve(t)
	src := fixture(t, "go/watch/main.go")
	c := startDbg(t)
	run := runPrompt(t, c, "why-does-this-value-change", map[string]string{"language": "go", "program": filepath.Dir(src),
		"file": src, "line": fmt.Sprint(mcpLine(t, src, "WATCH: set")), "expression": "c.n"}, nil)
	st := run.answer(t, "continue_execution")
	if st.str("lastStop.reason") != "data breakpoint" || st.str("lastStop.data.old") != "1" || st.str("lastStop.data.new") != "5" ||
		st.num("lastStop.location.line") != mcpLine(t, src, "WATCH: writes") {
		t.Errorf("the write's stop %v", st.get("lastStop"))
	}
	if f := run.answer(t, "get_stack_trace").list("stackFrames"); len(f) == 0 || !strings.Contains(f[0].str("name"), "bump") {
		t.Errorf("the writing frame %v", f)
	}
}

func TestPromptInvestigateCrash(t *testing.T) {
	t.Parallel()
	requireDebugpy(t)
	c := startDbg(t)
	run := runPrompt(t, c, "investigate-crash", map[string]string{"language": "python", "program": fixture(t, "python/raises.py")}, nil)
	st := run.answer(t, "start_debugging")
	if st.str("lastStop.reason") != "exception" || !strings.Contains(fmt.Sprint(st.get("lastStop")), "not a number") {
		t.Errorf("the crash's stop %v", st.get("lastStop"))
	}
	found := false
	for _, v := range run.answer(t, "get_local_variables").list("variables") {
		found = found || (v.str("name") == "text" && strings.Contains(v.str("value"), "not a number"))
	}
	if !found {
		t.Errorf("the failing frame's text is missing: %v", run.answer(t, "get_local_variables"))
	}
	if out := run.answer(t, "get_output").str("text"); !strings.Contains(out, "about to fail") {
		t.Errorf("output %q", out)
	}
}

func TestPromptCallJavaMethod(t *testing.T) {
	t.Parallel()
	requireTool(t, "javac", "-version")
	project := t.TempDir()
	src := filepath.Join(project, "src", "Hello.java")
	if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, []byte(`public class Hello {
    public static int twice(int x) {
        System.out.println("twice called with " + x);
        return 2 * x;
    }
    public static void main(String[] args) throws Exception {
        System.out.println("hello ready");
        while (true) Thread.sleep(1000);
    }
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	classes := filepath.Join(project, "classes")
	if out, err := exec.Command("javac", "-d", classes, src).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v %s", err, out)
	}
	jvm, _ := startTarget(t, "hello ready", "java", "-cp", classes, "Hello")
	c := startDbgWith(t, nil, []string{"--project", project})
	run := runPrompt(t, c, "call-java-method", map[string]string{"className": "Hello", "methodName": "twice", "pid": fmt.Sprint(jvm.Process.Pid)},
		func(_ int, tool string, values map[string]any) {
			if tool == "generate_method_args_template" {
				// The agent fills in the template's content.
				values["argsJson"] = strings.Replace(values["argsJson"].(string), `"content":0`, `"content":21`, 1)
			}
		})
	if r := run.answer(t, "invoke_java_method"); r.str("result") != "42" {
		t.Errorf("invoke_java_method answered %v", r)
	}
	if logs := fmt.Sprint(run.answer(t, "read_target_application_logs").get("entries")); !strings.Contains(logs, "twice called with 21") {
		t.Errorf("the call's log line is missing: %s", logs)
	}
}
