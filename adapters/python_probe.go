package adapters

import (
	"strconv"
	"strings"
)

// Python trace probes record in their condition ([Traits.ProbeCondition]).
// debugpy queues a logpoint's output in the program and drops what is
// still queued when it exits, so a Python probe is no logpoint. It is a
// breakpoint whose condition records the hit and is false: the condition
// runs in the program at each hit and writes the probe's record to the
// program's stdout (fd 1) with one write, before the line runs. debugpy's
// launcher reads that pipe to its end, so no hit is lost.

// pythonRecorder is the function the condition installs once in the
// program's builtins: it writes a probe record ([ProbeMarker]), each value its
// repr, or ProbeError and the error that reading it raised.
var pythonRecorder = `def __dbg_trace_rec(key, exprs, g, l):
    import os
    out = [key]
    for e in exprs:
        try:
            out.append(repr(eval(e, g, l)))
        except Exception as x:
            out.append(` + strconv.Quote(ProbeError) + ` + (type(x).__name__ + ': ' + str(x)).replace('\n', ' '))
    os.write(1, (` + strconv.Quote(ProbeMarker) + ` + ` + strconv.Quote(ProbeSep) + `.join(out) + '\n').encode('utf-8', 'replace'))
    return False
`

// pythonProbeCondition is Python's [Traits.ProbeCondition]: cond, when
// given, and then the recording, which is false.
func pythonProbeCondition(key string, exprs []string, cond string) string {
	quoted := make([]string, len(exprs))
	for i, e := range exprs {
		quoted[i] = strconv.Quote(e)
	}
	b := `__import__('builtins').__dict__`
	rec := "(" + b + ".get('__dbg_trace_rec') or (exec(" + strconv.Quote(pythonRecorder) + ", " + b + "), " + b + "['__dbg_trace_rec'])[1])" +
		"(" + strconv.Quote(key) + ", [" + strings.Join(quoted, ", ") + "], globals(), locals())"
	if c := strings.TrimSpace(cond); c != "" {
		return "(" + c + ") and " + rec
	}
	return rec
}
