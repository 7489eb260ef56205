package nodedap

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/proc"
)

// defaultChildWait is how long a forked child may wait at its start for the
// child session it was announced to: after that it is let run, so that a
// child session that never came cannot hold it forever.
const defaultChildWait = 10 * time.Second

// onChildInspector debugs a child process that announced its inspector on
// the stderr it shares with the launched program (a fork, which inherits
// --inspect-brk from process.execArgv and so waits for a debugger).
//
// When the client announced supportsStartDebuggingRequest, the child gets
// a session of its own: a startDebugging reverse request asks the client
// to open a new connection and attach to the child's inspector (see
// [Handler.childConfig]). The child waits at its start until that session
// has set its breakpoints. Otherwise, or when the client refuses, the child
// becomes one more thread of this session ([Handler.childThread]).
//
// It runs on a goroutine of its own (it sends a reverse request and waits
// for the answer).
func (h *Handler) onChildInspector(wsURL string) {
	h.mu.Lock()
	s, children, gone := h.srv, h.childSessions, h.disconnect || h.ended
	wait, off := h.childWait, h.noChildren
	seen := h.childURLs[wsURL]
	if h.childURLs == nil {
		h.childURLs = map[string]bool{}
	}
	h.childURLs[wsURL] = true
	h.mu.Unlock()
	if gone || seen {
		return
	}
	if off {
		go h.runChild(wsURL) // not followed: let it run at once
		return
	}
	if s != nil && children {
		// The client's answer is not the child's wait: a busy client may
		// answer late, and the child then still gets its session.
		ctx, cancel := context.WithTimeout(context.Background(), max(wait, startDebuggingAnswer))
		cfg := h.childConfig(ctx, wsURL)
		_, err := s.Request(ctx, "startDebugging", map[string]any{"request": "attach", "configuration": cfg})
		cancel()
		if err == nil {
			go h.releaseChild(wsURL, wait)
			return
		}
	}
	h.childThread(wsURL)
}

// startDebuggingAnswer bounds the wait for the client's answer to
// startDebugging.
const startDebuggingAnswer = 10 * time.Second

// childConfig is the attach configuration of a child session: the child's
// inspector (websocketAddress, and port and address for adapters that
// discover the target themselves), named after the child's pid, with this
// session's skipFiles and source-map setting.
func (h *Handler) childConfig(ctx context.Context, wsURL string) map[string]any {
	port := portOf(wsURL)
	host := "127.0.0.1"
	if u, err := url.Parse(wsURL); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	name := "child process"
	if pid := listener(ctx, port); pid > 0 {
		name = fmt.Sprintf("child %d", pid)
		h.claimPID(pid)
	}
	h.mu.Lock()
	skip, maps := h.skipGlobs, h.sourceMaps
	h.mu.Unlock()
	cfg := map[string]any{
		"request":          "attach",
		"name":             name,
		"port":             port,
		"address":          host,
		"websocketAddress": wsURL,
		"sourceMaps":       maps,
		"__childProcess":   true,
	}
	if skip != nil {
		cfg["skipFiles"] = skip
	}
	return cfg
}

// releaseChild lets a child run when it still waits for a debugger after
// wait (its child session never attached): it opens a session of its own
// on the child's inspector, asks it to run, and leaves. A child whose
// session did attach is not affected (it no longer waits); one that has
// ended cannot be reached, which is fine.
func (h *Handler) releaseChild(wsURL string, wait time.Duration) {
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
	case <-h.closed:
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := Dial(ctx, wsURL, func(*Message) {})
	if err != nil {
		return
	}
	defer c.Close()
	_ = c.Call(ctx, "Runtime.runIfWaitingForDebugger", nil, nil)
}

// Bounds of runChild: how long it may take in all, and how often it asks
// again.
const (
	runChildTimeout = 20 * time.Second
	runChildRetry   = 200 * time.Millisecond
)

// runChild lets a forked child that is not debugged run at once. Node
// announces its inspector a little before it starts to wait for a
// debugger, and takes a Runtime.runIfWaitingForDebugger that comes in
// between without waiting less: the child would then wait forever. So
// the request goes again until the child pauses at its start ("Break on
// start", which --inspect-brk asks of a session with the debugger
// enabled), the proof that it waits no more; that pause is resumed and
// the session left. It gives up when the child is gone, the handler
// closes, or after runChildTimeout.
func (h *Handler) runChild(wsURL string) {
	ctx, cancel := context.WithTimeout(context.Background(), runChildTimeout)
	defer cancel()
	paused := make(chan struct{}, 1)
	c, err := Dial(ctx, wsURL, func(m *Message) {
		if m.Method == "Debugger.paused" {
			select {
			case paused <- struct{}{}:
			default:
			}
		}
	})
	if err != nil {
		return
	}
	defer c.Close()
	if err := c.Call(ctx, "Debugger.enable", nil, nil); err != nil {
		return
	}
	retry := time.NewTicker(runChildRetry)
	defer retry.Stop()
	for n := 0; ; n++ {
		err := c.Call(ctx, "Runtime.runIfWaitingForDebugger", nil, nil)
		if err != nil {
			return
		}
		select {
		case <-paused:
			_ = c.Call(ctx, "Debugger.resume", nil, nil)
			return
		case <-retry.C:
		case <-c.Done():
			return
		case <-h.closed:
			return
		case <-ctx.Done():
			return
		}
	}
}

// claimPID notes a process whose inspector is taken care of.
func (h *Handler) claimPID(pid int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.childPIDs == nil {
		h.childPIDs = map[int]bool{}
	}
	h.childPIDs[pid] = true
}

// waitsForDebugger reports whether process pid is a node started to wait
// for a debugger: --inspect-brk on its command line, or in the
// NODE_OPTIONS it inherited (childInspectFlag).
func waitsForDebugger(pid int) bool {
	args, _ := proc.Cmdline(pid)
	if strings.Contains(strings.Join(args, " "), "--inspect-brk") {
		return true
	}
	env, _ := proc.Environ(pid)
	return strings.Contains(envValue(env, "NODE_OPTIONS"), "--inspect-brk")
}

// childPoll is how often watchChildren looks at the program's descendants
// while they change; each look that finds them as they were doubles the
// wait, up to childPollIdle, and a resume of the program (which is when
// it can fork again) or a change starts over. childGrace is how long a
// new one has to announce its inspector on the program's stderr before it
// is looked at more closely.
const (
	childPoll     = 250 * time.Millisecond
	childPollIdle = 4 * time.Second
	childGrace    = time.Second
)

// nextChildPoll is the wait after a look at the descendants that waited
// wait: childPoll when they changed, or one is still new (its grace runs),
// else twice as long, up to childPollIdle.
func nextChildPoll(wait time.Duration, changed, pending bool) time.Duration {
	if changed || pending {
		return childPoll
	}
	return min(2*wait, childPollIdle)
}

// watchChildren finds the forked children whose inspector announcement
// does not reach the program's stderr (fork with silent: true, or its own
// stdio), which would otherwise wait for a debugger forever: a descendant
// of the launched process (root) that runs with --inspect-brk, is not known
// after childGrace, and has an inspector listening is debugged like an
// announced one. It returns when done is closed or the handler closes.
//
// Only the ports of such a process are probed (a GET of /json/list): a
// child waiting for its debugger runs no code yet, so the inspector's is
// its only port.
func (h *Handler) watchChildren(root int, mainURL string, done <-chan struct{}) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-done:
		case <-h.closed:
		}
		cancel()
	}()
	if pid := listener(ctx, portOf(mainURL)); pid > 0 {
		h.claimPID(pid)
	}
	h.claimPID(root)
	first := map[int]time.Time{}
	wait := childPoll
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case <-timer.C:
		case <-h.resumed:
			// The program runs again: look soon, then back off again.
			wait = childPoll
			timer.Reset(wait)
			continue
		case <-ctx.Done():
			return
		}
		now := time.Now()
		alive := map[int]time.Time{}
		changed, pending := false, false
		for _, pid := range proc.Descendants(root) {
			t, ok := first[pid]
			if !ok {
				t, changed = now, true
			}
			alive[pid] = t
			if t.IsZero() {
				continue
			}
			if now.Sub(t) < childGrace {
				pending = true
				continue
			}
			h.mu.Lock()
			known := h.childPIDs[pid]
			h.mu.Unlock()
			if known || !waitsForDebugger(pid) {
				alive[pid] = time.Time{} // nothing to do for it
				continue
			}
			for port := range listeningPorts(ctx, pid) {
				if u := inspectorAt(ctx, port); u != "" {
					alive[pid] = time.Time{}
					h.claimPID(pid)
					go h.onChildInspector(u)
					break
				}
			}
		}
		changed = changed || len(alive) != len(first)
		first = alive
		wait = nextChildPoll(wait, changed, pending)
		timer.Reset(wait)
	}
}
