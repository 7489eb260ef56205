package testrun

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dbg-dev/dbg/sessions"
)

// A RecursionError ends debugpy's tracing: the trace function itself
// overflows the stack at the depth where the program did, and Python
// turns tracing off for good. The run ends failed with no stop. dbg's
// start of pytest reports the recursion from the exception's traceback
// (its cycle of frames and its depth) into a file of dbg's, and the test
// runs again with a breakpoint on the cycle's first frame of the user's
// that stops where that frame first repeats on the stack, long before
// the limit, with the repeated frames and their locals to read.

// pytestReportEnv names the report file in a run's environment.
const pytestReportEnv = "DBG_PYTEST_REPORT"

// pytestReportFile names a new report file in dir (the start writes it,
// O_EXCL), or "".
func pytestReportFile(dir string) string {
	var r [8]byte
	if _, err := rand.Read(r[:]); err != nil {
		return ""
	}
	return filepath.Join(dir, "report-"+hex.EncodeToString(r[:])+".json")
}

// pytestReport is what the start writes of a RecursionError.
type pytestReport struct {
	Message string       `json:"message"`
	Depth   int          `json:"depth"`
	Limit   int          `json:"limit"`
	Cycle   []CycleFrame `json:"cycle"`
}

// pytestRerun reads the run's report and plans the second run: a
// breakpoint on the cycle's first frame in the user's code, which stops
// at its first repeat.
func pytestRerun(p *Project, pl *Plan) *Rerun {
	if pl.Report == "" {
		return nil
	}
	b, err := os.ReadFile(pl.Report)
	os.Remove(pl.Report)
	var rep pytestReport
	if err != nil || json.Unmarshal(b, &rep) != nil || rep.Depth <= 0 || len(rep.Cycle) == 0 {
		return nil
	}
	rr := &Rerun{Message: rep.Message, Recursion: &Recursion{Depth: rep.Depth, Limit: rep.Limit, Cycle: rep.Cycle}}
	for _, f := range rep.Cycle {
		if !pythonUserFile(p, f.File) {
			continue
		}
		rr.Breakpoints = []sessions.BreakpointSpec{{File: f.File, Line: f.Line, Condition: firstRepeat(f)}}
		rr.Hint = fmt.Sprintf("stopped where %s first calls itself again (the RecursionError ended the debugger's tracing %d frames deep, so the test ran again to stop here): "+
			"frames shows the repeating frames with their locals; continue_execution runs on to the error", f.Function, rep.Depth)
		break
	}
	return rr
}

// firstRepeat is a Python condition true where frame f is on the stack
// for the second time: the first repeat of the cycle.
func firstRepeat(f CycleFrame) string {
	fn, _ := json.Marshal(f.Function)
	file, _ := json.Marshal(f.File)
	return fmt.Sprintf("sum(1 for f, n in __import__('traceback').walk_stack(__import__('sys')._getframe(0)) "+
		"if n == %d and f.f_code.co_name == %s and f.f_code.co_filename == %s) == 2", f.Line, fn, file)
}
