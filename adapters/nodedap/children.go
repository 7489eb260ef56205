package nodedap

import (
	"context"
	"fmt"
	"net/url"
	"time"
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
	wait := h.childWait
	h.mu.Unlock()
	if gone {
		return
	}
	if s != nil && children {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
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
