package sessions

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/textcut"
)

// Every stop answer says what changed in the top frame's locals since the
// previous stop answer of the same frame. Adapters give frames new ids at
// every stop, so "the same frame" is the same thread, function and file
// with the same callers (function, file and line of each frame below it,
// which stay put while the frame lives); in a recursion deeper than the
// stop's stack read, also the same depth. Values are compared as the
// adapter shows them (its value strings); children are not read, so a
// change inside an object whose shown value stays the same is not seen.
// The locals are read once per stop: scopes, then the locals scope's
// variables, with the frame the stop's location already read.

// Bounds of what changed holds and says.
const (
	maxChangedEntries  = 50      // values, new and gone names together
	maxChangedBytes    = 8 << 10 // names and shown values together
	maxChangedValueLen = 200     // one shown value
	maxViewLocals      = 1000    // locals remembered per frame
	maxViews           = 64      // frames remembered per session
	maxDepthLevels     = 1000    // frames read to learn a recursion's depth
)

// Changes is what changed in the top frame's locals since that frame's
// previous stop answer. A frame's first stop has no earlier view: its
// Changes encode as JSON null, never as a false empty list.
type Changes struct {
	// Values are the locals whose shown value changed.
	Values []ValueChange `json:"values"`
	// New are the locals the earlier view did not have.
	New []NamedValue `json:"new"`
	// Gone are the names of the earlier view's locals that are gone.
	Gone []string `json:"gone"`
	// Unchanged counts the locals whose shown value stayed the same.
	Unchanged  int         `json:"unchanged"`
	Truncation *Truncation `json:"truncation,omitempty"`

	first bool // no earlier view: encodes as null
}

// ValueChange is one local whose value changed.
type ValueChange struct {
	Name string `json:"name"`
	Old  string `json:"old"`
	New  string `json:"new"`
}

// NamedValue is one local that appeared, with its value.
type NamedValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// MarshalJSON encodes a frame's first stop as null.
func (c Changes) MarshalJSON() ([]byte, error) {
	if c.first {
		return []byte("null"), nil
	}
	type plain Changes
	return json.Marshal(plain(c))
}

// First reports whether there was no earlier view to compare with.
func (c *Changes) First() bool { return c != nil && c.first }

// frameKey names a frame across stops (see the top of this file).
type frameKey struct {
	thread         int
	function, path string
	callers        uint64
	depth          int // only for a recursion deeper than the stop's stack read
}

// localValue is one local as a view remembers it.
type localValue struct {
	key   string // the name, and its occurrence when a scope repeats it
	name  string
	hash  uint64 // of the full shown value
	shown string // the shown value, cut to maxChangedValueLen
}

type frameView struct {
	locals []localValue
	used   uint64
}

// frameViews is a session's memory of its frames' locals. Callers hold
// the session's mu.
type frameViews struct {
	conn  *dap.Conn // the views belong to this run of the program
	views map[frameKey]*frameView
	tick  uint64
	// The answer of the last stop, so that a second answer of the same
	// stop (wait_for_stop on a paused session) repeats it rather than
	// comparing the stop with itself.
	seq     int
	changes *Changes
	note    string
}

// reset forgets every view when the program is not the one they saw.
func (v *frameViews) reset(conn *dap.Conn) {
	if v.conn != conn {
		*v = frameViews{conn: conn}
	}
}

// StopChanges says what changed in the top frame's locals at the stop the
// session is paused at, since that frame's previous stop answer, and
// remembers this view for the next one. With want false it reads
// nothing and forgets the frame's earlier view instead, so that a later
// answer never compares with a view older than the previous stop. The
// note says why changes are null (a first stop, locals unreadable).
func (s *Session) StopChanges(ctx context.Context, want bool) (*Changes, string) {
	s.mu.Lock()
	fc, seq, st := s.topFrame, s.stopSeq, s.state
	s.views.reset(s.conn)
	if st != StatePaused || fc.seq != seq || fc.conn != s.conn {
		s.mu.Unlock()
		return nil, ""
	}
	if !want {
		for k := range s.views.views {
			if k.thread == fc.thread && k.function == fc.function && k.path == fc.path {
				delete(s.views.views, k)
			}
		}
		s.views.changes, s.views.note, s.views.seq = nil, "", 0
		s.mu.Unlock()
		return nil, ""
	}
	if s.views.seq == seq && s.views.changes != nil {
		c, note := s.views.changes, s.views.note
		s.mu.Unlock()
		return c, note
	}
	s.mu.Unlock()
	c, note := s.readChanges(ctx, fc)
	s.mu.Lock()
	if s.stopSeq == seq && s.views.conn == fc.conn {
		s.views.seq, s.views.changes, s.views.note = seq, c, note
	}
	s.mu.Unlock()
	return c, note
}

// FirstStopNote is the changed note of a frame's first stop: there is
// nothing to compare with.
const FirstStopNote = "first stop in this frame: no earlier view"

// readChanges reads the frame's locals and compares them with its view.
func (s *Session) readChanges(ctx context.Context, fc frameCache) (*Changes, string) {
	first := func(note string) (*Changes, string) { return &Changes{first: true}, note }
	if fc.id == 0 {
		return first("the stop's frame could not be read")
	}
	key := frameKey{thread: fc.thread, function: fc.function, path: fc.path, callers: fc.callers}
	if fc.deep {
		var body godap.StackTraceResponseBody
		if err := s.request(ctx, "stackTrace", godap.StackTraceArguments{ThreadId: fc.thread, StartFrame: fc.index, Levels: maxDepthLevels}, &body); err != nil {
			return first("the stack's depth could not be read: " + err.Error())
		}
		if len(body.StackFrames) >= maxDepthLevels {
			return first(fmt.Sprintf("the recursion is deeper than %d frames: its frames cannot be told apart", maxDepthLevels))
		}
		key.depth = len(body.StackFrames)
	}
	locals, cut, err := s.readLocals(ctx, fc.id)
	if err != nil {
		return first("the frame's locals could not be read: " + err.Error())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.views.conn != fc.conn {
		return nil, ""
	}
	if s.views.views == nil {
		s.views.views = map[frameKey]*frameView{}
	}
	old := s.views.views[key]
	s.views.tick++
	s.views.views[key] = &frameView{locals: locals, used: s.views.tick}
	s.views.evict()
	if old == nil {
		return first(FirstStopNote)
	}
	c := compareLocals(old.locals, locals)
	if cut {
		c.note(fmt.Sprintf("only the first %d locals were compared", maxViewLocals))
	}
	return c, ""
}

// evict drops the least recently stored views over maxViews.
func (v *frameViews) evict() {
	for len(v.views) > maxViews {
		var oldest frameKey
		var at uint64
		for k, x := range v.views {
			if at == 0 || x.used < at {
				oldest, at = k, x.used
			}
		}
		delete(v.views, oldest)
	}
}

// readLocals reads the locals scope of frame id: the adapter's own value
// strings, hashed whole and cut for showing.
func (s *Session) readLocals(ctx context.Context, id int) ([]localValue, bool, error) {
	scopes, err := s.Scopes(ctx, id)
	if err != nil {
		return nil, false, err
	}
	if len(scopes) == 0 {
		return nil, false, nil
	}
	locals, _ := pickLocals(scopes)
	vars, err := s.readVariables(ctx, locals.VariablesReference)
	if err != nil {
		return nil, false, err
	}
	cut := false
	if len(vars) > maxViewLocals {
		vars, cut = vars[:maxViewLocals], true
	}
	seen := map[string]int{}
	out := make([]localValue, 0, len(vars))
	for _, v := range vars {
		if IsSpecialLocal(v.Name) {
			continue
		}
		seen[v.Name]++
		key := v.Name
		if n := seen[v.Name]; n > 1 {
			key += "#" + strconv.Itoa(n) // a shadowed name: compared by occurrence
		}
		h := fnv.New64a()
		_, _ = h.Write([]byte(v.Value))
		out = append(out, localValue{key: key, name: v.Name, hash: h.Sum64(), shown: textcut.Clip(v.Value, maxChangedValueLen)})
	}
	return out, cut, nil
}

// compareLocals lists what changed from old to cur, within the bounds.
func compareLocals(old, cur []localValue) *Changes {
	c := &Changes{Values: []ValueChange{}, New: []NamedValue{}, Gone: []string{}}
	before := make(map[string]localValue, len(old))
	for _, l := range old {
		before[l.key] = l
	}
	now := make(map[string]bool, len(cur))
	total, shown, size := 0, 0, 0
	fits := func(n int) bool {
		total++
		if shown >= maxChangedEntries || size+n > maxChangedBytes {
			return false
		}
		shown++
		size += n
		return true
	}
	for _, l := range cur {
		now[l.key] = true
		o, ok := before[l.key]
		switch {
		case !ok:
			if fits(len(l.name) + len(l.shown)) {
				c.New = append(c.New, NamedValue{Name: l.name, Value: l.shown})
			}
		case o.hash != l.hash:
			if fits(len(l.name) + len(o.shown) + len(l.shown)) {
				c.Values = append(c.Values, ValueChange{Name: l.name, Old: o.shown, New: l.shown})
			}
		default:
			c.Unchanged++
		}
	}
	for _, l := range old {
		if !now[l.key] && fits(len(l.name)) {
			c.Gone = append(c.Gone, l.name)
		}
	}
	if total > shown {
		c.Truncation = &Truncation{Note: fmt.Sprintf("showing %d of %d changes; get_local_variables reads every local", shown, total), Returned: shown, Total: total}
	}
	return c
}

// note adds a remark to the truncation note.
func (c *Changes) note(n string) {
	if c.Truncation == nil {
		c.Truncation = &Truncation{Note: n}
		return
	}
	c.Truncation.Note += "; " + n
}

// IsSpecialLocal reports whether a local is an adapter's grouping or a
// special name rather than a variable of the program: Python's dunder
// names and debugpy's "special variables" groups.
func IsSpecialLocal(name string) bool {
	return len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__") || IsGroup(name)
}

// IsGroup reports whether a variable is debugpy's grouping of a value's
// members ("special variables", "function variables"...): a variable of
// no program, whose children are the members grouped.
func IsGroup(name string) bool {
	switch name {
	case "special variables", "function variables", "class variables", "protected variables":
		return true
	}
	return false
}

// callerChain returns the index of frame f in frames, a sum of the frames
// below it, and whether the read (asked for levels frames) was cut while
// f's function recurs in it.
func callerChain(frames []godap.StackFrame, f *godap.StackFrame, levels int) (int, uint64, bool) {
	index := 0
	for i := range frames {
		if &frames[i] == f {
			index = i
		}
	}
	h := fnv.New64a()
	recurs := false
	for _, c := range frames[index+1:] {
		path := ""
		if c.Source != nil {
			path = c.Source.Path
		}
		fmt.Fprintf(h, "%s\x00%s\x00%d\x00", c.Name, path, c.Line)
		if c.Name == f.Name {
			recurs = true
		}
	}
	return index, h.Sum64(), recurs && len(frames) >= levels
}
