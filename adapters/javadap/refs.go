package javadap

import (
	"context"
	"fmt"
)

// refKind is what a variablesReference points at.
type refKind int

const (
	refLocals refKind = iota
	refStatics
	refObject
	refArray
	refCollection
	refMap
)

// varRef is one expandable container of variables.
type varRef struct {
	kind   refKind
	thread uint64
	depth  int // frame index in the thread's stack
	loc    Location
	class  uint64 // statics
	obj    Value  // object or array
	elems  uint64 // collections and maps: the array of elements or entries
	length int
	path   string // evaluateName of the container
}

type frameRef struct {
	thread uint64
	depth  int
	loc    Location
}

// refTable holds the variable and frame references handed to the client
// since the program last stopped; they are invalid once it resumes.
// Guarded by Server.mu.
type refTable struct {
	vars   []*varRef
	frames []frameRef
}

func newRefTable() *refTable { return &refTable{} }

func (t *refTable) reset() {
	t.vars = t.vars[:0]
	t.frames = t.frames[:0]
}

func (t *refTable) add(v *varRef) int {
	t.vars = append(t.vars, v)
	return len(t.vars)
}

func (t *refTable) get(id int) *varRef {
	if id < 1 || id > len(t.vars) {
		return nil
	}
	return t.vars[id-1]
}

func (t *refTable) addFrame(f frameRef) int {
	t.frames = append(t.frames, f)
	return len(t.frames)
}

func (t *refTable) frame(id int) (frameRef, bool) {
	if id < 1 || id > len(t.frames) {
		return frameRef{}, false
	}
	return t.frames[id-1], true
}

// cachedFrame is a JDWP frame id and the invocation count it was read at:
// a method invocation on the thread invalidates its frame ids.
type cachedFrame struct {
	id  uint64
	gen uint64
}

// rememberFrame caches the id of a thread's frame at depth. Called with
// Server.mu held.
func (s *Server) rememberFrame(thread uint64, depth int, id uint64) {
	s.frameIDs[frameKey{thread, depth}] = cachedFrame{id: id, gen: s.vm.InvokeCount()}
}

type frameKey struct {
	thread uint64
	depth  int
}

// frameID returns a live JDWP frame id for a thread's frame at depth,
// re-reading it after method invocations. Called with Server.mu held.
func (s *Server) frameID(ctx context.Context, thread uint64, depth int) (uint64, error) {
	k := frameKey{thread, depth}
	if f, ok := s.frameIDs[k]; ok && f.gen == s.vm.InvokeCount() {
		return f.id, nil
	}
	fs, err := s.vm.Frames(ctx, thread, depth, 1)
	if err != nil {
		return 0, err
	}
	if len(fs) == 0 {
		return 0, fmt.Errorf("thread has no frame %d", depth)
	}
	s.rememberFrame(thread, depth, fs[0].ID)
	return fs[0].ID, nil
}

// thisAt returns the this object of a frame (null in static methods).
func (s *Server) thisAt(ctx context.Context, thread uint64, depth int) (Value, error) {
	id, err := s.frameID(ctx, thread, depth)
	if err != nil {
		return Value{}, err
	}
	return s.vm.ThisObject(ctx, thread, id)
}
