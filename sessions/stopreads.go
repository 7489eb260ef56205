package sessions

import (
	"context"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/dap"
)

// A stop answer reads the top frame's scopes and locals for changed; the
// call an agent makes next is often get_local_variables at the same stop.
// stopReads keeps those reads for the stop they were made at, so that it
// costs no round trip, until a request that may change the program's
// state (an evaluation, an assignment: anything but a read). Scopes go
// too: some adapters (delve) load a scope's variables when the scope is
// read, so only a new scopes request sees an assignment.

// stopReads is what was read at one stop. Callers hold the session's mu.
type stopReads struct {
	seq    int
	conn   *dap.Conn
	gen    int                      // counts the requests that may change values
	scopes map[int][]Scope          // by frame id
	vars   map[int][]godap.Variable // by variables reference: whole reads
	// frame is the frame of the last scopes request (set: one was made).
	// Some adapters (lldb-vscode) number a scope's variables reference
	// the same in every frame and answer for the frame of the last scopes
	// request, so the variables read belong to that frame only.
	frame    int
	frameSet bool
}

// readOnly reports whether a request cannot change what a stop's
// variables show.
func readOnly(command string) bool {
	switch command {
	case "stackTrace", "scopes", "variables", "threads", "source", "exceptionInfo", "loadedSources", "modules",
		"dataBreakpointInfo", "gotoTargets", "stepInTargets", "completions", "readMemory", "disassemble":
		return true
	}
	return false
}

// readStamp says when a read is made: at which stop, after which change.
type readStamp struct{ seq, gen int }

// readsLocked returns the reads of the current stop. Callers hold mu.
func (s *Session) readsLocked() *stopReads {
	if s.reads.seq != s.stopSeq || s.reads.conn != s.conn || s.state != StatePaused {
		s.reads = stopReads{seq: s.stopSeq, conn: s.conn}
	}
	return &s.reads
}

// stamp returns the stamp of a read about to be sent.
func (s *Session) stamp() readStamp {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.readsLocked()
	return readStamp{r.seq, r.gen}
}

// cachedScopes returns the scopes of frame id read at this stop since
// the last request that may have changed values.
func (s *Session) cachedScopes(id int) ([]Scope, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.readsLocked()
	if !r.frameSet || r.frame != id {
		return nil, false // the adapter must be told of the frame again
	}
	sc, ok := r.scopes[id]
	return sc, ok
}

// scopesFor records that a scopes request for frame id is about to go:
// variables read for another frame no longer hold.
func (s *Session) scopesFor(id int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.readsLocked()
	if !r.frameSet || r.frame != id {
		r.vars = nil
		r.gen++ // reads in flight for the old frame are not kept
	}
	r.frame, r.frameSet = id, true
}

// keepScopes remembers the scopes of frame id, read at st, unless a
// request that may change values was sent meanwhile.
func (s *Session) keepScopes(st readStamp, id int, sc []Scope) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.readsLocked(); r.seq == st.seq && r.gen == st.gen {
		if r.scopes == nil {
			r.scopes = map[int][]Scope{}
		}
		r.scopes[id] = sc
	}
}

// cachedVariables returns the children of ref read whole at this stop
// since the last request that may have changed them.
func (s *Session) cachedVariables(ref int) ([]godap.Variable, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.readsLocked().vars[ref]
	return v, ok
}

// keepVariables remembers the children of ref, read whole at st, unless
// a request that may change them was sent meanwhile (or they are many).
func (s *Session) keepVariables(st readStamp, ref int, v []godap.Variable) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r := s.readsLocked(); r.seq == st.seq && r.gen == st.gen && len(v) <= maxViewLocals {
		if r.vars == nil {
			r.vars = map[int][]godap.Variable{}
		}
		r.vars[ref] = v
	}
}

// beforeRequest drops the scopes and variables read at this stop before
// a request that may change values.
func (s *Session) beforeRequest(command string) {
	if readOnly(command) {
		return
	}
	s.mu.Lock()
	r := s.readsLocked()
	r.gen++
	r.scopes, r.vars = nil, nil
	s.mu.Unlock()
}

// readVariables reads all the children of ref, once per stop while
// nothing may have changed them.
func (s *Session) readVariables(ctx context.Context, ref int) ([]godap.Variable, error) {
	if v, ok := s.cachedVariables(ref); ok {
		return v, nil
	}
	st := s.stamp()
	var body godap.VariablesResponseBody
	if err := s.request(ctx, "variables", godap.VariablesArguments{VariablesReference: ref}, &body); err != nil {
		return nil, err
	}
	s.keepVariables(st, ref, body.Variables)
	return body.Variables, nil
}
