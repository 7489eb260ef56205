package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/proc"
)

func TestCLILaunchPrompt(t *testing.T) {
	t.Parallel()
	prog := fixture(t, "mock/loop.mock")
	cmd := exec.Command(dbgBinary, "launch", "--break", prog+":10", prog)
	cmd.Env = append(cmd.Environ(), "DBG_STATE_DIR="+t.TempDir())
	cmd.Stdin = strings.NewReader("locals\nnext\nprint total + 100\nbt\nbogus\nquit\n")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"stopped: breakpoint", "=>   10", "total int = 0", "stopped: step", "101", "#0 main at " + prog + ":11", `unknown command "bogus"`, "closed"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// dbg attach --pid detects the language, pauses, answers JSON, and
// leaves the process running when it detaches. Where no debugger can
// inject into a Python process here (dbg adapters says so), it refuses
// at once and the target runs on untouched.
func TestCLIAttachPID(t *testing.T) {
	t.Parallel()
	requireDebugpy(t)
	state := t.TempDir()
	target, out := startTarget(t, "ready", "python3", fixture(t, "python/server.py"))
	cmd := exec.Command(dbgBinary, "attach", "--pid", itoa(target.Process.Pid), "--json")
	cmd.Env = append(cmd.Environ(), "DBG_STATE_DIR="+state)
	cmd.Stdin = strings.NewReader("bt\ndetach\n")
	got, err := cmd.CombinedOutput()
	if via, why := cliPythonPIDAttach(t, state); via == "" {
		if err == nil || !strings.Contains(string(got), "ATTACH_FAILED") || !strings.Contains(string(got), "untouched") {
			t.Fatalf("no injector works here (%s), but dbg attach answered: %v\n%s", why, err, got)
		}
		ticking(t, target.Process.Pid, out)
		return
	}
	if err != nil {
		t.Fatalf("%v\n%s", err, got)
	}
	if !strings.Contains(string(got), `"state": "paused"`) || !strings.Contains(string(got), "server.py") {
		t.Fatalf("attach output:\n%s", got)
	}
	ticking(t, target.Process.Pid, out)
}

// pythonPIDAttach asks a dbg server what attach by pid to a Python
// process goes through on this machine: the injector ("gdb", "lldb-16"),
// or "" and the reason none works.
func pythonPIDAttach(t testing.TB, c *client) (via, reason string) {
	t.Helper()
	return pythonPIDInfo(t, c.ok("list_supported_languages", nil).list("languages"))
}

// cliPythonPIDAttach is pythonPIDAttach through `dbg adapters --json`
// with the state directory state.
func cliPythonPIDAttach(t testing.TB, state string) (via, reason string) {
	t.Helper()
	cmd := exec.Command(dbgBinary, "adapters", "--json")
	cmd.Env = append(cmd.Environ(), "DBG_STATE_DIR="+state)
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("dbg adapters --json: %v", err)
	}
	var langs []map[string]any
	if err := json.Unmarshal(b, &langs); err != nil {
		t.Fatalf("dbg adapters --json: %v\n%s", err, b)
	}
	list := make([]obj, len(langs))
	for i, l := range langs {
		list[i] = obj(l)
	}
	return pythonPIDInfo(t, list)
}

func pythonPIDInfo(t testing.TB, langs []obj) (via, reason string) {
	t.Helper()
	for _, l := range langs {
		if l.str("language") != "python" {
			continue
		}
		if l.get("attachByPid") == true {
			if l.str("attachByPidVia") == "" {
				t.Fatalf("python attach by pid says it works, and not through what: %v", l)
			}
			return l.str("attachByPidVia"), ""
		}
		if l.str("attachByPidReason") == "" {
			t.Fatalf("python attach by pid says it does not work, and not why: %v", l)
		}
		return "", l.str("attachByPidReason")
	}
	t.Fatal("no python in the supported languages")
	return "", ""
}

// A machine whose gdb cannot call into a process: with a PATH holding
// neither gdb nor lldb, dbg says attach by pid does not work and why,
// and refuses it with the target untouched; with a gdb that fails the
// calls and a real lldb beside it, dbg says it goes through lldb, and it
// does: the attach pauses the target in its code and detaching lets it
// run on.
func TestPythonAttachByPIDWithoutAWorkingGDB(t *testing.T) {
	requireDebugpy(t)
	out, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		t.Fatal(err)
	}
	py := strings.TrimSpace(string(out))
	failingGDB := "#!/bin/sh\ncase \"$1\" in --version) echo 'GNU gdb (fake) 13.1'; exit 0;; esac\n" +
		"echo \"Couldn't write extended state status: Bad address.\" >&2\nexit 1\n"
	lldb := ""
	for _, name := range []string{"lldb-16", "lldb"} {
		if p, err := exec.LookPath(name); err == nil {
			lldb = p
			break
		}
	}
	for _, tc := range []struct {
		name  string
		files map[string]string // PATH's files: a link to a program, or a script
	}{
		{"neither", map[string]string{"python3": py}},
		{"lldb only", map[string]string{"python3": py, "gdb": failingGDB, "lldb": lldb}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.name == "lldb only" && lldb == "" {
				t.Fatal("no lldb on this machine (scripts/deps/native.sh installs lldb-16)")
			}
			bin := t.TempDir()
			for name, what := range tc.files {
				var err error
				if strings.HasPrefix(what, "#!") {
					err = os.WriteFile(filepath.Join(bin, name), []byte(what), 0o755)
				} else {
					err = os.Symlink(what, filepath.Join(bin, name))
				}
				if err != nil {
					t.Fatal(err)
				}
			}
			c := startDbg(t, "PATH="+bin)
			target, tout := startTarget(t, "ready", py, fixture(t, "python/server.py"))
			via, why := pythonPIDAttach(t, c)
			args := map[string]any{"language": "python", "processId": target.Process.Pid}
			if tc.name == "neither" {
				if via != "" || !strings.Contains(why, "neither gdb nor lldb") {
					t.Fatalf("with neither on PATH, attach by pid goes through %q (%s)", via, why)
				}
				r := c.fail("create_debug_session", args, "ATTACH_FAILED")
				if !strings.Contains(r.Error.Message, "untouched") || !strings.Contains(r.Error.Hint, "--listen") {
					t.Errorf("refusal: %s (hint %s)", r.Error.Message, r.Error.Hint)
				}
				ticking(t, target.Process.Pid, tout)
				return
			}
			if !strings.HasPrefix(via, "lldb") {
				t.Fatalf("with a failing gdb and a working lldb, attach by pid goes through %q (%s)", via, why)
			}
			created := c.ok("create_debug_session", args)
			id := created.str("sessionId")
			if created.str("interpreter.injector") != via {
				t.Errorf("the attach went through %q, the product said %q", created.str("interpreter.injector"), via)
			}
			s := mcpPaused(t, c, id, created)
			if mcpFrameIn(t, c, id, s.num("lastStop.threadId"), "server.py", 0) == nil {
				t.Fatalf("no frame in server.py after attach")
			}
			c.ok("detach_from_process", map[string]any{"sessionId": id})
			ticking(t, target.Process.Pid, tout)
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// mcpStillRunning checks that a target dbg refused to attach to runs on
// untouched: alive, traced by nobody, and printing its marker still.
func mcpStillRunning(t testing.TB, tg target) {
	t.Helper()
	waitCount(t, tg.out, tg.marker, strings.Count(tg.out.String(), tg.marker)+1, "the target stopped printing after the refusal")
	b, err := os.ReadFile(proc.Path(tg.cmd.Process.Pid, "status"))
	if err != nil || !strings.Contains(string(b), "TracerPid:\t0\n") {
		t.Fatalf("the refused target is gone or traced (%v):\n%s", err, b)
	}
}

// goIdleFlow attaches to an HTTP server blocked in accept, where no
// thread runs Go code: the attach answers paused (delve never gets a
// pause it would lose), a pause of the running server answers paused, a
// breakpoint in the handler stops a request with its argument, the
// request then completes, and after detach the server serves on.
func goIdleFlow(t *testing.T, c *client, tg target) {
	s := c.ok("create_debug_session", map[string]any{"language": "go", "processId": tg.cmd.Process.Pid})
	id := s.str("sessionId")
	if s.str("state") != "paused" {
		t.Fatalf("attach to the idle server answered %v, want paused", s)
	}
	if mcpFrameIn(t, c, id, s.num("lastStop.threadId"), tg.file, 0) == nil {
		t.Fatalf("no frame in %s after attach", tg.file)
	}
	src := td("go/idle/main.go")
	line := mcpLine(t, src, "// GREET")
	c.ok("set_breakpoint", map[string]any{"sessionId": id, "file": src, "line": line})
	c.ok("continue_execution", map[string]any{"sessionId": id})
	if p := c.ok("pause_execution", map[string]any{"sessionId": id}); p.str("state") != "paused" || p.str("lastStop.reason") != "pause" {
		t.Fatalf("pause of the idle server answered %v", p)
	}
	c.ok("continue_execution", map[string]any{"sessionId": id})
	body := make(chan string, 1)
	go func() { body <- httpGet(tg.port, "/hello?name=dbg") }()
	st := c.ok("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 30000})
	if st.str("lastStop.reason") != "breakpoint" || st.num("lastStop.location.line") != line {
		t.Fatalf("stop %v, want the breakpoint at line %d", st, line)
	}
	mcpCheckLocals(t, mcpLocals(t, c, id), map[string]string{"name": `"dbg"`})
	c.ok("continue_execution", map[string]any{"sessionId": id})
	select {
	case b := <-body:
		if b != "hello dbg\n" {
			t.Errorf("the request stopped at the breakpoint answered %q", b)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the request stopped at the breakpoint never completed")
	}
	c.ok("detach_from_process", map[string]any{"sessionId": id})
	c.ok("close_debug_session", map[string]any{"sessionId": id})
	if b := httpGet(tg.port, "/hello?name=again"); b != "hello again\n" {
		t.Errorf("after detach the server answered %q", b)
	}
	mcpNoChildren(t, c)
}

// httpGet answers the body of GET path on the local port (or the error).
func httpGet(port int, path string) string {
	cl := &http.Client{Timeout: 60 * time.Second}
	resp, err := cl.Get(fmt.Sprintf("http://127.0.0.1:%d%s", port, path))
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
