package sessions

// DataBreakpointSupport says whether a session can set data breakpoints
// (set_data_breakpoint), and what its adapter lacks when it cannot.
type DataBreakpointSupport struct {
	Supported bool   `json:"supported"`
	Reason    string `json:"reason,omitempty"`
}

// TraceSupport says whether a session can trace (add_trace) and the mode
// its probes settle in once they have their sampled stacks: "log" (a
// logpoint), "record" (a condition that records) or "stop" (dbg stops,
// reads and continues at each hit).
type TraceSupport struct {
	Supported bool   `json:"supported"`
	Mode      string `json:"mode,omitempty"`
}

// DataBreakpoints reports whether the session's adapter supports data
// breakpoints (false before the adapter has started, with the reason).
func (s *Session) DataBreakpoints() DataBreakpointSupport {
	s.mu.Lock()
	supported, started := s.caps.SupportsDataBreakpoints, s.conn != nil
	s.mu.Unlock()
	switch {
	case !started:
		return DataBreakpointSupport{Reason: "session " + s.id + " has not started"}
	case !supported:
		return DataBreakpointSupport{Reason: s.noDataBreakpointsWhy()}
	}
	return DataBreakpointSupport{Supported: true}
}

// noDataBreakpointsWhy is what the session's adapter lacks for data
// breakpoints.
func (s *Session) noDataBreakpointsWhy() string {
	if why := s.adapter.Traits().NoDataBreakpoints; why != "" {
		return why
	}
	return s.language + "'s debug adapter does not announce supportsDataBreakpoints"
}

// Traces reports the session's trace support and the mode its probes
// settle in (see trace.go).
func (s *Session) Traces() TraceSupport {
	s.mu.Lock()
	defer s.mu.Unlock()
	mode := "stop"
	switch {
	case s.adapter.Traits().HeldLogpoints:
		mode = "log"
	case s.recordsInCondition():
		mode = "record"
	}
	return TraceSupport{Supported: true, Mode: mode}
}
