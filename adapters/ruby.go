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
	"strconv"
	"time"

	"github.com/dbg-dev/dbg/adapters/ruby"
	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/safefs"
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
//
// A Ruby value holds no per-session state and is safe for concurrent use.
type Ruby struct{}

// NewRuby returns the ruby adapter.
func NewRuby() *Ruby { return &Ruby{} }

// Language returns "ruby".
func (r *Ruby) Language() string { return "ruby" }

// rdbgTool is rdbg: plain rdbg (the gem's) first, then the newest of
// Debian's versioned rdbgX.Y. Its install is Ruby 3.1 from Debian
// bookworm, whose bundled debug gem provides rdbg3.1.
var rdbgTool = Tool{
	Language: "ruby", What: "rdbg (Ruby's debug gem)",
	Names: []string{"rdbg"}, Versioned: regexp.MustCompile(`^rdbg(\d+(?:\.\d+)?)?$`),
	VersionArgs: []string{"--version"},
	Install: [][]string{
		{"apt-get", "update"},
		{"apt-get", "install", "-y", "--no-install-recommends",
			"ruby3.1=3.1.7+really3.1.2-0+deb12u1", "libruby3.1=3.1.7+really3.1.2-0+deb12u1", "ruby=1:3.1"},
	},
}

// findRdbg finds rdbg (see rdbgTool).
func (r *Ruby) findRdbg() (string, error) { return rdbgTool.Path() }

// Find reports rdbg and its version.
func (r *Ruby) Find(ctx context.Context) Info {
	return rdbgTool.Describe(ctx, Info{
		Language: "ruby", Adapter: "rdbg", Launch: true, AttachPort: true,
		Aliases: []string{"rb"},
		Note:    "attach by port to a program started with `rdbg --open --port P script.rb`",
	})
}

// InstallCommands implements Installer.
func (r *Ruby) InstallCommands() [][]string { return rdbgTool.InstallCommands() }

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
		return withPathMaps(&Endpoint{Conn: px.Client(), Cleanup: px.Stop}, t), nil
	}
	rdbg, err := r.findRdbg()
	if err != nil {
		return nil, err
	}
	script, err := rubyScript(t)
	if err != nil {
		return nil, err
	}
	// rdbg listens on a socket in a private folder of dbg's own: no port
	// another program can take between choosing it and rdbg's listening.
	network, addr, argv, cleanup, err := rdbgListen()
	if err != nil {
		return nil, err
	}
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
		cleanup()
		return nil, fmt.Errorf("start rdbg: %w", err)
	}
	dctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	// rdbg listens before its session exists, and old rdbg dies on a
	// connection in that window; it is ready when it says it waits.
	select {
	case <-rp.Ready():
	case <-p.Exited():
		cleanup()
		return nil, fmt.Errorf("rdbg exited before accepting a connection: %s", p.StderrTail())
	case <-dctx.Done():
		p.Kill()
		cleanup()
		return nil, fmt.Errorf("rdbg did not get ready: %w (stderr: %s)", dctx.Err(), p.StderrTail())
	}
	up, err := natDialWhileAlive(dctx, p, network, addr)
	if err != nil {
		p.Kill()
		cleanup()
		return nil, fmt.Errorf("connect to rdbg: %w (stderr: %s)", err, p.StderrTail())
	}
	px := rp.Start(up, p, script)
	return &Endpoint{Conn: px.Client(), Process: p, Cleanup: func() { px.Stop(); cleanup() }}, nil
}

// rdbgListen says where a launched rdbg listens: a UNIX socket in a new
// private folder of dbg's cache, or, where that path would be too long
// for a socket, a free loopback port. cleanup removes the folder.
func rdbgListen() (network, addr string, argv []string, cleanup func(), err error) {
	if base, err := safefs.CacheDir("run"); err == nil {
		if dir, err := safefs.NewDir(base, "rdbg-*"); err == nil {
			if sock := filepath.Join(dir, "s"); len(sock) < maxSocketPath {
				return "unix", sock, []string{"--open", "--sock-path", sock}, func() { _ = os.RemoveAll(dir) }, nil
			}
			_ = os.Remove(dir)
		}
	}
	port, err := natFreePort()
	if err != nil {
		return "", "", nil, nil, err
	}
	return "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)),
		[]string{"--open", "--host", "127.0.0.1", "--port", strconv.Itoa(port)}, func() {}, nil
}

// maxSocketPath is the longest UNIX socket path every system takes
// (sun_path holds 104 bytes on macOS, 108 on Linux, with its NUL).
const maxSocketPath = 104

// rubyScript returns the absolute script path of a launch.
func rubyScript(t Target) (string, error) {
	if t.Program == "" {
		return "", errors.New("no script to launch")
	}
	script, _, err := programPath("script", t.Program, t.Cwd)
	return script, err
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
		"script": script, "args": nonNil(t.Args), "stopOnEntry": t.StopOnEntry,
	}
	if t.Cwd != "" {
		args["cwd"] = t.Cwd
	}
	return merge(args, t.Extra), nil
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
	return merge(args, t.Extra), nil
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

// Traits: .rb programs, and ruby processes; the proxy fixes old rdbg.
func (r *Ruby) Traits() Traits {
	return Traits{Extensions: []string{".rb"}, Commands: []string{"ruby*"}, NoCore: rubyNoCore, Remote: rubyRemote(),
		Children: ChildProcesses{Reason: "rdbg's DAP server reports no child process: start the child under " +
			"`rdbg --open --port PORT` and attach by port"}}
}
