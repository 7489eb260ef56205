// Command load puts several MCP clients on one dbg server over
// Streamable HTTP, each on its own connection with its own sessions of
// mixed languages, every session looping locals → step ×5 → evaluate →
// continue → stop at its breakpoint, and reports the latency of each
// tool (p50, p99, against one client alone), the errors, each session's
// memory, the server's CPU while every session is paused, what the
// server holds at the start and the end, and whether any client saw
// another's session without asking for it:
//
//	go run ./bench/load                                 # 8 clients × python, go, javascript, mock; 5 minutes
//	go run ./bench/load -d 1m -out bench/results/load.md
//
// The server is dbg's session manager with the session tools, the audit
// and the clients followed, as dbg serve builds them, served in this
// process (so its goroutines can be counted) on a loopback port behind a
// bearer token. The exit status is 1 on any error, growth or isolation
// failure. A 60-second version runs in go test (load_test.go).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

func main() {
	clients := flag.Int("clients", 8, "MCP clients")
	langs := flag.String("langs", "python,go,javascript,mock", "each client's sessions, one per language")
	d := flag.Duration("d", 5*time.Minute, "how long the clients loop together")
	baseline := flag.Duration("baseline", time.Minute, "how long one client loops alone first")
	steps := flag.Int("steps", 5, "step_over calls per pass")
	out := flag.String("out", "", "also write the Markdown report here")
	profile := flag.String("profile", "", "write the loaded phase's CPU profile here (default: beside -out)")
	flag.Parse()
	root, err := repoRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
	if *profile == "" && *out != "" {
		*profile = strings.TrimSuffix(*out, ".md") + "-cpu.pprof"
	}
	rep, err := Run(context.Background(), Config{Clients: *clients, Langs: strings.Split(*langs, ","), Duration: *d, Baseline: *baseline,
		Steps: *steps, Profile: *profile, Root: root, Idle: 5 * time.Second})
	if err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
	if *profile != "" {
		rep.ProfileTop = profileTop(*profile)
		rep.PausedTop = profileTop(strings.TrimSuffix(*profile, ".pprof") + "-paused.pprof")
	}
	md := rep.Markdown()
	fmt.Print(md)
	if *out != "" {
		if err := os.WriteFile(*out, []byte(md), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "load:", err)
			os.Exit(1)
		}
	}
	if len(rep.Failed()) > 0 {
		os.Exit(1)
	}
}

func repoRoot() (string, error) {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Abs(filepath.Join(filepath.Dir(file), "..", ".."))
}

// profileTop is the head of `go tool pprof -top` of the profile.
func profileTop(path string) string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "go", "tool", "pprof", "-top", "-nodecount=25", exe, path).Output()
	if err != nil {
		return ""
	}
	return string(out)
}
