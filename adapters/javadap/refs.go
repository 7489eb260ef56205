package javadap

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
	frame  uint64
	loc    Location
	class  uint64 // statics
	obj    Value  // object or array
	elems  uint64 // collections and maps: the array of elements or entries
	length int
	path   string // evaluateName of the container
}

type frameRef struct {
	thread, frame uint64
	loc           Location
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
