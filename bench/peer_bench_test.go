package bench

// dbg side by side with mcp-debugger 0.24.2, the leading DAP MCP server,
// driven by the same go-sdk MCP client over stdio on the same fixtures:
//
//	bash bench/install-peer.sh
//	go test -run XXX -bench Peer -benchtime 3x ./bench/
//
// It reports, per language, the time from create_debug_session to the
// first stop at a breakpoint, one step_over and one evaluate round trip,
// and for the servers themselves the exec → initialize time and the
// resident memory of the server and its helper processes with one session
// paused.

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// peerCLI finds mcp-debugger's entry point.
func peerCLI(b *testing.B) string {
	if p := os.Getenv("DBG_PEER_MCP_DEBUGGER"); p != "" {
		return p
	}
	home, _ := os.UserHomeDir()
	p := filepath.Join(home, ".cache", "dbg-bench", "mcp-debugger", "node_modules", "@debugmcp", "mcp-debugger", "dist", "cli")
	if _, err := os.Stat(p); err != nil {
		b.Skip("mcp-debugger is not installed: run bash bench/install-peer.sh")
	}
	return p
}

type server struct {
	name string
	argv func(b *testing.B) []string
}

func servers() []server {
	return []server{
		{"dbg", func(b *testing.B) []string { return []string{dbgBinary(b), "mcp"} }},
		{"mcp-debugger", func(b *testing.B) []string { return []string{"node", peerCLI(b), "stdio"} }},
	}
}

type peerClient struct {
	b   *testing.B
	cs  *mcp.ClientSession
	cmd *exec.Cmd
}

func connect(b *testing.B, argv []string) (*peerClient, time.Duration) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "DBG_STATE_DIR="+b.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	start := time.Now()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatalf("%v: %v", argv, err)
	}
	return &peerClient{b: b, cs: cs, cmd: cmd}, time.Since(start)
}

// call returns the tool's JSON answer; dbg's envelope is unwrapped so
// both servers read alike.
func (c *peerClient) call(name string, args map[string]any) map[string]any {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		c.b.Fatalf("%s: %v", name, err)
	}
	var out map[string]any
	for _, ct := range res.Content {
		if tc, ok := ct.(*mcp.TextContent); ok {
			_ = json.Unmarshal([]byte(tc.Text), &out)
			break
		}
	}
	if out["success"] != true || res.IsError {
		c.b.Fatalf("%s(%v) failed: %v", name, args, out)
	}
	if data, ok := out["data"].(map[string]any); ok && out["requestId"] != nil {
		return data
	}
	return out
}

type peerCase struct {
	lang, program, marker, expr string
}

func peerCases(b *testing.B) []peerCase {
	root := nativeRoot(b)
	return []peerCase{
		{"python", filepath.Join(root, "testdata/python/loop.py"), "BREAK", "total + 10"},
		{"javascript", filepath.Join(root, "testdata/javascript/loop.js"), "BP:loop", "total + 10"},
		{"go", filepath.Join(root, "testdata/go/loop/main.go"), "BREAK", "total + 10"},
	}
}

// session runs one create → first stop → steps → evaluates → close.
func (c *peerClient) session(pc peerCase, line, steps int) (first, step, eval time.Duration) {
	start := time.Now()
	id, _ := c.call("create_debug_session", map[string]any{"language": pc.lang})["sessionId"].(string)
	c.call("set_breakpoint", map[string]any{"sessionId": id, "file": pc.program, "line": line})
	st := c.call("start_debugging", map[string]any{"sessionId": id, "scriptPath": pc.program})
	// A server that answers before the stop is polled until it is paused.
	for deadline := time.Now().Add(time.Minute); st["state"] != "paused"; {
		if time.Now().After(deadline) {
			c.b.Fatalf("%s never stopped: %v", pc.lang, st)
		}
		time.Sleep(5 * time.Millisecond)
		st = c.call("list_debug_sessions", nil)
		st = map[string]any{"state": sessionState(st, id)}
	}
	first = time.Since(start)
	t0 := time.Now()
	for i := 0; i < steps; i++ {
		c.call("step_over", map[string]any{"sessionId": id})
	}
	step = time.Since(t0) / time.Duration(steps)
	t0 = time.Now()
	for i := 0; i < steps; i++ {
		c.call("evaluate_expression", map[string]any{"sessionId": id, "expression": pc.expr})
	}
	eval = time.Since(t0) / time.Duration(steps)
	c.call("close_debug_session", map[string]any{"sessionId": id})
	return first, step, eval
}

func sessionState(list map[string]any, id string) string {
	arr, _ := list["sessions"].([]any)
	for _, s := range arr {
		m, _ := s.(map[string]any)
		if m["sessionId"] == id || m["id"] == id {
			st, _ := m["state"].(string)
			return strings.ToLower(st)
		}
	}
	return ""
}

func BenchmarkPeer(b *testing.B) {
	for _, pc := range peerCases(b) {
		b.Run(pc.lang, func(b *testing.B) {
			line := nativeLine(b, pc.program, pc.marker)
			for _, srv := range servers() {
				b.Run(srv.name, func(b *testing.B) {
					c, _ := connect(b, srv.argv(b))
					defer c.cs.Close()
					c.session(pc, line, 1) // warm caches (builds, bytecode)
					var first, step, eval time.Duration
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						f, s, e := c.session(pc, line, 4)
						first, step, eval = first+f, step+s, eval+e
					}
					n := time.Duration(b.N)
					b.ReportMetric(ms(first/n), "first-stop-ms")
					b.ReportMetric(ms(step/n), "step-ms")
					b.ReportMetric(ms(eval/n), "eval-ms")
				})
			}
		})
	}
}

// BenchmarkPeerServer measures exec → initialize, and the resident memory
// of the server and every process it started, with one Python session
// paused at a breakpoint (the adapter itself, debugpy, is counted for
// neither: it is the same program for both).
func BenchmarkPeerServer(b *testing.B) {
	pc := peerCases(b)[0]
	line := nativeLine(b, pc.program, pc.marker)
	for _, srv := range servers() {
		b.Run(srv.name, func(b *testing.B) {
			var init time.Duration
			var rss float64
			for i := 0; i < b.N; i++ {
				c, d := connect(b, srv.argv(b))
				init += d
				id, _ := c.call("create_debug_session", map[string]any{"language": pc.lang})["sessionId"].(string)
				c.call("set_breakpoint", map[string]any{"sessionId": id, "file": pc.program, "line": line})
				c.call("start_debugging", map[string]any{"sessionId": id, "scriptPath": pc.program})
				rss += float64(serverRSS(c.cmd.Process.Pid)) / 1024
				_ = c.cs.Close()
			}
			n := float64(b.N)
			b.ReportMetric(ms(init/time.Duration(b.N)), "exec-to-initialize-ms")
			b.ReportMetric(rss/n, "server-rss-MB")
		})
	}
}

// serverRSS adds the server's resident memory and that of its
// descendants, leaving out debug adapters and debuggees (debugpy).
func serverRSS(pid int) int {
	total := rssKB(pid)
	for _, p := range descendantsOf(pid) {
		cmdline, _ := os.ReadFile("/proc/" + itoa(p) + "/cmdline")
		cl := string(cmdline)
		if strings.Contains(cl, "debugpy") || strings.Contains(cl, "loop.py") {
			continue
		}
		total += rssKB(p)
	}
	return total
}

func itoa(n int) string { return strconv.Itoa(n) }

// descendantsOf lists every descendant of pid from /proc.
func descendantsOf(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	kids := map[int][]int{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(stat)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) > 1 {
			pp, _ := strconv.Atoi(f[1])
			kids[pp] = append(kids[pp], p)
		}
	}
	var out []int
	q := []int{pid}
	for len(q) > 0 {
		p := q[0]
		q = q[1:]
		out = append(out, kids[p]...)
		q = append(q, kids[p]...)
	}
	return out
}
