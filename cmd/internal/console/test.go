package console

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/dbg-dev/dbg/sessions"
)

// testAnswer is what debug_test answers.
type testAnswer struct {
	Outcome    string                `json:"outcome"`
	SessionID  string                `json:"sessionId"`
	Message    string                `json:"message"`
	StopReason string                `json:"stopReason"`
	Location   *sessions.Location    `json:"location"`
	Source     []sessions.SourceLine `json:"source"`
	Output     string                `json:"output"`
	DurationMs float64               `json:"durationMs"`
}

// openTest runs debug_test with args. A test that stopped gives the
// session the prompt works on, shown as a stop; one that ended is printed
// with its output and gives no session.
func (p *prompt) openTest(ctx context.Context, args map[string]any) (json.RawMessage, stopAnswer, error) {
	var t testAnswer
	raw, err := p.tools.Call(ctx, "debug_test", args, &t)
	if err != nil {
		return raw, stopAnswer{}, err
	}
	s := stopAnswer{SessionID: t.SessionID, State: t.Outcome, Message: t.Message, Source: t.Source}
	if t.Location != nil {
		s.LastStop = &sessions.StopInfo{Reason: t.StopReason, Location: t.Location}
	}
	if t.SessionID != "" && t.Location != nil {
		// Stopped at the failure: say what failed, then show the stop.
		s.State = string(sessions.StatePaused)
		if !p.json {
			fmt.Fprintf(p.io.Out, "%s: %s at %s:%d\n", t.Outcome, t.Message, t.Location.File, t.Location.Line)
		}
	}
	if t.SessionID == "" && !p.json {
		fmt.Fprintf(p.io.Out, "%s (%.0f ms)\n%s", t.Outcome, t.DurationMs, t.Output)
		if t.Message != "" {
			fmt.Fprintln(p.io.Out, t.Message)
		}
	}
	return raw, s, nil
}
