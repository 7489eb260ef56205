package sessions

import (
	"strconv"
	"strings"

	"github.com/dbg-dev/dbg/adapters"
)

// Python probes in record mode. debugpy queues a logpoint's output in the
// program and drops what is still queued when it exits, so a Python probe
// is no logpoint. Once its stacks are sampled it becomes a breakpoint
// whose condition records the hit and is false: the condition runs in the
// program at each hit and writes the probe's line to the program's
// stdout (fd 1) with one write, before the line runs. debugpy's launcher
// reads that pipe to its end, so no hit is lost; dbg takes the line out
// of the output (writeOutput). Only for programs debugpy launched, whose
// stdout is that pipe; an attached program's stdout is not dbg's to
// write to, and its probes stay in stop mode.

// pythonRecorder is the function the condition installs once in the
// program's builtins: it writes "\x1edbgtrace KEY\x1fV1\x1fV2\n", each
// value its repr, or "\x15" and the error that reading it raised.
const pythonRecorder = `def __dbg_trace_rec(key, exprs, g, l):
    import os
    out = [key]
    for e in exprs:
        try:
            out.append(repr(eval(e, g, l)))
        except Exception as x:
            out.append('\x15' + (type(x).__name__ + ': ' + str(x)).replace('\n', ' '))
    os.write(1, ('\x1edbgtrace ' + '\x1f'.join(out) + '\n').encode('utf-8', 'replace'))
    return False
`

// traceErrorMark starts a value the program could not read.
const traceErrorMark = "\x15"

// recordsInCondition reports whether the session's probes can record in
// their condition: a Python program debugpy launched.
func (s *Session) recordsInCondition() bool {
	return s.language == "python" && s.target.Mode == adapters.Launch
}

// pythonCondition is the condition of a probe in record mode: the probe's
// own condition, and then the recording, which is false.
func (p *traceProbe) pythonCondition() string {
	exprs := make([]string, len(p.spec.Expressions))
	for i, e := range p.spec.Expressions {
		exprs[i] = strconv.Quote(e)
	}
	b := `__import__('builtins').__dict__`
	rec := "(" + b + ".get('__dbg_trace_rec') or (exec(" + strconv.Quote(pythonRecorder) + ", " + b + "), " + b + "['__dbg_trace_rec'])[1])" +
		"(" + strconv.Quote(p.trace.id+"."+strconv.Itoa(p.index)) + ", [" + strings.Join(exprs, ", ") + "], globals(), locals())"
	if c := strings.TrimSpace(p.spec.Condition); c != "" {
		return "(" + c + ") and " + rec
	}
	return rec
}

// toRecordMode turns a probe into its record (or log) mode, where the
// adapter allows it. Callers hold the session's mu.
func (s *Session) toRecordModeLocked(p *traceProbe) bool {
	switch {
	case p.bp.File == "" || p.done:
		return false
	case logModeLanguages[s.language]:
		p.logMode = true
		p.bp.LogMessage = p.logMessage()
		return true
	case s.recordsInCondition():
		p.logMode = true
		p.bp.Condition = p.pythonCondition()
		return true
	}
	return false
}
