package native

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// lldb-vscode announces no working goto; the layer answers gotoTargets
// and goto itself with LLDB's `thread jump --file F --line N`, run
// through the adapter's command escape in evaluate, on the thread LLDB
// has selected (the one that stopped). The pc moves without running the
// lines between; the stop that follows (reason "goto") says how it was
// done, so that the client reads the new stack.

// gotoTimeout bounds the thread jump command.
const gotoTimeout = 10 * time.Second

// gotoTarget is a place a goto can go: one per file and line asked for.
type gotoTarget struct {
	file string
	line int
}

// announceGoto adds supportsGotoTargetsRequest to an initialize answer.
func announceGoto(m *dap.Message) {
	var caps map[string]any
	if err := m.DecodeBody(&caps); err != nil || caps == nil {
		return
	}
	caps["supportsGotoTargetsRequest"] = true
	m.Body, _ = json.Marshal(caps)
}

// gotoTargets answers gotoTargets with one target for the line asked.
// LLDB itself says whether the line can be jumped to, at goto.
func (s *lldb) gotoTargets(r *dap.Request) dap.Verdict {
	var a struct {
		Source struct {
			Path string `json:"path"`
		} `json:"source"`
		Line int `json:"line"`
	}
	if err := r.DecodeBody(&a); err != nil || a.Source.Path == "" || a.Line <= 0 {
		r.Respond(nil, errors.New("gotoTargets needs source.path and a positive line"))
		return dap.Hold
	}
	s.mu.Lock()
	s.gotos = append(s.gotos, gotoTarget{file: a.Source.Path, line: a.Line})
	id := len(s.gotos)
	s.mu.Unlock()
	r.Respond(map[string]any{"targets": []map[string]any{{"id": id, "label": fmt.Sprintf("%s:%d", a.Source.Path, a.Line), "line": a.Line}}}, nil)
	return dap.Hold
}

// gotoRequest answers goto with thread jump, then reports the stop at
// the new line.
func (s *lldb) gotoRequest(r *dap.Request) dap.Verdict {
	var a struct {
		ThreadID int `json:"threadId"`
		TargetID int `json:"targetId"`
	}
	_ = r.DecodeBody(&a)
	s.mu.Lock()
	ok := a.TargetID >= 1 && a.TargetID <= len(s.gotos)
	var t gotoTarget
	if ok {
		t = s.gotos[a.TargetID-1]
	}
	s.mu.Unlock()
	if !ok {
		r.Respond(nil, fmt.Errorf("unknown goto target %d: ask gotoTargets first", a.TargetID))
		return dap.Hold
	}
	s.link.Go(func() {
		ctx, cancel := context.WithTimeout(s.link.Context(), gotoTimeout)
		defer cancel()
		out, err := s.command(ctx, fmt.Sprintf("thread jump --file %q --line %d", t.file, t.line))
		if err == nil && strings.Contains(strings.ToLower(out), "error:") {
			err = errors.New(strings.TrimSpace(out))
		}
		if err != nil {
			r.Respond(nil, fmt.Errorf("lldb thread jump to %s:%d: %w", t.file, t.line, err))
			return
		}
		r.Respond(nil, nil)
		s.link.Event("stopped", map[string]any{"reason": "goto", "threadId": a.ThreadID, "allThreadsStopped": true,
			"description": fmt.Sprintf("moved to line %d with lldb's thread jump (lldb-vscode has no goto of its own)", t.line)})
	})
	return dap.Hold
}
