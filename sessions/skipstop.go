package sessions

import (
	"context"
	"time"
)

// maxSkippedStops bounds how many exception stops one launch continues
// past.
const maxSkippedStops = 200

// skipStops continues past the exception stops skip reports true for,
// until another stop, the end, or the deadline.
func (s *Session) skipStops(ctx context.Context, skip func(context.Context, *Session, *StopInfo) bool, res *StartResult, deadline time.Time) *StartResult {
	for range maxSkippedStops {
		if res.State != StatePaused || res.LastStop == nil || res.LastStop.Reason != "exception" || !skip(ctx, s, res.LastStop) {
			return res
		}
		wait := time.Until(deadline)
		if wait <= 0 {
			return res
		}
		er, err := s.Continue(ctx, res.LastStop.ThreadID, wait, WantStop)
		if err != nil {
			return res
		}
		res = &StartResult{State: er.State, Pending: er.Pending, LastStop: er.LastStop, ExitCode: er.ExitCode, Message: er.Message}
		if er.State == StatePaused {
			res.Message = "stopped: " + er.LastStop.Reason
		}
	}
	return res
}
