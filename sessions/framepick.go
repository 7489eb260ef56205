package sessions

import "github.com/dbg-dev/dbg/dap"

// The frame that calls naming none act on. A stop answer reports one
// frame: the innermost with source (resolveStop), or the frame a
// capability reports for the stop instead (debug_test's frame of the
// user's code), which it picks with [Session.PickFrame]. Evaluate,
// scopes, locals and set_variable without a frameId run in that frame
// until the next stop; a call that names a frame acts there alone, so a
// client that keeps a frame of its own (the console's "frame N") never
// finds the default moved under it.

// framePick is the frame picked at one stop, and the frames the stop's
// stack reads showed. Callers hold the session's mu.
type framePick struct {
	seq    int
	conn   *dap.Conn
	id     int               // 0: none picked
	frames map[int]seenFrame // by frame id, from this stop's stack reads
}

// seenFrame is a frame as a stack read showed it: where it is, and its
// index in the stack (0: the innermost).
type seenFrame struct {
	loc   *Location
	index int
}

// pickLocked returns the pick of the current stop. Callers hold mu.
func (s *Session) pickLocked() *framePick {
	if s.pick.seq != s.stopSeq || s.pick.conn != s.conn {
		s.pick = framePick{seq: s.stopSeq, conn: s.conn}
	}
	return &s.pick
}

// PickFrame makes frame id of the current stop the one calls without a
// frameId act on, until the next stop. 0 goes back to the stop's own.
func (s *Session) PickFrame(id int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == StatePaused {
		s.pickLocked().id = id
	}
}

// pickedFrame returns the frame picked at the current stop (0: none).
func (s *Session) pickedFrame() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pickLocked().id
}

// sawFrames records where the frames of a stack read of the current stop
// are; the read began at frame start.
func (s *Session) sawFrames(frames []Frame, start int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pickLocked()
	if p.frames == nil {
		p.frames = map[int]seenFrame{}
	}
	for i, f := range frames {
		p.frames[f.ID] = seenFrame{loc: &Location{File: f.File, Line: f.Line, Column: f.Column, Function: f.Name, Text: f.Text}, index: start + i}
	}
}

// frameIndex returns the index in its stack of frame id of the current
// stop, when a read of this stop showed it.
func (s *Session) frameIndex(id int) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.topFrame.seq == s.stopSeq && s.topFrame.id == id {
		return s.topFrame.index, true
	}
	f, ok := s.pickLocked().frames[id]
	return f.index, ok
}

// FrameLocation returns where frame id of the current stop is (0: the
// frame calls without a frameId act on), as the stop and its stack reads
// showed it; nil when unknown.
func (s *Session) FrameLocation(id int) *Location {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pickLocked()
	if id == 0 {
		id = p.id
	}
	if id == 0 || (s.topFrame.seq == s.stopSeq && s.topFrame.id == id) {
		if s.lastStop != nil {
			return s.lastStop.Location
		}
		return nil
	}
	if f, ok := p.frames[id]; ok {
		cp := *f.loc
		return &cp
	}
	return nil
}
