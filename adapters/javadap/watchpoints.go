package javadap

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/adapters/bpcond"
)

// Data breakpoints are JDWP field watchpoints: ModificationWatchpoint
// (FIELD_MODIFICATION) for writes and AccessWatchpoint (FIELD_ACCESS) for
// reads, on static and instance fields. A watch on obj.field carries an
// instance filter, so it fires for that object only. A local variable
// cannot be watched: JDWP has no such event.

// Event modifiers of field watchpoints.
const (
	modFieldOnly    = 9
	modInstanceOnly = 11
)

// watchSet holds the data breakpoints. Guarded by the server's mu.
type watchSet struct {
	next    int
	list    []*watch
	pending map[string]any // the values of the stop being reported
}

// watch is one data breakpoint and its JDWP requests.
type watch struct {
	id                  int
	target              fieldTarget
	access              string
	condition           string
	hit                 bpcond.Hit
	hits                int
	modifyReq, readReqs int32
}

// fieldTarget is a field of a class, and of one object for instance fields.
type fieldTarget struct {
	class, field, object uint64
	name                 string // as the user wrote it
}

// dataID encodes a target: "field:<class>:<field>:<object>:<name>".
func (t fieldTarget) dataID() string {
	return fmt.Sprintf("field:%d:%d:%d:%s", t.class, t.field, t.object, t.name)
}

func parseDataID(id string) (fieldTarget, error) {
	parts := strings.SplitN(id, ":", 5)
	if len(parts) != 5 || parts[0] != "field" {
		return fieldTarget{}, fmt.Errorf("unknown dataId %q", id)
	}
	var t fieldTarget
	var err error
	nums := []*uint64{&t.class, &t.field, &t.object}
	for i, p := range parts[1:4] {
		if *nums[i], err = strconv.ParseUint(p, 10, 64); err != nil {
			return fieldTarget{}, fmt.Errorf("unknown dataId %q", id)
		}
	}
	t.name = parts[4]
	return t, nil
}

func (s *Server) dataBreakpointInfo(ctx context.Context, req *godap.DataBreakpointInfoRequest) (*godap.DataBreakpointInfoResponse, error) {
	t, err := s.resolveField(ctx, req.Arguments.FrameId, strings.TrimSpace(req.Arguments.Name))
	if err != nil {
		return &godap.DataBreakpointInfoResponse{Body: godap.DataBreakpointInfoResponseBody{Description: err.Error()}}, nil
	}
	return &godap.DataBreakpointInfoResponse{Body: godap.DataBreakpointInfoResponseBody{DataId: t.dataID(), Description: t.name,
		AccessTypes: []godap.DataBreakpointAccessType{"write", "read", "readWrite"}}}, nil
}

// resolveField finds the field an expression names in a frame: obj.field
// or Class.field, or a bare name: a field of this, else a static field of
// the frame's class.
func (s *Server) resolveField(ctx context.Context, frameID int, expr string) (fieldTarget, error) {
	env, err := s.envFor(ctx, frameID)
	if err != nil {
		return fieldTarget{}, err
	}
	prefix, name := "", expr
	if i := strings.LastIndexByte(expr, '.'); i >= 0 {
		prefix, name = expr[:i], expr[i+1:]
	}
	if name == "" {
		return fieldTarget{}, fmt.Errorf("%q names no field", expr)
	}
	if prefix == "" {
		if this, err := env.evalString(ctx, "this"); err == nil && !this.isClass && this.v.IsObject() && this.v.Object != 0 {
			if t, err := s.fieldOf(ctx, this.v.Object, 0, name); err == nil {
				t.name = expr
				return t, nil
			}
		}
		t, err := s.fieldOf(ctx, 0, env.loc.Class, name)
		if err != nil {
			return fieldTarget{}, fmt.Errorf("%s is not a field of this class (a local variable cannot be watched in Java)", name)
		}
		t.name = expr
		return t, nil
	}
	owner, err := env.evalString(ctx, prefix)
	if err != nil {
		return fieldTarget{}, err
	}
	var t fieldTarget
	switch {
	case owner.isClass:
		t, err = s.fieldOf(ctx, 0, owner.class, name)
	case owner.v.IsObject() && owner.v.Object != 0:
		t, err = s.fieldOf(ctx, owner.v.Object, 0, name)
	default:
		return fieldTarget{}, fmt.Errorf("%s is not an object", prefix)
	}
	if err != nil {
		return fieldTarget{}, err
	}
	t.name = expr
	return t, nil
}

// fieldOf finds the field name of an object (its runtime class and
// superclasses) or of a class. An instance field keeps the object; a
// static one does not.
func (s *Server) fieldOf(ctx context.Context, obj, class uint64, name string) (fieldTarget, error) {
	if obj != 0 {
		_, rt, err := s.vm.ObjectType(ctx, obj)
		if err != nil {
			return fieldTarget{}, err
		}
		class = rt
	}
	for _, c := range s.classes.classChain(ctx, class) {
		fields, err := s.classes.fieldsOf(ctx, c)
		if err != nil {
			continue
		}
		for _, f := range fields {
			if f.Name != name {
				continue
			}
			t := fieldTarget{class: c, field: f.ID}
			if !f.IsStatic() {
				if obj == 0 {
					return fieldTarget{}, fmt.Errorf("%s is an instance field: watch obj.%s", name, name)
				}
				t.object = obj
			}
			return t, nil
		}
	}
	return fieldTarget{}, fmt.Errorf("no field %s", name)
}

func (s *Server) setDataBreakpoints(ctx context.Context, req *godap.SetDataBreakpointsRequest) (*godap.SetDataBreakpointsResponse, error) {
	if s.vm == nil {
		return nil, errNotStopped
	}
	if s.watches == nil {
		s.watches = &watchSet{}
	}
	for _, w := range s.watches.list {
		s.clearWatch(ctx, w)
	}
	s.watches.list = nil
	out := []godap.Breakpoint{}
	for _, b := range req.Arguments.Breakpoints {
		t, err := parseDataID(b.DataId)
		if err != nil {
			out = append(out, godap.Breakpoint{Message: err.Error()})
			continue
		}
		hit, err := bpcond.ParseHit(b.HitCondition)
		if err != nil {
			out = append(out, godap.Breakpoint{Message: err.Error()})
			continue
		}
		s.watches.next++
		w := &watch{id: s.watches.next, target: t, access: string(b.AccessType), condition: b.Condition, hit: hit}
		if w.access == "" {
			w.access = "write"
		}
		if err := s.setWatch(ctx, w); err != nil {
			s.clearWatch(ctx, w)
			out = append(out, godap.Breakpoint{Id: w.id, Message: err.Error()})
			continue
		}
		s.watches.list = append(s.watches.list, w)
		out = append(out, godap.Breakpoint{Id: w.id, Verified: true})
	}
	return &godap.SetDataBreakpointsResponse{Body: godap.SetDataBreakpointsResponseBody{Breakpoints: out}}, nil
}

// setWatch creates the JDWP requests of a watch.
func (s *Server) setWatch(ctx context.Context, w *watch) error {
	mods := []Modifier{{Kind: modFieldOnly, Class: w.target.class, Field: w.target.field}}
	if w.target.object != 0 {
		mods = append(mods, Modifier{Kind: modInstanceOnly, Object: w.target.object})
		// The filter keeps the object alive for as long as it is watched.
		_ = s.vm.DisableCollection(ctx, w.target.object)
	}
	var err error
	if w.access == "write" || w.access == "readWrite" {
		if w.modifyReq, err = s.vm.SetEvent(ctx, EventFieldModify, SuspendAll, mods...); err != nil {
			return fmt.Errorf("the JVM refused a modification watchpoint: %w", err)
		}
	}
	if w.access == "read" || w.access == "readWrite" {
		if w.readReqs, err = s.vm.SetEvent(ctx, EventFieldAccess, SuspendAll, mods...); err != nil {
			return fmt.Errorf("the JVM refused an access watchpoint: %w", err)
		}
	}
	return nil
}

func (s *Server) clearWatch(ctx context.Context, w *watch) {
	if w.modifyReq != 0 {
		_ = s.vm.ClearEvent(ctx, EventFieldModify, w.modifyReq)
	}
	if w.readReqs != 0 {
		_ = s.vm.ClearEvent(ctx, EventFieldAccess, w.readReqs)
	}
	if w.target.object != 0 {
		_ = s.vm.EnableCollection(ctx, w.target.object)
	}
}

// watchHit decides whether a field event stops: its hit condition and
// condition hold. The stop carries the field's value before and after a
// write (a modification event comes before the write, with the value to
// be written). Called with mu held, from the stop loop.
func (s *Server) watchHit(ctx context.Context, e Event) *stopInfo {
	if s.watches == nil {
		return nil
	}
	var w *watch
	for _, c := range s.watches.list {
		if (e.Kind == EventFieldModify && c.modifyReq == e.RequestID) || (e.Kind == EventFieldAccess && c.readReqs == e.RequestID) {
			w = c
		}
	}
	if w == nil {
		return nil
	}
	w.hits++
	if !w.hit.Match(w.hits) {
		return nil
	}
	if w.condition != "" {
		v, err := s.evalAt(ctx, e.Thread, w.condition)
		if err != nil {
			s.console(fmt.Sprintf("data breakpoint %d: condition %q failed: %v", w.id, w.condition, err))
		} else if v.Tag != TagBoolean || v.Long == 0 {
			return nil
		}
	}
	var cur []Value
	var err error
	if w.target.object != 0 {
		cur, err = s.vm.FieldValues(ctx, w.target.object, []uint64{w.target.field})
	} else {
		cur, err = s.vm.StaticValues(ctx, w.target.class, []uint64{w.target.field})
	}
	data := map[string]any{"expression": w.target.name}
	old := ""
	if err == nil && len(cur) == 1 {
		old = s.describe(ctx, e.Thread, cur[0], w.target.name).value
		data["old"] = old
	}
	desc := "Data breakpoint: " + w.target.name + " read"
	if e.Kind == EventFieldModify {
		nv := s.describe(ctx, e.Thread, e.Value, w.target.name).value
		data["new"] = nv
		desc = fmt.Sprintf("Data breakpoint: %s: %s → %s", w.target.name, old, nv)
	}
	s.watches.pending = data
	return &stopInfo{reason: "data breakpoint", thread: e.Thread, description: desc, hitIDs: []int{w.id}}
}

// takeWatchData returns the values of a data breakpoint's stop, once.
func (s *Server) takeWatchData(reason string) map[string]any {
	if s.watches == nil || s.watches.pending == nil {
		return nil
	}
	d := s.watches.pending
	s.watches.pending = nil
	if reason != "data breakpoint" {
		return nil
	}
	return d
}
