package dap

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dbg-dev/dbg/proc"
)

// Process is a child process started in its own process group, so that
// killing it also kills whatever it started (a debuggee under an adapter).
//
// In stdio mode its stdin/stdout are the DAP stream and Process is the
// io.ReadWriteCloser to give NewConn. Otherwise stdout and stderr are read
// line by line and passed to OnLine. Stderr is always kept in a bounded
// tail for error reports.
type Process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	tail   *tailBuffer
	exited chan struct{}
	werr   error
	// readEnds are our ends of the stdout/stderr pipes, closed by Close.
	readEnds []io.Closer

	// grace periods of Stop; tests may shorten them.
	termAfter, killAfter time.Duration
}

// ProcessOptions configure StartProcess.
type ProcessOptions struct {
	// Stdio makes stdin/stdout the DAP stream.
	Stdio bool
	// OnLine receives output lines ("stdout" or "stderr") when not in
	// stdio mode, and stderr lines in stdio mode. It runs on reader
	// goroutines and must not block.
	OnLine func(stream, line string)
}

// StartProcess starts cmd in a new process group.
func StartProcess(cmd *exec.Cmd, opts ProcessOptions) (*Process, error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	// If the server dies without cleaning up, the adapter dies with it.
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	p := &Process{cmd: cmd, tail: newTailBuffer(64 << 10), exited: make(chan struct{}),
		termAfter: 2 * time.Second, killAfter: 2 * time.Second}
	var err error
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, err
	}
	// Plain pipes, not StdoutPipe/StderrPipe: Wait must not close the read
	// ends while the last frame or the last stderr lines are still unread.
	stdoutR, stdoutW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	stderrR, stderrW, err := os.Pipe()
	if err != nil {
		stdoutR.Close()
		stdoutW.Close()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = stdoutW, stderrW
	err = cmd.Start()
	stdoutW.Close()
	stderrW.Close()
	if err != nil {
		stdoutR.Close()
		stderrR.Close()
		return nil, err
	}
	p.readEnds = []io.Closer{stdoutR, stderrR}
	var readers sync.WaitGroup
	scan := func(stream string, r io.Reader) {
		defer readers.Done()
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64<<10), 4<<20)
		for sc.Scan() {
			line := sc.Text()
			if stream == "stderr" {
				p.tail.WriteLine(line)
			}
			if opts.OnLine != nil {
				opts.OnLine(stream, line)
			}
		}
		_, _ = io.Copy(io.Discard, r)
	}
	readers.Add(1)
	go scan("stderr", stderrR)
	if opts.Stdio {
		p.stdout = stdoutR
	} else {
		readers.Add(1)
		go scan("stdout", stdoutR)
	}
	drained := make(chan struct{})
	go func() { readers.Wait(); close(drained) }()
	go func() {
		p.werr = cmd.Wait()
		// Let the readers take the last lines, unless a child that
		// inherited the pipes keeps them open.
		select {
		case <-drained:
		case <-time.After(200 * time.Millisecond):
		}
		close(p.exited)
	}()
	return p, nil
}

// Pid returns the process id (also the process group id).
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Exited is closed when the process has exited and been reaped.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// ExitErr returns the wait error once Exited is closed.
func (p *Process) ExitErr() error {
	select {
	case <-p.exited:
		return p.werr
	default:
		return nil
	}
}

// StderrTail returns the last lines the process wrote to stderr.
func (p *Process) StderrTail() string { return p.tail.String() }

func (p *Process) Read(b []byte) (int, error) {
	if p.stdout == nil {
		return 0, errors.New("dap: process is not in stdio mode")
	}
	return p.stdout.Read(b)
}

func (p *Process) Write(b []byte) (int, error) { return p.stdin.Write(b) }

// Close ends the DAP stream and stops the process and its group.
func (p *Process) Close() error {
	p.Stop(context.Background())
	for _, c := range p.readEnds {
		_ = c.Close()
	}
	return nil
}

// Stop stops the process group politely, then firmly: close stdin, wait,
// SIGTERM to the group, wait, SIGKILL to the group. It returns when the
// process has been reaped or ctx ends.
func (p *Process) Stop(ctx context.Context) {
	_ = p.stdin.Close()
	if p.wait(ctx, p.termAfter/4) {
		_ = proc.KillGroup(p.cmd.Process.Pid) // leftovers of the group
		return
	}
	if !proc.StopGroup(ctx, p.cmd.Process.Pid, proc.StopOptions{Grace: p.termAfter, Exited: p.exited}) {
		p.wait(ctx, p.killAfter)
	}
}

// Kill sends SIGKILL to the whole group and waits for the reap.
func (p *Process) Kill() {
	_ = proc.KillGroup(p.cmd.Process.Pid)
	p.wait(context.Background(), p.killAfter)
}

func (p *Process) wait(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	case <-ctx.Done():
		return false
	}
}

// Dial connects to a DAP server at addr, retrying until ctx ends; adapters
// often print their port a moment before they accept.
func Dial(ctx context.Context, addr string) (net.Conn, error) {
	return DialNetwork(ctx, "tcp", addr)
}

// DialNetwork is [Dial] on network ("tcp", or "unix" for a socket's
// path).
func DialNetwork(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	for {
		conn, err := d.DialContext(ctx, network, addr)
		if err == nil {
			return conn, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("dap: dial %s: %w", addr, err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Listener waits for an adapter to dial in (delve's --client-addr).
type Listener struct{ ln net.Listener }

// Listen listens on addr ("127.0.0.1:0" picks a free port).
func Listen(addr string) (*Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	return &Listener{ln: ln}, nil
}

// Addr is the address to give the adapter.
func (l *Listener) Addr() string { return l.ln.Addr().String() }

// Accept waits for one connection, then stops listening.
func (l *Listener) Accept(ctx context.Context) (net.Conn, error) {
	type result struct {
		c   net.Conn
		err error
	}
	ch := make(chan result, 1)
	go func() {
		c, err := l.ln.Accept()
		ch <- result{c, err}
	}()
	select {
	case r := <-ch:
		_ = l.ln.Close()
		return r.c, r.err
	case <-ctx.Done():
		_ = l.ln.Close()
		if r := <-ch; r.c != nil {
			_ = r.c.Close()
		}
		return nil, fmt.Errorf("dap: waiting for the adapter to connect: %w", ctx.Err())
	}
}

// Close stops listening.
func (l *Listener) Close() error { return l.ln.Close() }

// tailBuffer keeps the last max bytes of lines written to it.
type tailBuffer struct {
	mu    sync.Mutex
	max   int
	lines []string
	size  int
}

func newTailBuffer(max int) *tailBuffer { return &tailBuffer{max: max} }

func (t *tailBuffer) WriteLine(s string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines = append(t.lines, s)
	t.size += len(s) + 1
	for t.size > t.max && len(t.lines) > 1 {
		t.size -= len(t.lines[0]) + 1
		t.lines = t.lines[1:]
	}
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Join(t.lines, "\n")
}
