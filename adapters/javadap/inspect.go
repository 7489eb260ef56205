package javadap

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	godap "github.com/google/go-dap"
)

// maxChildren caps the variables of one container when the client asks
// for no page.
const maxChildren = 1000

func (s *Server) stackTrace(ctx context.Context, req *godap.StackTraceRequest) (*godap.StackTraceResponse, error) {
	a := &req.Arguments
	if s.vm == nil || !s.stopped {
		return nil, errNotStopped
	}
	t, err := s.thread(a.ThreadId)
	if err != nil {
		return nil, err
	}
	total, err := s.vm.FrameCount(ctx, t)
	if err != nil {
		return nil, fmt.Errorf("stack of thread %d: %w", a.ThreadId, err)
	}
	levels := a.Levels
	if levels <= 0 || a.StartFrame+levels > total {
		levels = total - a.StartFrame
	}
	out := []godap.StackFrame{}
	if levels > 0 {
		frames, err := s.vm.Frames(ctx, t, a.StartFrame, levels)
		if err != nil {
			return nil, err
		}
		for i, f := range frames {
			s.rememberFrame(t, a.StartFrame+i, f.ID)
			out = append(out, s.describeFrame(ctx, t, a.StartFrame+i, f))
		}
	}
	return &godap.StackTraceResponse{Body: godap.StackTraceResponseBody{StackFrames: out, TotalFrames: total}}, nil
}

func (s *Server) describeFrame(ctx context.Context, t uint64, depth int, f Frame) godap.StackFrame {
	id := s.refs.addFrame(frameRef{thread: t, depth: depth, loc: f.Location})
	sig, _ := s.classes.signature(ctx, f.Location.Class)
	name := javaTypeName(sig)
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	if m, ok := s.classes.method(ctx, f.Location.Class, f.Location.Method); ok {
		name += "." + m.Name
	}
	frame := godap.StackFrame{Id: id, Name: name, Line: s.classes.lineOf(ctx, f.Location), Column: 1}
	if file := s.classes.sourceFile(ctx, f.Location.Class); file != "" {
		frame.Source = &godap.Source{Name: file, Path: s.sources.resolve(packageDir(sig), file)}
		if frame.Source.Path == "" {
			frame.Source.PresentationHint = "deemphasize"
		}
	}
	if isJDKClass(sig) {
		frame.PresentationHint = "subtle"
	}
	return frame
}

func (s *Server) scopes(ctx context.Context, req *godap.ScopesRequest) (*godap.ScopesResponse, error) {
	f, ok := s.refs.frame(req.Arguments.FrameId)
	if !ok {
		return nil, fmt.Errorf("unknown frameId %d (frames are invalid once the program resumes)", req.Arguments.FrameId)
	}
	locals := s.refs.add(&varRef{kind: refLocals, thread: f.thread, depth: f.depth, loc: f.loc})
	out := []godap.Scope{{Name: "Locals", PresentationHint: "locals", VariablesReference: locals}}
	if fields, err := s.classes.fieldsOf(ctx, f.loc.Class); err == nil {
		n := 0
		for _, fd := range fields {
			if fd.IsStatic() {
				n++
			}
		}
		if n > 0 {
			sig, _ := s.classes.signature(ctx, f.loc.Class)
			st := s.refs.add(&varRef{kind: refStatics, thread: f.thread, class: f.loc.Class, path: javaTypeName(sig)})
			out = append(out, godap.Scope{Name: "Static", VariablesReference: st, NamedVariables: n})
		}
	}
	return &godap.ScopesResponse{Body: godap.ScopesResponseBody{Scopes: out}}, nil
}

func (s *Server) variables(ctx context.Context, req *godap.VariablesRequest) (*godap.VariablesResponse, error) {
	a := &req.Arguments
	r := s.refs.get(a.VariablesReference)
	if r == nil {
		return nil, fmt.Errorf("unknown variablesReference %d (references are invalid once the program resumes)", a.VariablesReference)
	}
	vars, err := s.children(ctx, r, a.Start, a.Count)
	if err != nil {
		return nil, err
	}
	if vars == nil {
		vars = []godap.Variable{}
	}
	return &godap.VariablesResponse{Body: godap.VariablesResponseBody{Variables: vars}}, nil
}

// local is a visible local variable of a frame.
type local struct {
	VarInfo
	value Value
}

// frameLocals reads the variables in scope at a frame's location.
func (s *Server) frameLocals(ctx context.Context, thread uint64, depth int, loc Location) ([]local, error) {
	vt, err := s.classes.varTable(ctx, loc.Class, loc.Method)
	if err != nil {
		return nil, err
	}
	var vis []VarInfo
	for _, v := range vt {
		if v.CodeIndex <= loc.Index && loc.Index < v.CodeIndex+uint64(v.Length) && v.Name != "this" {
			vis = append(vis, v)
		}
	}
	sort.SliceStable(vis, func(i, j int) bool { return vis[i].Slot < vis[j].Slot })
	if len(vis) == 0 {
		return nil, nil
	}
	slots := make([]SlotRequest, len(vis))
	for i, v := range vis {
		slots[i] = SlotRequest{Slot: v.Slot, Tag: tagOfSignature(v.Signature)}
	}
	frame, err := s.frameID(ctx, thread, depth)
	if err != nil {
		return nil, err
	}
	vals, err := s.vm.FrameValues(ctx, thread, frame, slots)
	if err != nil {
		return nil, err
	}
	out := make([]local, 0, len(vis))
	for i, v := range vis {
		if i < len(vals) {
			out = append(out, local{VarInfo: v, value: vals[i]})
		}
	}
	return out, nil
}

func (s *Server) children(ctx context.Context, r *varRef, start, count int) ([]godap.Variable, error) {
	switch r.kind {
	case refLocals:
		var out []godap.Variable
		if this, err := s.thisAt(ctx, r.thread, r.depth); err == nil && this.Object != 0 {
			out = append(out, s.variable(ctx, r.thread, "this", this, "this"))
		}
		ls, err := s.frameLocals(ctx, r.thread, r.depth, r.loc)
		if err != nil {
			return nil, err
		}
		for _, l := range ls {
			out = append(out, s.variable(ctx, r.thread, l.Name, l.value, l.Name))
		}
		if vt, _ := s.classes.varTable(ctx, r.loc.Class, r.loc.Method); vt == nil {
			out = append(out, godap.Variable{Name: "<locals>", Value: "no local variable information: compile with javac -g"})
		}
		return out, nil
	case refStatics:
		fields, err := s.classes.fieldsOf(ctx, r.class)
		if err != nil {
			return nil, err
		}
		var ids []uint64
		var names []string
		for _, f := range fields {
			if f.IsStatic() {
				ids = append(ids, f.ID)
				names = append(names, f.Name)
			}
		}
		vals, err := s.vm.StaticValues(ctx, r.class, ids)
		if err != nil {
			return nil, err
		}
		var out []godap.Variable
		for i, v := range vals {
			out = append(out, s.variable(ctx, r.thread, names[i], v, r.path+"."+names[i]))
		}
		return out, nil
	case refObject:
		fs, vals, err := s.objectFields(ctx, r.obj.Object)
		if err != nil {
			return nil, err
		}
		var out []godap.Variable
		for i, f := range fs {
			out = append(out, s.variable(ctx, r.thread, f.Name, vals[i], r.path+"."+f.Name))
		}
		return out, nil
	case refArray, refCollection:
		arr := r.obj.Object
		if r.kind == refCollection {
			arr = r.elems
		}
		first, n := page(start, count, r.length)
		if n == 0 {
			return nil, nil
		}
		vals, err := s.vm.ArrayValues(ctx, arr, first, n)
		if err != nil {
			return nil, err
		}
		var out []godap.Variable
		for i, v := range vals {
			idx := first + i
			path := fmt.Sprintf("%s[%d]", r.path, idx)
			if r.kind == refCollection {
				path = fmt.Sprintf("%s.get(%d)", r.path, idx)
			}
			out = append(out, s.variable(ctx, r.thread, "["+strconv.Itoa(idx)+"]", v, path))
		}
		return out, nil
	case refMap:
		first, n := page(start, count, r.length)
		if n == 0 {
			return nil, nil
		}
		entries, err := s.vm.ArrayValues(ctx, r.elems, first, n)
		if err != nil {
			return nil, err
		}
		var out []godap.Variable
		for _, e := range entries {
			k, err1 := s.invoke(ctx, r.thread, e, "getKey", nil)
			v, err2 := s.invoke(ctx, r.thread, e, "getValue", nil)
			if err1 != nil || err2 != nil {
				continue
			}
			name := s.shortValue(ctx, r.thread, k)
			out = append(out, s.variable(ctx, r.thread, name, v, r.path+".get("+name+")"))
		}
		return out, nil
	}
	return nil, errors.New("bad variables reference")
}

// page clamps a requested page to [0, length), capped at maxChildren.
func page(start, count, length int) (int, int) {
	if start < 0 {
		start = 0
	}
	if start >= length {
		return start, 0
	}
	if count <= 0 || count > maxChildren {
		count = maxChildren
	}
	if start+count > length {
		count = length - start
	}
	return start, count
}

// objectFields returns the instance fields of an object, superclass
// fields after the class's own.
func (s *Server) objectFields(ctx context.Context, obj uint64) ([]FieldInfo, []Value, error) {
	_, rt, err := s.vm.ObjectType(ctx, obj)
	if err != nil {
		return nil, nil, err
	}
	var fs []FieldInfo
	for _, c := range s.classes.classChain(ctx, rt) {
		all, err := s.classes.fieldsOf(ctx, c)
		if err != nil {
			continue
		}
		for _, f := range all {
			if !f.IsStatic() {
				fs = append(fs, f)
			}
		}
	}
	ids := make([]uint64, len(fs))
	for i, f := range fs {
		ids[i] = f.ID
	}
	if len(ids) == 0 {
		return nil, nil, nil
	}
	vals, err := s.vm.FieldValues(ctx, obj, ids)
	if err != nil {
		return nil, nil, err
	}
	if len(vals) < len(fs) {
		fs = fs[:len(vals)]
	}
	return fs, vals, nil
}

func (s *Server) source(_ context.Context, req *godap.SourceRequest) (*godap.SourceResponse, error) {
	if req.Arguments.Source == nil || req.Arguments.Source.Path == "" {
		return nil, errors.New("source has no path")
	}
	b, err := os.ReadFile(req.Arguments.Source.Path)
	if err != nil {
		return nil, err
	}
	return &godap.SourceResponse{Body: godap.SourceResponseBody{Content: string(b), MimeType: "text/x-java"}}, nil
}

// pin keeps an object that only the debugger references (the result of an
// invocation) from being collected while the client may still expand it.
// Pins are released when the program resumes. Called with mu held.
func (s *Server) pin(ctx context.Context, obj uint64) {
	if obj == 0 {
		return
	}
	if err := s.vm.DisableCollection(ctx, obj); err == nil {
		s.pinned = append(s.pinned, obj)
	}
}

// unpinAll releases every pin. Called with mu held.
func (s *Server) unpinAll(ctx context.Context) {
	for _, o := range s.pinned {
		_ = s.vm.EnableCollection(ctx, o)
	}
	s.pinned = s.pinned[:0]
}
