package sessiontools

import (
	"context"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

// registerSupportStatus adds the sections of get_debug_tools_status that
// say, per session, what its adapter supports: liveEdit (restart_frame,
// hot_reload, goto_line, safe evaluation), dataBreakpoints
// (set_data_breakpoint), traces (add_trace, with the mode its probes
// settle in), childProcesses (whether the processes its program starts
// become child sessions, and why not) and postmortem (whether it reads
// core files, and its core when it does).
func registerSupportStatus(tb *toolkit.Toolbox, m *sessions.Manager) {
	tb.Status().Register("liveEdit", supportStatus{m, "liveEdit", func(s *sessions.Session) any { return s.LiveEdits() }})
	tb.Status().Register("dataBreakpoints", supportStatus{m, "dataBreakpoints", func(s *sessions.Session) any { return s.DataBreakpoints() }})
	tb.Status().Register("traces", supportStatus{m, "traces", func(s *sessions.Session) any { return s.Traces() }})
	tb.Status().Register("childProcesses", supportStatus{m, "childProcesses", func(s *sessions.Session) any { return s.ChildProcesses() }})
	tb.Status().Register("postmortem", supportStatus{m, "postmortem", func(s *sessions.Session) any { return s.PostmortemSupport() }})
}

// supportStatus is one per-session section: read's answer for each
// session (only the one the request names, when it names one).
type supportStatus struct {
	m       *sessions.Manager
	section string
	read    func(*sessions.Session) any
}

func (p supportStatus) Status(ctx context.Context, q toolkit.StatusQuery) toolkit.StatusPart {
	per := map[string]any{}
	for _, info := range p.m.List() {
		if q.Session != nil && q.Session.ID != info.ID {
			continue
		}
		if s, err := p.m.Get(info.ID); err == nil {
			per[info.ID] = p.read(s)
		}
	}
	return toolkit.StatusPart{Section: p.section, Data: per}
}
