package javadap

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// A launch with command runs a command that starts the JVM to debug
// itself, such as a build tool's test run (mvn surefire:test, gradle
// test), whose JVM is a process the command forks. Each JDWPAgentVar in
// the command is replaced with a -agentlib:jdwp option under which that
// JVM starts suspended and connects back to the adapter (JDWP's
// server=n, to an address the adapter listens on), so no port is guessed
// and no output is parsed. The command's process group is the debuggee:
// it is killed when the session ends, and its exit code is the run's.

// JDWPAgentVar stands, in a launch's command, for the -agentlib:jdwp
// option of the JVM to debug.
const JDWPAgentVar = "${jdwpAgent}"

// commandConnectWait bounds the wait for the command's JVM to connect
// when the request has no deadline of its own.
const commandConnectWait = 5 * time.Minute

// commandOutputTail is how many of the command's last output lines an
// error quotes.
const commandOutputTail = 40

// commandArgv replaces JDWPAgentVar in command with the agent option that
// connects to addr; a command without it is refused.
func commandArgv(command []string, addr string) ([]string, error) {
	if len(command) == 0 || command[0] == "" {
		return nil, errors.New("launch: command is empty")
	}
	agent := "-agentlib:jdwp=transport=dt_socket,server=n,suspend=y,address=" + addr
	argv := make([]string, len(command))
	found := false
	for i, a := range command {
		if strings.Contains(a, JDWPAgentVar) {
			found = true
			a = strings.ReplaceAll(a, JDWPAgentVar, agent)
		}
		argv[i] = a
	}
	if !found {
		return nil, fmt.Errorf("launch: command names no %s, where the JVM to debug takes its JDWP agent", JDWPAgentVar)
	}
	return argv, nil
}

// lineTail keeps the last lines a command printed.
type lineTail struct {
	mu    sync.Mutex
	lines []string
}

func (t *lineTail) add(line string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines = append(t.lines, line)
	if len(t.lines) > commandOutputTail {
		t.lines = t.lines[len(t.lines)-commandOutputTail:]
	}
}

func (t *lineTail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Join(t.lines, "\n")
}

// startCommand runs cfg.Command and waits for its JVM to connect. It
// returns the command, its process and the connected VM.
func startCommand(ctx context.Context, cfg *LaunchConfig, out *outputSink) (*jvmCommand, *dap.Process, *Client, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, nil, fmt.Errorf("listen for the JVM's debug agent: %w", err)
	}
	defer ln.Close()
	argv, err := commandArgv(cfg.Command, ln.Addr().String())
	if err != nil {
		return nil, nil, nil, err
	}
	if p, err := exec.LookPath(argv[0]); err == nil {
		argv[0] = p
	} else if !filepath.IsAbs(argv[0]) {
		return nil, nil, nil, fmt.Errorf("launch: command %s: %w", argv[0], err)
	}
	jc := &jvmCommand{argv: argv, dir: cfg.Cwd, cleanup: func() {}}
	for _, c := range cfg.Classpath {
		jc.classPath = append(jc.classPath, filepath.SplitList(c)...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = cfg.Cwd
	cmd.Env = os.Environ()
	for k, v := range cfg.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	tail := &lineTail{}
	p, err := dap.StartProcess(cmd, dap.ProcessOptions{OnLine: func(stream, line string) {
		tail.add(line)
		out.line(stream, line)
	}})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("start %s: %w", argv[0], err)
	}
	type accepted struct {
		conn net.Conn
		err  error
	}
	got := make(chan accepted, 1)
	go func() {
		c, err := ln.Accept()
		got <- accepted{c, err}
	}()
	wait := commandConnectWait
	if d, ok := ctx.Deadline(); ok {
		wait = time.Until(d)
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	var conn net.Conn
	// A connection that comes after the launch gave up is closed.
	abandon := func() {
		go func() {
			if a := <-got; a.conn != nil {
				a.conn.Close()
			}
		}()
	}
	select {
	case a := <-got:
		if a.err != nil {
			p.Kill()
			return nil, nil, nil, fmt.Errorf("accept the JVM's debug agent: %w", a.err)
		}
		conn = a.conn
	case <-p.Exited():
		abandon()
		p.Kill() // a JVM the command forked may outlive it: its group goes too
		return nil, nil, nil, &CommandError{Argv: argv, Err: p.ExitErr(), Output: tail.String()}
	case <-ctx.Done():
		abandon()
		p.Kill()
		return nil, nil, nil, fmt.Errorf("waiting for the JVM of %s to connect: %w", filepath.Base(argv[0]), ctx.Err())
	case <-t.C:
		abandon()
		p.Kill()
		return nil, nil, nil, fmt.Errorf("the JVM of %s did not connect within %s: %s", filepath.Base(argv[0]), wait, tail.String())
	}
	vm, err := handshakeVM(ctx, conn, "the JVM that connected")
	if err != nil {
		p.Kill()
		return nil, nil, nil, err
	}
	return jc, p, vm, nil
}

// CommandError is a launch's command that ended before its JVM connected
// (a build that failed): its exit status and its last output lines.
type CommandError struct {
	Argv   []string
	Err    error
	Output string
}

func (e *CommandError) Error() string {
	status := "exit status 0"
	if e.Err != nil {
		status = e.Err.Error()
	}
	return fmt.Sprintf("%s ended (%s) before its JVM connected to the debugger:\n%s", filepath.Base(e.Argv[0]), status, e.Output)
}

// connectJVM starts the launch's JVM, by its java command line or by the
// command that forks it, and connects to it.
func connectJVM(ctx context.Context, cfg *LaunchConfig, out *outputSink) (*jvmCommand, *dap.Process, *Client, error) {
	if len(cfg.Command) > 0 {
		return startCommand(ctx, cfg, out)
	}
	jc, err := buildCommand(ctx, cfg)
	if err != nil {
		return nil, nil, nil, err
	}
	proc, addr, err := startJVM(ctx, jc, cfg.Env, out)
	if err != nil {
		jc.cleanup()
		return nil, nil, nil, err
	}
	vm, err := DialJDWP(ctx, addr)
	if err != nil {
		proc.Kill()
		jc.cleanup()
		return nil, nil, nil, err
	}
	return jc, proc, vm, nil
}
