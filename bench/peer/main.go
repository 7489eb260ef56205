// Command peer runs dbg and mcp-debugger side by side, through the same
// MCP client (the go-sdk's, over stdio) and the same calls on the same
// fixtures, and writes what it measured to bench/results/peer.md (a
// Markdown table of medians and dbg/peer ratios, with the machine noted)
// and bench/results/peer.svg (a chart of the ratios). It also puts the
// table into the README, between the peer-bench markers.
//
// bench/peer.sh installs the pinned peer and runs it:
//
//	bash bench/peer.sh            # 5 runs
//	bash bench/peer.sh -n 3 -langs python,go
//
// Each run starts each server afresh for each language, in alternating
// order (dbg first in even runs, the peer first in odd ones), so a busy
// machine weighs on both alike. In a server it runs two sessions of the
// same scenario: create_debug_session, set_breakpoint, start_debugging,
// the first stop, step_over and evaluate_expression a few times each,
// close_debug_session. The first session's stop is "first stop, new
// server", the second's "first stop"; steps and evaluates count in both.
// Memory is the resident memory of the server's whole process tree
// (adapters and debuggee included) at the first session's stop. Bytes
// are what a client reads: the tools/list answer, and the answers of a
// third session's 14-call flow (flow.go).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	o := options{}
	flag.IntVar(&o.runs, "n", 5, "alternating runs per language")
	flag.IntVar(&o.steps, "steps", 4, "step_over and evaluate_expression calls per session")
	flag.StringVar(&o.langs, "langs", "python,go,javascript,java", "languages, comma-separated")
	flag.StringVar(&o.peerCLI, "peer", "", "mcp-debugger's entry point (dist/cli); bench/peer.sh installs it")
	flag.StringVar(&o.javaHome, "java-home", "/usr/lib/jvm/temurin-25-jdk-amd64", "JDK both servers run Java on (mcp-debugger needs 21+)")
	flag.StringVar(&o.dbg, "dbg", "", "dbg binary (default: built from this checkout)")
	flag.StringVar(&o.root, "root", ".", "the repository's root")
	flag.StringVar(&o.out, "out", "bench/results", "folder for peer.md and peer.svg")
	flag.StringVar(&o.readme, "readme", "README.md", "README to put the table in (empty: leave it)")
	flag.StringVar(&o.logs, "logs", "", "folder to keep each server's stderr in (default: discard it)")
	flag.Parse()
	if err := run(context.Background(), o); err != nil {
		fmt.Fprintln(os.Stderr, "peer:", err)
		os.Exit(1)
	}
}

type options struct {
	runs, steps                                            int
	langs, peerCLI, javaHome, dbg, root, out, readme, logs string
}

func run(ctx context.Context, o options) error {
	if o.peerCLI == "" {
		return fmt.Errorf("-peer is required (bash bench/peer.sh installs mcp-debugger and passes it)")
	}
	if o.runs < 1 || o.steps < 1 {
		return fmt.Errorf("-n and -steps must be at least 1")
	}
	root, err := filepath.Abs(o.root)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "dbg-bench-peer-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	rep := &report{runs: o.runs, steps: o.steps, started: time.Now().UTC(), machine: machine(), results: map[string]*[2]samples{}}
	rep.command = "bash bench/peer.sh"
	if len(os.Args) > 1 {
		rep.command += " " + strings.Join(os.Args[1:], " ")
		rep.command = strings.Replace(rep.command, " -peer "+o.peerCLI, "", 1)
	}
	if o.dbg == "" {
		o.dbg = filepath.Join(tmp, "dbg")
		build := exec.Command("go", "build", "-o", o.dbg, "./cmd/dbg")
		build.Dir = root
		if out, err := build.CombinedOutput(); err != nil {
			return fmt.Errorf("go build ./cmd/dbg: %w: %s", err, out)
		}
	}
	env := javaEnv(o.javaHome)
	servers := [2]server{
		// core: dbg's default in a project that needs no other toolset,
		// whatever the machine runs (a JVM adds the jvm set).
		{name: "dbg", argv: []string{o.dbg, "mcp", "--toolsets", "core"}, env: append([]string{"DBG_STATE_DIR=" + filepath.Join(tmp, "state")}, env...), start: dbgStart},
		{name: "mcp-debugger", argv: []string{"node", o.peerCLI, "stdio"}, env: env, start: peerStart},
	}
	for i := range servers {
		servers[i].logs = o.logs
	}
	rep.versions = versions(root, o.peerCLI, o.javaHome)
	for _, lang := range strings.Split(o.langs, ",") {
		fx, err := loadFixture(root, strings.TrimSpace(lang), o.javaHome, tmp)
		if err != nil {
			return err
		}
		rep.langs = append(rep.langs, fx.lang)
		rep.results[fx.lang] = &[2]samples{}
		for i := 0; i < o.runs; i++ {
			for k := 0; k < 2; k++ {
				s := (i + k) % 2 // alternate who goes first
				res := rep.results[fx.lang]
				err := measure(ctx, servers[s], fx, o.steps, &res[s])
				fmt.Fprintf(os.Stderr, "%s run %d %s: %s\n", fx.lang, i+1, servers[s].name, progress(&res[s], err))
			}
		}
	}
	rep.finished = time.Now().UTC()
	rep.loadEnd = loadAverage()
	return rep.write(root, o.out, o.readme)
}

// measure starts srv, runs two sessions of fx in it and adds what it saw
// to s; an error ends this run, what was measured before it is kept, and
// the error is kept in s.errs too.
func measure(ctx context.Context, srv server, fx fixture, steps int, s *samples) (err error) {
	defer func() {
		if err != nil {
			s.errs = append(s.errs, err.Error())
		}
	}()
	c, init, err := connect(ctx, srv)
	if err != nil {
		return err
	}
	defer c.close()
	s.add(startup, ms(init))
	s.add(listBytes, kb(c.listBytes.Load()))
	for n := 1; n <= 2; n++ {
		t, err := c.session(ctx, srv, fx, steps)
		s.addSession(n, t)
		if err != nil {
			return fmt.Errorf("session %d of 2: %w", n, err)
		}
	}
	n, err := c.flow(ctx, srv, fx)
	if err != nil {
		return fmt.Errorf("the 14-call flow: %w", err)
	}
	s.add(flowBytes, kb(int64(n)))
	s.add(answerBytes, float64(n)/flowCalls)
	return nil
}

func kb(n int64) float64 { return float64(n) / 1024 }

// progress is one line about the run that just ended.
func progress(s *samples, err error) string {
	if err != nil {
		return "failed: " + err.Error()
	}
	var parts []string
	for f := figure(0); f < numFigures; f++ {
		if vs := s.values[f]; len(vs) > 0 {
			parts = append(parts, fmt.Sprintf("%s %.1f %s", f.label(), vs[len(vs)-1], f.unit()))
		}
	}
	return strings.Join(parts, ", ")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// javaEnv puts javaHome first on PATH and in JAVA_HOME, for both servers.
func javaEnv(javaHome string) []string {
	if javaHome == "" {
		return nil
	}
	return []string{"JAVA_HOME=" + javaHome, "PATH=" + filepath.Join(javaHome, "bin") + string(os.PathListSeparator) + os.Getenv("PATH")}
}
