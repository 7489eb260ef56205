package sessions

import (
	"context"
	"fmt"
	"os"
	"os/exec"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/dap"
)

// onReverseRequest answers requests from the adapter.
func (s *Session) onReverseRequest(ctx context.Context, req *dap.Message) (any, error) {
	switch req.Command {
	case "runInTerminal":
		var args godap.RunInTerminalRequestArguments
		if err := req.DecodeBody(&args); err != nil {
			return nil, err
		}
		return s.runInTerminal(args)
	case "startDebugging":
		var args godap.StartDebuggingRequestArguments
		if err := req.DecodeBody(&args); err != nil {
			return nil, err
		}
		s.mu.Lock()
		ep := s.ep
		s.mu.Unlock()
		if ep == nil || ep.Child == nil {
			return nil, fmt.Errorf("this adapter cannot open child sessions")
		}
		go s.startChild(ep, args)
		return map[string]any{}, nil
	}
	return nil, fmt.Errorf("reverse request %q is not supported", req.Command)
}

// runInTerminal starts the command the adapter asks for, without a
// terminal: in its own process group, output captured by the session.
func (s *Session) runInTerminal(args godap.RunInTerminalRequestArguments) (any, error) {
	if len(args.Args) == 0 {
		return nil, fmt.Errorf("runInTerminal without a command")
	}
	cmd := exec.Command(args.Args[0], args.Args[1:]...)
	cmd.Dir = args.Cwd
	env := map[string]string{}
	for k, v := range args.Env {
		if str, ok := v.(string); ok {
			env[k] = str
		}
	}
	cmd.Env = append(os.Environ(), envPairs(env)...)
	proc, err := dap.StartProcess(cmd, dap.ProcessOptions{OnLine: func(stream, line string) {
		s.output.Write(stream, line+"\n")
	}})
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.pid = proc.Pid()
	s.mu.Unlock()
	return godap.RunInTerminalResponseBody{ProcessId: proc.Pid()}, nil
}

// startChild opens a child session on a new stream to the same adapter
// and sends it the configuration the adapter asked for.
func (s *Session) startChild(ep *adapters.Endpoint, args godap.StartDebuggingRequestArguments) {
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	child := newSession(s.m, s.language, s.adapter, s.req)
	child.parentID = s.id
	child.owner = s.owner
	child.name = s.name + " (child)"
	if n, ok := args.Configuration["name"].(string); ok && n != "" {
		child.name = n
	}
	if err := s.m.add(child); err != nil {
		return
	}
	s.mu.Lock()
	s.children = append(s.children, child.id)
	child.owned = s.target.Mode == adapters.Launch || s.owned
	noChildren := s.target.NoChildren
	s.notifyLocked() // a wait on s waits on its new child too
	s.mu.Unlock()
	child.background(func() { child.reportEnd(s) })
	stream, err := ep.Child(ctx, args.Configuration)
	if err != nil {
		child.mu.Lock()
		child.setStateLocked(StateError, "cannot open the child connection: "+err.Error())
		child.mu.Unlock()
		return
	}
	// The child shares the parent's breakpoints.
	s.mu.Lock()
	bps, exc, closing := s.bps.clone(), s.excMode, s.closing
	s.mu.Unlock()
	if closing {
		_ = stream.Close()
		_ = s.m.CloseSession(ctx, child.id)
		return
	}
	child.mu.Lock()
	child.bps = bps
	child.excMode = exc
	child.mu.Unlock()
	child.mu.Lock()
	child.target = adapters.Target{Mode: adapters.Mode(args.Request), Extra: args.Configuration, NoChildren: noChildren}
	child.setStateLocked(StateInitializing, "")
	child.mu.Unlock()
	// A child's own children (js-debug announces a forked process on the
	// session of its parent) open on the same adapter.
	if err := child.handshake(ctx, &adapters.Endpoint{Conn: stream, Child: ep.Child}, child.target, args.Configuration); err != nil {
		child.mu.Lock()
		child.setStateLocked(StateError, err.Error())
		child.mu.Unlock()
	}
}

func (b *breakpointSet) clone() *breakpointSet {
	c := newBreakpointSet()
	c.next = b.next
	for f, list := range b.byFile {
		for _, bp := range list {
			cp := *bp
			c.byFile[f] = append(c.byFile[f], &cp)
		}
	}
	for _, bp := range b.funcs {
		cp := *bp
		c.funcs = append(c.funcs, &cp)
	}
	return c
}

func envPairs(env map[string]string) []string {
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	return out
}
