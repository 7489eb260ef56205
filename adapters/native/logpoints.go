package native

import (
	"context"
	"encoding/json"
	"time"

	"github.com/dbg-dev/dbg/adapters/bpcond"
	"github.com/dbg-dev/dbg/dap"
)

// Log points for an lldb without them. lldb-vscode before LLDB 15 does
// not know logMessage and stops at a log point as at any breakpoint.
// When its initialize answer lacks supportsLogPoints, the layer says it
// has them, takes the messages out of setBreakpoints, and at a stop on
// a log point evaluates the message's {expressions} in the top frame
// ([bpcond.Interpolate]), prints it as an output event and resumes. A
// stop that also hit an ordinary breakpoint is reported after the log
// line.

// logEvalTimeout bounds the evaluations of one log message.
const logEvalTimeout = 5 * time.Second

// bpNote is what the layer keeps of a setBreakpoints until its answer:
// per breakpoint, the hit condition and the log message it took out.
type bpNote struct {
	hits []bpcond.Hit
	logs []string
}

// noteLogPoints records whether lldb has log points; without, the layer
// keeps them and says so in the answer.
func (s *lldb) noteLogPoints(m *dap.Message) {
	var caps map[string]any
	if len(m.Body) > 0 && m.DecodeBody(&caps) != nil {
		return
	}
	if caps == nil {
		caps = map[string]any{}
	}
	if has, _ := caps["supportsLogPoints"].(bool); has {
		return
	}
	s.mu.Lock()
	s.ownLogs = true
	s.mu.Unlock()
	caps["supportsLogPoints"] = true
	m.Body, _ = json.Marshal(caps)
}

// takeLogMessages removes the log messages of a setBreakpoints request
// into note when the layer keeps log points.
func (s *lldb) takeLogMessages(args map[string]any, note *bpNote) bool {
	s.mu.Lock()
	own := s.ownLogs
	s.mu.Unlock()
	if !own {
		return false
	}
	list, _ := args["breakpoints"].([]any)
	note.logs = make([]string, len(list))
	changed := false
	for i, b := range list {
		bp, _ := b.(map[string]any)
		if msg, _ := bp["logMessage"].(string); msg != "" {
			note.logs[i] = msg
			delete(bp, "logMessage")
			changed = true
		}
	}
	return changed
}

// logStop handles a breakpoint stop at breakpoints ids (those whose hit
// condition passed): when some are log points the layer keeps, it takes
// the event (held: it logs, then resumes, or sends the stop on when an
// ordinary breakpoint was hit too) and reports true.
func (s *lldb) logStop(m *dap.Message, tid int, ids []int) bool {
	s.mu.Lock()
	var msgs []string
	others := false
	for _, id := range ids {
		if msg, ok := s.logMsgs[id]; ok {
			msgs = append(msgs, msg)
		} else {
			others = true
		}
	}
	s.mu.Unlock()
	if len(msgs) == 0 {
		return false
	}
	s.link.Go(func() {
		ctx, cancel := context.WithTimeout(s.link.Context(), logEvalTimeout)
		defer cancel()
		frame := s.topFrame(ctx, tid)
		for _, msg := range msgs {
			line := bpcond.Interpolate(msg, func(expr string) (string, error) {
				return s.evalIn(ctx, frame, expr)
			})
			s.link.Event("output", map[string]any{"category": "console", "output": line + "\n"})
		}
		if others {
			if s.fixStop(m) {
				s.link.Send(m)
			}
			return
		}
		_ = s.link.Post("continue", map[string]any{"threadId": tid})
	})
	return true
}

// topFrame is the id of thread tid's top frame, 0 if unknown.
func (s *lldb) topFrame(ctx context.Context, tid int) int {
	resp, err := s.link.Call(ctx, "stackTrace", map[string]any{"threadId": tid, "levels": 1})
	if err != nil || !resp.OK() {
		return 0
	}
	var body struct {
		StackFrames []struct {
			ID int `json:"id"`
		} `json:"stackFrames"`
	}
	if resp.DecodeBody(&body) != nil || len(body.StackFrames) == 0 {
		return 0
	}
	return body.StackFrames[0].ID
}

// evalIn evaluates expr in frame for a log message.
func (s *lldb) evalIn(ctx context.Context, frame int, expr string) (string, error) {
	args := map[string]any{"expression": expr, "context": "watch"}
	if frame != 0 {
		args["frameId"] = frame
	}
	resp, err := s.link.Call(ctx, "evaluate", args)
	if err != nil {
		return "", err
	}
	var body struct {
		Result string `json:"result"`
		Type   string `json:"type"`
	}
	_ = resp.DecodeBody(&body)
	return derefValue(body.Result, body.Type, s.rust), nil
}
