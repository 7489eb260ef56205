package nodedap

import (
	"context"
	"time"

	godap "github.com/google/go-dap"
)

// remapTransformed moves the breakpoints of a file that is loaded, at its
// own path, as code transformed from it: Vite and Vitest evaluate each
// module's transformed code under the module's file name, with an inline
// source map back to the file. V8 has bound the breakpoints set on that
// path to the transformed code's lines as if they were the file's; they
// are set again through the source map on this script. It runs on the
// CDP event goroutine, before the script runs (the instrumentation
// breakpoint holds scripts with a source map).
func (h *Handler) remapTransformed(s *script) {
	if s.sm == nil || s.path == "" || s.sm.source(s.path) < 0 {
		return
	}
	c, todo := h.breakpointsOf([]string{s.path}, func(b *bp) bool { return b.byPath })
	if c == nil || len(todo) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, b := range todo {
		gl, gc, _, ok := s.sm.generated(s.path, b.line-1)
		h.mu.Lock()
		old := []*bp{{cdp: b.cdp}}
		h.forget(old)
		b.cdp, b.locs, b.byPath = nil, nil, false
		b.verified, b.actualLine, b.message = false, 0, ""
		if !ok {
			b.message = "the transformed code of this file has no code from this line on"
		}
		body := b.dapBreakpoint()
		h.mu.Unlock()
		h.removeCDP(ctx, c, old)
		if ok {
			h.placeMapped(ctx, c, b, s.url, gl, gc)
		} else {
			h.event("breakpoint", godap.BreakpointEventBody{Reason: "changed", Breakpoint: body})
		}
	}
}

// placeMapped sets b at a generated position of the script at url and
// tells the client where it is once V8 has placed it.
func (h *Handler) placeMapped(ctx context.Context, c cdpConn, b *bp, url string, line, col int) {
	h.setByURL(ctx, c, b, map[string]any{"url": url, "lineNumber": line, "columnNumber": col})
	h.mu.Lock()
	body, verified := b.dapBreakpoint(), b.verified
	h.mu.Unlock()
	if verified {
		h.event("breakpoint", godap.BreakpointEventBody{Reason: "changed", Breakpoint: body})
	}
}

// breakpointsOf returns the CDP connection and the line breakpoints of
// the source files for which want holds.
func (h *Handler) breakpointsOf(sources []string, want func(*bp) bool) (cdpConn, []*bp) {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []*bp
	for _, src := range sources {
		for _, b := range h.bps.bySource[src] {
			if want(b) {
				out = append(out, b)
			}
		}
	}
	return h.cdp, out
}
