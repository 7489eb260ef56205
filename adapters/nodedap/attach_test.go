package nodedap

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// server is the HTTP server fixture running under plain node (not under
// the adapter), as a program someone else started.
type server struct {
	proc  *dap.Process
	port  int
	wsURL string
}

// startServer runs testdata/javascript/server.js with node flags and waits
// until it listens.
func startServer(t *testing.T, nodeFlags ...string) *server {
	t.Helper()
	node := mustHaveNode(t)
	args := append(append([]string{}, nodeFlags...), fixture(t, "server.js"), "0")
	ports := make(chan int, 1)
	urls := make(chan string, 1)
	proc, err := dap.StartProcess(exec.Command(node, args...), dap.ProcessOptions{OnLine: func(stream, line string) {
		if p, ok := strings.CutPrefix(line, "listening "); ok {
			if n, err := strconv.Atoi(p); err == nil {
				ports <- n
			}
		}
		if m := listeningRE.FindStringSubmatch(line); m != nil {
			urls <- m[1]
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(proc.Kill)
	s := &server{proc: proc}
	select {
	case s.port = <-ports:
	case <-time.After(clientWait):
		t.Fatalf("server did not start: %s", proc.StderrTail())
	}
	for _, f := range nodeFlags {
		if strings.HasPrefix(f, "--inspect=") {
			select {
			case s.wsURL = <-urls:
			case <-time.After(clientWait):
				t.Fatalf("server's inspector did not start: %s", proc.StderrTail())
			}
		}
	}
	return s
}

// get fetches / from the server.
func (s *server) get(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), clientWait)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("http://127.0.0.1:%d/", s.port), nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return strings.TrimSpace(string(b))
}

// getAsync fetches / in the background (the server will stop at a
// breakpoint before it answers).
func (s *server) getAsync(t *testing.T) <-chan string {
	out := make(chan string, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), clientWait)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("http://127.0.0.1:%d/", s.port), nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			out <- "error: " + err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		out <- strings.TrimSpace(string(b))
	}()
	return out
}

func recv(t *testing.T, ch <-chan string) string {
	t.Helper()
	select {
	case s := <-ch:
		return s
	case <-time.After(clientWait):
		t.Fatal("no HTTP answer")
		return ""
	}
}

// freePort returns a port nobody listens on right now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// debugServer attaches, stops at the handler on a request, checks it, and
// detaches; the server must keep serving.
func debugServer(t *testing.T, s *server, attachArgs map[string]any) {
	c := newClient(t)
	if err := c.start("attach", attachArgs); err != nil {
		t.Fatalf("attach: %v", err)
	}
	proc := body[struct {
		SystemProcessID int `json:"systemProcessId"`
	}](t, c.seen("process"))
	want(t, "attached pid", proc.SystemProcessID, s.proc.Pid())
	script := fixture(t, "server.js")
	line := lineOf(t, script, "BP:handle")
	bps := c.setBreakpoints(script, map[string]any{"line": line})
	if !bps[0].Verified {
		t.Fatalf("breakpoint %+v", bps[0])
	}
	c.req("configurationDone", nil)
	threads := body[struct{ Threads []struct{ ID int } }](t, c.req("threads", nil)).Threads
	if len(threads) != 1 {
		t.Fatalf("threads %+v", threads)
	}

	answer := s.getAsync(t)
	want(t, "reason", c.stopped().Reason, "breakpoint")
	f := c.frames()[0]
	want(t, "line", f.Line, line)
	want(t, "path", f.Source.Path, script)
	want(t, "hits", c.eval("hits", f.ID).Value, "0")
	c.req("continue", map[string]any{"threadId": 1})
	want(t, "answer", recv(t, answer), "hits=1")

	// pause stops an idle server too.
	c.req("pause", map[string]any{"threadId": 1})
	want(t, "reason", c.stopped().Reason, "pause")
	// It stops in the timer it was given (code without a file, whose text
	// comes from the source request), or in the server's own code.
	m := c.req("stackTrace", map[string]any{"threadId": 1})
	top := body[struct {
		StackFrames []struct {
			Name   string
			Source struct {
				Path            string
				SourceReference int
			}
		}
	}](t, m).StackFrames[0]
	switch {
	case top.Source.SourceReference > 0:
		src := body[struct{ Content string }](t, c.req("source", map[string]any{"source": map[string]any{"sourceReference": top.Source.SourceReference}, "sourceReference": top.Source.SourceReference}))
		if !strings.Contains(src.Content, "function dbgPause") {
			t.Fatalf("source %q", src.Content)
		}
	case top.Source.Path != script:
		t.Fatalf("top frame %+v has neither a sourceReference nor the server's path", top)
	}
	c.req("continue", map[string]any{"threadId": 1})

	c.req("disconnect", map[string]any{"terminateDebuggee": false})
	want(t, "after detach", s.get(t), "hits=2")
	select {
	case <-s.proc.Exited():
		t.Fatal("the server died on detach")
	default:
	}
}

func TestAttachByPort(t *testing.T) {
	t.Parallel()
	s := startServer(t, "--inspect=127.0.0.1:0")
	debugServer(t, s, map[string]any{"port": portOf(s.wsURL), "address": "127.0.0.1"})
	// The inspector is still there for the next debugger.
	if _, err := ListTargets(context.Background(), "127.0.0.1", portOf(s.wsURL)); err != nil {
		t.Fatalf("inspector gone after detach: %v", err)
	}
}

func TestAttachByPID(t *testing.T) {
	t.Parallel()
	port := freePort(t)
	s := startServer(t, fmt.Sprintf("--inspect-port=127.0.0.1:%d", port))
	debugServer(t, s, map[string]any{"processId": s.proc.Pid()})
	// Attach again: the inspector opened by SIGUSR1 is reused.
	c := newClient(t)
	if err := c.start("attach", map[string]any{"processId": strconv.Itoa(s.proc.Pid())}); err != nil {
		t.Fatal(err)
	}
	c.req("disconnect", nil)
	want(t, "after second detach", s.get(t), "hits=3")
}

func TestAttachFailures(t *testing.T) {
	t.Parallel()
	t.Run("port is not an inspector", func(t *testing.T) {
		s := startServer(t) // an HTTP server, but no inspector
		c := newClient(t)
		err := c.start("attach", map[string]any{"port": s.port})
		if err == nil || !strings.Contains(err.Error(), "not a Node inspector") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("nothing listens", func(t *testing.T) {
		c := newClient(t)
		err := c.start("attach", map[string]any{"port": freePort(t)})
		if err == nil || !strings.Contains(err.Error(), "no Node inspector") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("inspector port taken", func(t *testing.T) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		port := ln.Addr().(*net.TCPAddr).Port
		s := startServer(t, fmt.Sprintf("--inspect-port=127.0.0.1:%d", port))
		c := newClient(t)
		err = c.start("attach", map[string]any{"processId": s.proc.Pid()})
		if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("port %d is taken", port)) {
			t.Fatalf("err = %v", err)
		}
		want(t, "still serving", s.get(t), "hits=1")
	})
	t.Run("not node", func(t *testing.T) {
		c := newClient(t)
		err := c.start("attach", map[string]any{"processId": 1})
		if err == nil || !strings.Contains(err.Error(), "is not node") {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestAttachToWaitingProgram attaches to a node started with --inspect-brk
// (waiting for a debugger): breakpoints set before configurationDone hit.
func TestAttachToWaitingProgram(t *testing.T) {
	t.Parallel()
	node := mustHaveNode(t)
	script := fixture(t, "loop.js")
	ctx, cancel := context.WithTimeout(context.Background(), clientWait)
	defer cancel()
	np, err := startNode(ctx, exec.Command(node, "--inspect-brk=127.0.0.1:0", script), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(np.proc.Kill)
	c := newClient(t)
	if err := c.start("attach", map[string]any{"port": portOf(np.wsURL)}); err != nil {
		t.Fatal(err)
	}
	line := lineOf(t, script, "BP:loop")
	c.setBreakpoints(script, map[string]any{"line": line})
	c.req("configurationDone", nil)
	st := c.stopped()
	want(t, "reason", st.Reason, "breakpoint")
	want(t, "line", c.frames()[0].Line, line)
	want(t, "i", c.locals()["i"].Value, "0")
}

// TestAttachTerminate ends an attached program on request.
func TestAttachTerminate(t *testing.T) {
	t.Parallel()
	s := startServer(t, "--inspect=127.0.0.1:0")
	c := newClient(t)
	if err := c.start("attach", map[string]any{"port": portOf(s.wsURL)}); err != nil {
		t.Fatal(err)
	}
	c.req("configurationDone", nil)
	c.req("disconnect", map[string]any{"terminateDebuggee": true})
	select {
	case <-s.proc.Exited():
	case <-time.After(10 * time.Second):
		t.Fatal("the attached server still runs after disconnect with terminateDebuggee")
	}
}
