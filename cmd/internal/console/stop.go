package console

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dbg-dev/dbg/sessions"
)

// stopped records a stop (or the program's end) and prints it, then the
// displays.
func (p *prompt) stopped(raw json.RawMessage, s stopAnswer) {
	p.frames, p.frame, p.names = nil, 0, nil
	switch st := sessions.State(s.State); {
	case st == sessions.StatePaused:
		p.stop = s.LastStop
		p.dropTemps(s.LastStop)
	case st.Ended():
		p.stop, p.ended = nil, true
	default:
		p.stop = nil
	}
	_ = p.show(raw, func() { p.printStop(s) })
	if p.stop != nil && !p.json {
		p.showDisplays()
	}
}

// printStop prints where the program stopped and why, with the source
// around; an exception's message; and, for a stop in runtime or system
// code, the nearest frame of the user's code.
func (p *prompt) printStop(s stopAnswer) {
	switch sessions.State(s.State) {
	case sessions.StateTerminated, sessions.StateError:
		msg := "the program ended"
		if s.ExitCode != nil {
			msg += fmt.Sprintf(" with exit code %d", *s.ExitCode)
		}
		if why := firstOf(s.Reason, s.Message); why != "" && !strings.Contains(msg, why) {
			msg += ": " + why
		}
		p.printf("%s\n", msg)
		return
	case sessions.StatePaused:
	default:
		if s.Message == "" {
			p.printf("%s\n", s.State) // a compact answer: pending says wait_for_stop
		} else {
			p.printf("%s: %s\n", s.State, s.Message)
		}
		return
	}
	st := s.LastStop
	if st == nil {
		p.printf("paused\n")
		return
	}
	head := "stopped: " + st.Reason
	if len(st.HitBreakpoint) > 0 && st.Reason == "breakpoint" {
		head += fmt.Sprintf(" %d", st.HitBreakpoint[0])
	}
	if st.ThreadID != 0 {
		head += fmt.Sprintf(", thread %d", st.ThreadID)
	}
	l := st.Location
	if l != nil && l.Function != "" {
		head += " in " + p.paint.fn(l.Function)
	}
	if l != nil && l.File != "" {
		head += " at " + p.paint.loc(fmt.Sprintf("%s:%d", l.File, l.Line))
	}
	p.printf("%s\n", head)
	switch st.Reason {
	case "breakpoint", "step", "pause", "entry", "goto", "function breakpoint":
	case "exception":
		if st.Description != "" && st.Description != st.Reason && !strings.Contains(st.Text, st.Description) {
			p.printf("  %s %s\n", p.paint.err("exception:"), st.Description)
		}
	case sessions.DataStopReason:
		if st.Data != nil {
			p.printData(st.Data)
		} else if st.Description != "" && st.Description != st.Reason {
			p.printf("  %s\n", st.Description)
		}
	default: // a signal's name
		if st.Description != "" && st.Description != st.Reason {
			p.printf("  %s\n", st.Description)
		}
	}
	if st.Text != "" && st.Text != st.Description {
		p.printf("  %s\n", st.Text)
	}
	p.printChanged(s.Changed)
	p.printSource(s.Source, currentLine(l))
	if l == nil || !isUserFile(l.File) {
		p.nearestUser()
	}
}

// printSource prints source lines, the line current marked.
func (p *prompt) printSource(lines []sessions.SourceLine, current int) {
	for _, sl := range lines {
		mark := "   "
		text := fmt.Sprintf("%4d  %s", sl.Line, sl.Text)
		if sl.Line == current {
			mark = p.paint.mark("=> ")
			text = p.paint.current(text)
		}
		p.printf("%s%s\n", mark, text)
	}
}

// nearestUser names the first frame of the stack in the user's code.
func (p *prompt) nearestUser() {
	frames, err := p.stack()
	if err != nil {
		return
	}
	for i, f := range frames {
		if isUserFile(f.File) {
			p.printf("  in runtime or system code; nearest user frame: #%d %s at %s (frame %d selects it)\n",
				i, p.paint.fn(f.Name), p.paint.loc(fmt.Sprintf("%s:%d", f.File, f.Line)), i)
			if f.Text != "" {
				p.printf("    %d  %s\n", f.Line, strings.TrimSpace(f.Text))
			}
			return
		}
	}
}

// currentLine is the stop's line, 0 without one.
func currentLine(l *sessions.Location) int {
	if l == nil {
		return 0
	}
	return l.Line
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
