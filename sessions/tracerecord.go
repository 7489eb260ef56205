package sessions

import (
	"strconv"

	"github.com/dbg-dev/dbg/adapters"
)

// Probes in record mode. Where the adapter would lose a logpoint's output
// (debugpy queues it in the program and drops what is still queued when
// it exits), a probe is no logpoint. Once its stacks are sampled it
// becomes a breakpoint whose condition, written in the program's language
// by the adapter's declaration (adapters.Traits.ProbeCondition), records
// the hit and is false: the condition runs in the program at each hit and
// writes the probe's record to the program's stdout with one write,
// before the line runs. The adapter's launcher reads that pipe to its
// end, so no hit is lost; dbg takes the record out of the output
// (writeOutput). Only for programs the adapter launched, whose stdout is
// that pipe; an attached program's stdout is not dbg's to write to, and
// its probes stay in stop mode.

// traceErrorMark starts a value the program could not read.
const traceErrorMark = adapters.ProbeError

// recordsInCondition reports whether the session's probes can record in
// their condition: a launched program of an adapter that declares how.
func (s *Session) recordsInCondition() bool {
	return s.adapter.Traits().ProbeCondition != nil && s.target.Mode == adapters.Launch
}

// recordingCondition is the condition of a probe in record mode: the
// probe's own condition, and then the recording, which is false.
func (p *traceProbe) recordingCondition(write func(key string, exprs []string, cond string) string) string {
	return write(p.trace.id+"."+strconv.Itoa(p.index), p.spec.Expressions, p.spec.Condition)
}

// toRecordMode turns a probe into its record (or log) mode, where the
// adapter allows it. Callers hold the session's mu.
func (s *Session) toRecordModeLocked(p *traceProbe) bool {
	switch {
	case p.bp.File == "" || p.done:
		return false
	case s.adapter.Traits().HeldLogpoints:
		p.logMode = true
		p.bp.LogMessage = p.logMessage()
		return true
	case s.recordsInCondition():
		p.logMode = true
		p.bp.Condition = p.recordingCondition(s.adapter.Traits().ProbeCondition)
		return true
	}
	return false
}
