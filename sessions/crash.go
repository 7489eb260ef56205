package sessions

import (
	"fmt"
	"os"
	"regexp"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/proc"
)

// A launched program that dies of a signal stops at the crash first where
// its adapter can (lldb at the signal, delve at the fatal panic), with its
// stack and locals; continued, it dies, and the session's end names the
// signal when the exit code says so: the code the adapter reports for a
// death by signal N (lldb: N, delve: -N, a shell: 128+N) after a stop
// that named that signal, or the code the adapter declares as a signal's
// ([adapters.Traits.SignalExit]).

// signalInStop finds a signal's name in a stop's words ("signal SIGSEGV").
var signalInStop = regexp.MustCompile(`\bSIG[A-Z]+[0-9]*\b`)

// exitReasonLocked is why a session whose program exited with code ended.
// Callers hold mu.
func (s *Session) exitReasonLocked(code int) string {
	if sig := s.deathSignalLocked(code); sig > 0 {
		return fmt.Sprintf("the program was killed by %s (signal %d, exit code %d)", proc.SignalName(sig), sig, code)
	}
	return fmt.Sprintf("the program exited with code %d", code)
}

// deathSignalLocked is the signal an exit code says the program died of,
// or 0.
func (s *Session) deathSignalLocked(code int) int {
	if f := s.adapter.Traits().SignalExit; f != nil {
		if sig := f(code); sig > 0 {
			return sig
		}
	}
	if s.lastStop == nil {
		return 0
	}
	name := signalInStop.FindString(s.lastStop.Description + " " + s.lastStop.Text)
	if name == "" {
		return 0
	}
	for sig := 1; sig < 65; sig++ {
		if proc.SignalName(sig) == name && (code == sig || code == -sig || code == 128+sig) {
			return sig
		}
	}
	return 0
}

// firstOwnFrame returns the first frame the adapter does not mark as the
// runtime's (presentationHint "subtle" or "deemphasize") whose source is a
// file here: the program's own code, where a core's crash happened.
func firstOwnFrame(frames []godap.StackFrame) *godap.StackFrame {
	for i := range frames {
		f := &frames[i]
		if f.Source == nil || f.Source.Path == "" || f.Line <= 0 || f.PresentationHint == "subtle" || f.PresentationHint == "deemphasize" {
			continue
		}
		if st, err := os.Stat(f.Source.Path); err == nil && st.Mode().IsRegular() {
			return f
		}
	}
	return nil
}
