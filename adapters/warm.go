package adapters

import "context"

// Warm is implemented by adapters whose process can be started before
// its session is known and wait idle for it: the session manager keeps
// one such process per language in use, so that the next session skips
// the adapter's start-up.
type Warm interface {
	// WarmKey names the process Start(ctx, t) would start: a process
	// started for one target serves any target of the same key. ok is
	// false when t needs a process of its own (an attach by port talks
	// to a server the user started; an attach by pid may inject code).
	WarmKey(ctx context.Context, t Target) (key string, ok bool)
	// Adopt readies ep, an idle process started by Start for another
	// target of the same key, to serve t.
	Adopt(ctx context.Context, ep *Endpoint, t Target) error
}

// WarmKey implements Warm: every launch and attach by pid runs the same
// `dlv dap`; the directory delve builds in is a launch argument (dlvCwd).
func (Go) WarmKey(_ context.Context, t Target) (string, bool) {
	if t.Mode == Attach && (t.PID == 0 || t.Remote != nil) {
		return "", false
	}
	p, err := lookPath("dlv")
	if err != nil {
		return "", false
	}
	return "dlv\x00" + p, true
}

// Adopt implements Warm; an idle dlv needs nothing.
func (Go) Adopt(context.Context, *Endpoint, Target) error { return nil }

// WarmKey implements Warm for launches: debugpy's adapter runs on the
// interpreter that has debugpy, whatever the project's interpreter is
// (that one is a launch argument).
func (p Python) WarmKey(ctx context.Context, t Target) (string, bool) {
	if t.Mode != Launch {
		return "", false
	}
	_, dp, err := p.launchPlan(ctx, t)
	if err != nil || dp.path == "" {
		return "", false
	}
	hook, err := p.hookDir()
	if err != nil {
		hook = ""
	}
	return "debugpy\x00" + dp.path + "\x00" + hook, true
}

// Adopt implements Warm: the endpoint reports t's interpreter.
func (p Python) Adopt(ctx context.Context, ep *Endpoint, t Target) error {
	in, _, err := p.launchPlan(ctx, t)
	if err != nil {
		return err
	}
	ep.Interpreter = &in
	return nil
}

// WarmKey implements Warm: the lldb-dap, gdb or CodeLLDB the target's
// configuration picks (adapterConfig.lldb, DBG_LLDB), else the best.
func (n *Native) WarmKey(ctx context.Context, t Target) (string, bool) {
	d, err := n.findDebugger(ctx, lldbWanted(t.Extra))
	if err != nil {
		return "", false
	}
	return n.lang + "\x00" + d.path, true
}

// Adopt implements Warm; an idle native adapter needs nothing.
func (n *Native) Adopt(context.Context, *Endpoint, Target) error { return nil }
