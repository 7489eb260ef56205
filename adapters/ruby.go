package adapters

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"time"

	"github.com/dbg-dev/dbg/adapters/ruby"
	"github.com/dbg-dev/dbg/dap"
)

// Ruby is the adapter of language "ruby": rdbg (the debug gem) in its
// DAP mode. A launch runs `rdbg --open --host 127.0.0.1 --port P --
// script.rb args` and connects over TCP; an attach connects to a program
// already started with `rdbg --open --port P`.
//
// rdbg is reached through an in-process DAP proxy that makes old rdbg
// (debug 1.4, Debian bookworm's ruby3.1) behave like the other adapters:
// breakpoints removed by setBreakpoints no longer stop the program,
// the program's stdout/stderr become output events, the end of the
// program becomes exited+terminated events instead of a bare close, and
// the repeated stopped(pause) events of an attach are reported once.
// Quirks therefore reports none.
//
// A Ruby value holds no per-session state and is safe for concurrent use.
type Ruby struct{}

// NewRuby returns the ruby adapter.
func NewRuby() *Ruby { return &Ruby{} }

// Language returns "ruby".
func (r *Ruby) Language() string { return "ruby" }

// rdbgNameRE matches rdbg and Debian's versioned rdbg3.1.
var rdbgNameRE = regexp.MustCompile(`^rdbg(\d+(?:\.\d+)?)?$`)

// findRdbg finds rdbg in PATH: plain rdbg (the gem's) first, then the
// newest rdbgX.Y.
func (r *Ruby) findRdbg() (string, error) {
	if p, err := lookPath("rdbg"); err == nil {
		return p, nil
	}
	var found []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		entries, err := os.ReadDir(dir)
		if err != nil || dir == "" {
			continue
		}
		for _, e := range entries {
			if rdbgNameRE.MatchString(e.Name()) && natIsExec(filepath.Join(dir, e.Name())) {
				found = append(found, filepath.Join(dir, e.Name()))
			}
		}
	}
	if len(found) == 0 {
		return "", &NotFoundError{Language: "ruby", What: "rdbg (Ruby's debug gem)", Install: "dbg adapters install ruby"}
	}
	sort.Slice(found, func(i, j int) bool { return filepath.Base(found[i]) > filepath.Base(found[j]) })
	return found[0], nil
}

// Find reports rdbg and its version.
func (r *Ruby) Find(ctx context.Context) Info {
	info := Info{
		Language: "ruby", Adapter: "rdbg", Launch: true, AttachPort: true,
		InstallCommand: "dbg adapters install ruby",
		Aliases:        []string{"rb"},
	}
	p, err := r.findRdbg()
	if err != nil {
		info.Note = err.Error()
		return info
	}
	info.Found, info.Path = true, p
	if m := nativeVersionRE.FindString(natRunQuiet(ctx, p, "--version")); m != "" {
		info.Version = m
	}
	info.Note = "attach by port to a program started with `rdbg --open --port P script.rb`"
	return info
}

// InstallCommands installs Ruby 3.1 from Debian bookworm; its bundled
// debug gem provides rdbg3.1.
func (r *Ruby) InstallCommands() [][]string {
	return [][]string{
		{"apt-get", "update"},
		{"apt-get", "install", "-y", "--no-install-recommends",
			"ruby3.1=3.1.7+really3.1.2-0+deb12u1", "libruby3.1=3.1.7+really3.1.2-0+deb12u1", "ruby=1:3.1"},
	}
}

// Start launches the script under rdbg, or connects to t.Host:t.Port for
// an attach, and returns the proxied DAP stream.
func (r *Ruby) Start(ctx context.Context, t Target) (*Endpoint, error) {
	if t.Mode == Attach {
		if t.Port <= 0 {
			return nil, errors.New("ruby attaches by port: start the program with `rdbg --open --port P script.rb` and give that port")
		}
		host := t.Host
		if host == "" {
			host = "127.0.0.1"
		}
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		up, err := dap.Dial(dctx, net.JoinHostPort(host, strconv.Itoa(t.Port)))
		if err != nil {
			return nil, fmt.Errorf("connect to rdbg: %w", err)
		}
		px := ruby.New(true, false).Start(up, nil, "")
		return &Endpoint{Conn: px.Client(), Cleanup: px.Stop}, nil
	}
	rdbg, err := r.findRdbg()
	if err != nil {
		return nil, err
	}
	script, err := rubyScript(t)
	if err != nil {
		return nil, err
	}
	port, err := natFreePort()
	if err != nil {
		return nil, err
	}
	argv := []string{"--open", "--host", "127.0.0.1", "--port", strconv.Itoa(port)}
	if t.ExecutablePath != "" {
		argv = append(argv, "-c", "--", t.ExecutablePath, script)
	} else {
		argv = append(argv, "--", script)
	}
	argv = append(argv, t.Args...)
	cmd := exec.Command(rdbg, argv...)
	cmd.Dir = t.Cwd
	if cmd.Dir == "" {
		cmd.Dir = filepath.Dir(script)
	}
	cmd.Env = os.Environ()
	for k, v := range t.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	rp := ruby.New(false, t.StopOnEntry)
	p, err := dap.StartProcess(cmd, dap.ProcessOptions{OnLine: rp.OnLine})
	if err != nil {
		return nil, fmt.Errorf("start rdbg: %w", err)
	}
	dctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	// rdbg listens before its session exists, and old rdbg dies on a
	// connection in that window; it is ready when it says it waits.
	select {
	case <-rp.Ready():
	case <-p.Exited():
		return nil, fmt.Errorf("rdbg exited before accepting a connection: %s", p.StderrTail())
	case <-dctx.Done():
		p.Kill()
		return nil, fmt.Errorf("rdbg did not get ready: %w (stderr: %s)", dctx.Err(), p.StderrTail())
	}
	up, err := natDialWhileAlive(dctx, p, net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		p.Kill()
		return nil, fmt.Errorf("connect to rdbg: %w (stderr: %s)", err, p.StderrTail())
	}
	px := rp.Start(up, p, script)
	return &Endpoint{Conn: px.Client(), Process: p, Cleanup: px.Stop}, nil
}

// rubyScript returns the absolute script path of a launch.
func rubyScript(t Target) (string, error) {
	if t.Program == "" {
		return "", errors.New("no script to launch")
	}
	script := t.Program
	if !filepath.IsAbs(script) {
		base := t.Cwd
		if base == "" {
			var err error
			if base, err = os.Getwd(); err != nil {
				return "", err
			}
		}
		script = filepath.Join(base, script)
	}
	if _, err := os.Stat(script); err != nil {
		return "", fmt.Errorf("script %s: %w", script, err)
	}
	return script, nil
}

// LaunchArgs returns rdbg's launch arguments (rdbg runs the script given
// on its command line; these document it).
func (r *Ruby) LaunchArgs(ctx context.Context, t Target) (map[string]any, error) {
	script, err := rubyScript(t)
	if err != nil {
		return nil, err
	}
	args := map[string]any{
		"type": "rdbg", "name": "dbg", "request": "launch",
		"script": script, "args": natNonNil(t.Args), "stopOnEntry": t.StopOnEntry,
	}
	if t.Cwd != "" {
		args["cwd"] = t.Cwd
	}
	natMergeExtra(args, t.Extra)
	return args, nil
}

// AttachArgs returns rdbg's attach arguments.
func (r *Ruby) AttachArgs(ctx context.Context, t Target) (map[string]any, error) {
	if t.Port <= 0 {
		return nil, errors.New("ruby attaches by port: start the program with `rdbg --open --port P script.rb` and give that port")
	}
	host := t.Host
	if host == "" {
		host = "127.0.0.1"
	}
	args := map[string]any{"type": "rdbg", "name": "dbg", "request": "attach", "debugPort": net.JoinHostPort(host, strconv.Itoa(t.Port))}
	natMergeExtra(args, t.Extra)
	return args, nil
}

// StopReason: rdbg already speaks DAP's reasons.
func (r *Ruby) StopReason(reason string) string { return reason }

// ExceptionFilters maps modes to rdbg's filters ("any" rescues every
// exception; rdbg has no uncaught-only filter, RuntimeError is closest).
func (r *Ruby) ExceptionFilters(mode string) []string {
	switch mode {
	case "all":
		return []string{"any"}
	case "uncaught":
		return []string{"RuntimeError"}
	}
	return nil
}

// Quirks: none left; the proxy handles old rdbg's.
func (r *Ruby) Quirks() Quirks { return Quirks{} }
