package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/internal/dbgtest"
)

// raceEnabled is set when the tests run under the race detector; the
// server binary is then built with it too.
var raceEnabled bool

// dbgBinary is the dbg binary built once by TestMain.
var dbgBinary string

func TestMain(m *testing.M) {
	// A fuzzing worker, and a fuzzing run of no test (scripts/fuzz.sh:
	// -test.fuzz with -test.run '^$'), run fuzz targets only: no binary.
	fuzzOnly := slices.Contains(os.Args, "-test.run=^$") && slices.ContainsFunc(os.Args, func(a string) bool { return strings.HasPrefix(a, "-test.fuzz=") })
	if fuzzOnly || slices.ContainsFunc(os.Args, func(a string) bool { return strings.HasPrefix(a, "-test.fuzzworker") }) {
		os.Exit(m.Run())
	}
	// A race-enabled dbg sleeps a second before it exits (GORACE's
	// atexit_sleep_ms), and the tests start hundreds: they exit at once,
	// still reporting every race they saw.
	if _, ok := os.LookupEnv("GORACE"); !ok {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
	dir, err := os.MkdirTemp("", "dbg-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	dbgBinary = filepath.Join(dir, "dbg")
	buildDir = dir
	args := []string{"build", "-o", dbgBinary}
	if raceEnabled {
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, ".")...)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building dbg:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// repoRoot is the repository root (two levels above cmd/dbg).
func repoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

func fixture(t testing.TB, rel string) string {
	return filepath.Join(repoRoot(t), "testdata", rel)
}

// client is an MCP client talking to a `dbg mcp` child process.
type client struct {
	t   testing.TB
	cs  *mcp.ClientSession
	cmd *exec.Cmd
}

// startDbg starts `dbg mcp` with extra environment and connects to it.
func startDbg(t testing.TB, env ...string) *client {
	t.Helper()
	return startDbgWith(t, nil, nil, env...)
}

// startDbgWith starts `dbg mcp` with extra flags and environment and
// connects to it with a client of opts (nil: the defaults). The tests'
// programs live in temporary folders outside the project, so the server
// lets paths out of it (--allow-outside-project) unless flags say
// otherwise (--allow-outside-project=false: the confined default).
func startDbgWith(t testing.TB, opts *mcp.ClientOptions, flags []string, env ...string) *client {
	t.Helper()
	if !slices.ContainsFunc(flags, func(f string) bool { return strings.HasPrefix(f, "--allow-outside-project") }) {
		flags = append(flags, "--allow-outside-project")
	}
	cs, cmd := dbgtest.StartServer(t, dbgtest.Server{Binary: dbgBinary, Args: flags, Env: env, Client: opts})
	cl := &client{t: t, cs: cs, cmd: cmd}
	t.Cleanup(func() { cl.close() })
	return cl
}

// with returns the client reporting to t: a server shared by several
// tests answers each of them.
func (c *client) with(t testing.TB) *client {
	return &client{t: t, cs: c.cs, cmd: c.cmd}
}

func (c *client) close() {
	if c.cs != nil {
		_ = c.cs.Close()
		c.cs = nil
	}
}

// result is a tool's envelope.
type result struct {
	Success bool           `json:"success"`
	Data    map[string]any `json:"data"`
	Error   *struct {
		Code             string   `json:"code"`
		Message          string   `json:"message"`
		Hint             string   `json:"hint"`
		AvailableOptions []string `json:"availableOptions"`
		NextAction       string   `json:"nextAction"`
	} `json:"error"`
	IsError bool `json:"-"`
}

func (c *client) call(name string, args map[string]any) result {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		c.t.Fatalf("%s: protocol error: %v", name, err)
	}
	var r result
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &r); err != nil {
		c.t.Fatalf("%s: bad structured content %s: %v", name, b, err)
	}
	if len(res.Content) == 0 {
		c.t.Fatalf("%s: no text content", name)
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); !ok || !json.Valid([]byte(tc.Text)) {
		c.t.Fatalf("%s: text content is not JSON", name)
	}
	r.IsError = res.IsError
	if r.IsError == r.Success {
		c.t.Fatalf("%s: isError=%v but success=%v", name, res.IsError, r.Success)
	}
	return r
}

// ok calls a tool that must succeed and returns its data.
func (c *client) ok(name string, args map[string]any) obj {
	c.t.Helper()
	r := c.call(name, args)
	if !r.Success {
		c.t.Fatalf("%s(%v) failed: %s: %s (hint: %s)", name, args, r.Error.Code, r.Error.Message, r.Error.Hint)
	}
	return obj(r.Data)
}

// fail calls a tool that must fail with code.
func (c *client) fail(name string, args map[string]any, code string) result {
	c.t.Helper()
	r := c.call(name, args)
	if r.Success {
		c.t.Fatalf("%s(%v) succeeded, want error %s: %v", name, args, code, r.Data)
	}
	if r.Error.Code != code {
		c.t.Fatalf("%s: error code %s (%s), want %s", name, r.Error.Code, r.Error.Message, code)
	}
	if r.Error.Message == "" {
		c.t.Fatalf("%s: error without message", name)
	}
	return r
}

// obj reads nested JSON values by dotted path.
type obj map[string]any

func (o obj) get(path string) any {
	var cur any = map[string]any(o)
	for _, p := range strings.Split(path, ".") {
		switch x := cur.(type) {
		case map[string]any:
			cur = x[p]
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i >= len(x) {
				return nil
			}
			cur = x[i]
		default:
			return nil
		}
	}
	return cur
}

func (o obj) str(path string) string {
	v := o.get(path)
	if v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

func (o obj) num(path string) int {
	f, _ := o.get(path).(float64)
	return int(f)
}

func (o obj) list(path string) []obj {
	arr, _ := o.get(path).([]any)
	out := make([]obj, 0, len(arr))
	for _, a := range arr {
		m, _ := a.(map[string]any)
		out = append(out, obj(m))
	}
	return out
}

// markedLineT returns the line of a fixture containing marker.
func markedLineT(t testing.TB, path, marker string) int {
	t.Helper()
	return dbgtest.LineOf(t, path, marker)
}

// processAlive reports whether pid runs (zombies count as gone).
func processAlive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || !strings.HasPrefix(strings.TrimSpace(s[i+1:]), "Z")
}

// waitGone waits up to d for every pid to exit.
func waitGone(t testing.TB, d time.Duration, pids ...int) {
	t.Helper()
	deadline := time.Now().Add(d)
	for _, p := range pids {
		if p <= 0 {
			continue
		}
		for processAlive(p) {
			if time.Now().After(deadline) {
				cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p))
				t.Errorf("process %d (%s) outlived its session", p, strings.ReplaceAll(string(cmdline), "\x00", " "))
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// childrenOf lists the descendants of pid.
func childrenOf(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	kids := map[int][]int{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
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
		for _, k := range kids[p] {
			out = append(out, k)
			q = append(q, k)
		}
	}
	return out
}

// startTarget starts a program to attach to, in its own process group,
// killed at the end of the test. It waits for a line containing ready.
func startTarget(t testing.TB, ready string, name string, args ...string) (*exec.Cmd, *lineBuffer) {
	t.Helper()
	return startTargetIn(t, "", ready, name, args...)
}

// startTargetIn is startTarget with a working directory.
func startTargetIn(t testing.TB, dir, ready, name string, args ...string) (*exec.Cmd, *lineBuffer) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out := &lineBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		_ = cmd.Wait()
	})
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(out.String(), ready) {
		if time.Now().After(deadline) {
			t.Fatalf("%s never printed %q; output: %s", name, ready, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	return cmd, out
}

// freePort returns a TCP port free on the loopback interface.
func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// requireTool skips the test unless name runs with args.
func requireTool(t *testing.T, name string, args ...string) {
	t.Helper()
	if err := exec.Command(name, args...).Run(); err != nil {
		t.Skipf("%s is not installed (scripts/install-test-deps.sh installs it): %v", name, err)
	}
}

// requireDebugpy skips the test unless python3 imports debugpy.
func requireDebugpy(t *testing.T) {
	t.Helper()
	requireTool(t, "python3", "-c", "import debugpy")
}
