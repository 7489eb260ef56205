// Command soak runs create → breakpoint → stop → close cycles of real
// debug sessions, per language, against one dbg server, and reports the
// errors, the latency of a cycle (p50, p99) and what the server holds
// (goroutines, open file descriptors, resident memory, child processes)
// at the end against the start:
//
//	go run ./bench/soak                       # 200 cycles each of python, go, javascript, java
//	go run ./bench/soak -n 50 -langs python,go -out /tmp/soak.md
//
// The server is dbg's session manager with the session tools, served
// through the MCP SDK over an in-memory transport, in this process, so
// its goroutines can be counted: the same code as `dbg mcp` but for the
// stdio transport. Languages run side by side, the cycles of one
// language one after another. The start is taken after one cycle per
// language (so the warm adapter pool holds its idle adapters in both
// figures). Growth is a failure: goroutines that were not there at the
// start (go.uber.org/goleak), more descriptors or child processes, or a
// resident set grown by more than a quarter. The exit status is 1 on any
// error or growth.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/sessions/sessiontools"
	"github.com/dbg-dev/dbg/toolkit/mcpbind"
)

// fixtures: language → file under testdata, the marker of the
// breakpoint line.
var fixtures = map[string][2]string{
	"python":     {"python/loop.py", "# BREAK"},
	"go":         {"go/loop/main.go", "// BREAK"},
	"javascript": {"javascript/loop.js", "// BP:loop"},
	"java":       {"java/Loop.java", "// BP:loop"},
}

type fixture struct {
	lang, source string
	line         int
	start        map[string]any
}

func main() {
	n := flag.Int("n", 200, "cycles per language")
	langs := flag.String("langs", "python,go,javascript,java", "languages, comma-separated")
	out := flag.String("out", "", "also write the Markdown report to this file")
	budget := flag.Duration("budget", 0, "stop starting cycles after this long (0: none); the report says how many ran")
	flag.Parse()
	if err := run(*n, strings.Split(*langs, ","), *out, *budget); err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
}

func repoRoot() (string, error) {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Abs(filepath.Join(filepath.Dir(file), "..", ".."))
}

func loadFixture(root, lang, tmp string) (fixture, error) {
	spec, ok := fixtures[lang]
	if !ok {
		return fixture{}, fmt.Errorf("no fixture for %q", lang)
	}
	src := filepath.Join(root, "testdata", spec[0])
	b, err := os.ReadFile(src)
	if err != nil {
		return fixture{}, err
	}
	fx := fixture{lang: lang, source: src, start: map[string]any{"scriptPath": src, "waitMs": 60000}}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.HasSuffix(strings.TrimSpace(l), spec[1]) {
			fx.line = i + 1
			break
		}
	}
	if fx.line == 0 {
		return fixture{}, fmt.Errorf("%s: no line marked %q", src, spec[1])
	}
	if lang == "java" {
		classes := filepath.Join(tmp, "java")
		if out, err := exec.Command("javac", "-g", "-d", classes, src).CombinedOutput(); err != nil {
			return fixture{}, fmt.Errorf("javac: %w: %s", err, out)
		}
		fx.start["scriptPath"] = "Loop"
		fx.start["adapterLaunchConfig"] = map[string]any{"classpath": classes}
	}
	return fx, nil
}

// client calls tools and decodes dbg's envelope.
type client struct{ cs *mcp.ClientSession }

func (c client) call(name string, args map[string]any) (map[string]any, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var env struct {
		Success bool
		Data    map[string]any
		Error   map[string]any
	}
	raw, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(raw, &env)
	if !env.Success {
		return nil, fmt.Errorf("%s: %v", name, env.Error)
	}
	return env.Data, nil
}

// cycle is one create → breakpoint → stop → close.
func (c client) cycle(fx fixture) error {
	s, err := c.call("create_debug_session", map[string]any{"language": fx.lang})
	if err != nil {
		return err
	}
	id, _ := s["sessionId"].(string)
	defer c.call("close_debug_session", map[string]any{"sessionId": id}) //nolint:errcheck // checked below on success
	if _, err := c.call("set_breakpoint", map[string]any{"sessionId": id, "file": fx.source, "line": fx.line}); err != nil {
		return err
	}
	args := map[string]any{"sessionId": id}
	for k, v := range fx.start {
		args[k] = v
	}
	st, err := c.call("start_debugging", args)
	if err != nil {
		return err
	}
	if st["state"] != "paused" {
		w, err := c.call("wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 60000})
		if err != nil {
			return err
		}
		st = w
	}
	if st["state"] != "paused" {
		return fmt.Errorf("not stopped: %v", st)
	}
	if loc, _ := st["lastStop"].(map[string]any); loc != nil {
		if l, _ := loc["location"].(map[string]any); l != nil && int(toF(l["line"])) != fx.line {
			return fmt.Errorf("stopped at line %v, want %d", l["line"], fx.line)
		}
	}
	_, err = c.call("close_debug_session", map[string]any{"sessionId": id})
	return err
}

func toF(v any) float64 { f, _ := v.(float64); return f }

// holdings is what the server holds at one moment.
type holdings struct {
	goroutines, fds, children int
	rss                       int64
}

func snapshot() holdings {
	runtime.GC()
	debug.FreeOSMemory()
	fds, _ := os.ReadDir("/proc/self/fd")
	rss, _ := proc.RSS(os.Getpid())
	return holdings{goroutines: runtime.NumGoroutine(), fds: len(fds), children: len(proc.Descendants(os.Getpid())), rss: rss}
}

// settle waits up to d for the goroutines, descriptors and children to
// come back to base, and returns the last snapshot.
func settle(base holdings, d time.Duration) holdings {
	deadline := time.Now().Add(d)
	for {
		h := snapshot()
		if (h.goroutines <= base.goroutines && h.fds <= base.fds && h.children <= base.children) || time.Now().After(deadline) {
			return h
		}
		time.Sleep(200 * time.Millisecond)
	}
}

type result struct {
	lang   string
	n      int
	done   int
	errors []string
	lat    []time.Duration
}

func pct(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(float64(len(s)-1) * p)
	return s[i]
}

func run(n int, langs []string, out string, budget time.Duration) error {
	root, err := repoRoot()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "dbg-soak-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	var fxs []fixture
	for _, l := range langs {
		fx, err := loadFixture(root, strings.TrimSpace(l), tmp)
		if err != nil {
			return err
		}
		fxs = append(fxs, fx)
	}
	m := sessions.NewManager(sessions.Config{Adapters: adapters.Default(), StateDir: filepath.Join(tmp, "state"), WarmAdapters: true})
	srv := mcp.NewServer(&mcp.Implementation{Name: "dbg", Version: "soak"}, nil)
	tb := mcpbind.NewToolbox(srv, time.Now)
	sessiontools.New(m).Register(tb)
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		return err
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "soak", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return err
	}
	c := client{cs: cs}
	began := time.Now()
	// One cycle per language first: the adapters' first start, the pool's
	// first idle process.
	for _, fx := range fxs {
		if err := c.cycle(fx); err != nil {
			return fmt.Errorf("%s warm-up: %w", fx.lang, err)
		}
	}
	time.Sleep(2 * time.Second) // the idle adapters are up
	base := snapshot()
	leakBase := goleak.IgnoreCurrent()
	results := make([]*result, len(fxs))
	var wg sync.WaitGroup
	for i, fx := range fxs {
		results[i] = &result{lang: fx.lang, n: n}
		wg.Add(1)
		go func(r *result, fx fixture) {
			defer wg.Done()
			for k := 0; k < n; k++ {
				if budget > 0 && time.Since(began) > budget {
					break
				}
				r.done++
				t0 := time.Now()
				if err := c.cycle(fx); err != nil {
					r.errors = append(r.errors, err.Error())
					continue
				}
				r.lat = append(r.lat, time.Since(t0))
			}
		}(results[i], fx)
	}
	wg.Wait()
	time.Sleep(2 * time.Second) // the idle adapters are up again
	end := settle(base, 20*time.Second)
	// The idle adapters were replaced meanwhile: their processes' own
	// goroutines are new ones, counted instead (children, goroutines).
	leak := goleak.Find(leakBase,
		goleak.IgnoreAnyFunction("github.com/dbg-dev/dbg/dap.StartProcess.func1"),
		goleak.IgnoreAnyFunction("github.com/dbg-dev/dbg/dap.StartProcess.func2"),
		goleak.IgnoreAnyFunction("github.com/dbg-dev/dbg/dap.StartProcess.func3"))
	if leak == nil && end.goroutines > base.goroutines {
		leak = fmt.Errorf("%d goroutines at the end, %d at the start", end.goroutines, base.goroutines)
	}
	elapsed := time.Since(began)
	_ = cs.Close()
	_ = ss.Wait()
	m.Shutdown(context.Background())

	var md strings.Builder
	fmt.Fprintf(&md, "Soak: %d create → breakpoint → stop → close cycles per language in one server, languages side by side (%s, %d CPUs, %s, load average at the end %s).\n\n",
		n, time.Now().UTC().Format("2006-01-02"), runtime.NumCPU(), elapsed.Round(time.Second), loadAverage())
	fmt.Fprintln(&md, "| language | cycles | errors | p50 | p99 |")
	fmt.Fprintln(&md, "|---|---|---|---|---|")
	failed := false
	for _, r := range results {
		cycles := fmt.Sprint(r.done)
		if r.done < r.n {
			cycles = fmt.Sprintf("%d of %d (time budget)", r.done, r.n)
		}
		fmt.Fprintf(&md, "| %s | %s | %d | %d ms | %d ms |\n", r.lang, cycles, len(r.errors), pct(r.lat, 0.5).Milliseconds(), pct(r.lat, 0.99).Milliseconds())
		if len(r.errors) > 0 {
			failed = true
		}
	}
	fmt.Fprintln(&md)
	fmt.Fprintln(&md, "| the server holds | start | end |")
	fmt.Fprintln(&md, "|---|---|---|")
	fmt.Fprintf(&md, "| goroutines | %d | %d |\n", base.goroutines, end.goroutines)
	fmt.Fprintf(&md, "| open file descriptors | %d | %d |\n", base.fds, end.fds)
	fmt.Fprintf(&md, "| child processes (idle adapters) | %d | %d |\n", base.children, end.children)
	fmt.Fprintf(&md, "| resident memory | %.1f MiB | %.1f MiB |\n", float64(base.rss)/(1<<20), float64(end.rss)/(1<<20))
	var growth []string
	if leak != nil {
		growth = append(growth, "goroutines not there at the start: "+leak.Error())
	}
	if end.fds > base.fds {
		growth = append(growth, fmt.Sprintf("%d more file descriptors", end.fds-base.fds))
	}
	if end.children > base.children {
		growth = append(growth, fmt.Sprintf("%d more child processes", end.children-base.children))
	}
	if end.rss > base.rss+base.rss/4 {
		growth = append(growth, fmt.Sprintf("resident memory grew by %.0f%%", 100*float64(end.rss-base.rss)/float64(base.rss)))
	}
	fmt.Fprintln(&md)
	if len(growth) == 0 {
		fmt.Fprintln(&md, "No growth: no goroutine, descriptor or process left behind (goleak), memory within a quarter of the start.")
	} else {
		failed = true
		fmt.Fprintln(&md, "Growth: "+strings.Join(growth, "; "))
	}
	for _, r := range results {
		for i, e := range r.errors {
			if i == 5 {
				fmt.Fprintf(&md, "\n%s: %d more errors", r.lang, len(r.errors)-5)
				break
			}
			fmt.Fprintf(&md, "\n%s error: %s", r.lang, e)
		}
	}
	fmt.Print(md.String())
	if out != "" {
		if err := os.WriteFile(out, []byte(md.String()), 0o644); err != nil {
			return err
		}
	}
	if failed {
		return fmt.Errorf("errors or growth (see above)")
	}
	return nil
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}
