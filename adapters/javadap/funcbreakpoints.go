package javadap

import (
	"context"
	"fmt"
	"strings"

	godap "github.com/google/go-dap"
)

// classMatches reports whether a class name as a user wrote it
// ("pkg.Outer.Inner", "Outer$Inner", "Inner") names the class of sig.
func classMatches(name, sig string) bool {
	full := javaTypeName(sig)
	if full == name || strings.ReplaceAll(full, "$", ".") == name {
		return true
	}
	if !strings.ContainsAny(name, ".$") {
		return simpleClassName(sig) == name
	}
	return strings.HasSuffix(full, "."+name) || strings.HasSuffix(strings.ReplaceAll(full, "$", "."), "."+name)
}

func (s *Server) setFunctionBreakpoints(ctx context.Context, req *godap.SetFunctionBreakpointsRequest) (*godap.SetFunctionBreakpointsResponse, error) {
	a := &req.Arguments
	if s.vm == nil {
		return nil, fmt.Errorf("setFunctionBreakpoints before launch or attach")
	}
	s.bpMu.Lock()
	for _, b := range s.bps.funcs {
		s.clearRequests(ctx, b)
	}
	s.bps.funcs = nil
	var list []*breakpoint
	for _, fb := range a.Breakpoints {
		s.bps.nextID++
		b := &breakpoint{id: s.bps.nextID, funcName: fb.Name, condition: fb.Condition, classes: map[uint64]bool{}}
		b.parseHit(fb.HitCondition)
		name := strings.ReplaceAll(strings.ReplaceAll(strings.TrimSpace(fb.Name), "::", "#"), "#", ".")
		name = strings.TrimSuffix(name, "()")
		if i := strings.LastIndexByte(name, '.'); i > 0 && i < len(name)-1 {
			if b.hitErr == "" { // a malformed hit condition is never installed
				b.funcClass, b.funcMethod = name[:i], name[i+1:]
			}
		} else if b.hitErr == "" {
			b.message = fmt.Sprintf("function breakpoint %q: write Class.method (or pkg.Class.method)", fb.Name)
		}
		list = append(list, b)
		s.bps.funcs = append(s.bps.funcs, b)
	}
	s.bpMu.Unlock()
	out := []godap.Breakpoint{}
	for _, b := range list {
		if b.funcClass != "" {
			if err := s.installFunctionBP(ctx, b); err != nil {
				b.message = err.Error()
			}
		}
		out = append(out, b.toDAP())
	}
	return &godap.SetFunctionBreakpointsResponse{Body: godap.SetFunctionBreakpointsResponseBody{Breakpoints: out}}, nil
}

// installFunctionBP watches for the breakpoint's class and binds it in the
// classes already loaded.
func (s *Server) installFunctionBP(ctx context.Context, b *breakpoint) error {
	s.bpMu.Lock()
	defer s.bpMu.Unlock()
	simple := b.funcClass
	if i := strings.LastIndexAny(simple, ".$"); i >= 0 {
		simple = simple[i+1:]
	}
	if err := s.ensurePrepare(ctx, "class:"+simple, Modifier{Kind: ModClassMatch, Pattern: "*" + simple}); err != nil {
		return err
	}
	all, err := s.vm.AllClasses(ctx)
	if err != nil {
		return err
	}
	for _, c := range all {
		if c.TypeTag != 3 && c.Status&2 != 0 && classMatches(b.funcClass, c.Signature) {
			s.classes.setSignature(c.ID, c.Signature)
			s.bindMethod(ctx, b, c.ID, c.TypeTag)
		}
	}
	if !b.verified && b.message == "" {
		b.message = fmt.Sprintf("class %s is not loaded yet; the breakpoint binds when it loads", b.funcClass)
	}
	return nil
}

// bindMethod sets breakpoints at the first line of every method named
// b.funcMethod in class. Called with bpMu held.
func (s *Server) bindMethod(ctx context.Context, b *breakpoint, class uint64, tag byte) {
	methods, ok := s.methodsToBind(ctx, b, class)
	if !ok {
		return
	}
	for _, m := range methods {
		if m.Name != b.funcMethod {
			continue
		}
		lt, err := s.classes.lineTable(ctx, class, m.ID)
		if err != nil {
			continue
		}
		idx, line := lt.Start, 0
		if len(lt.Lines) > 0 {
			idx, line = lt.Lines[0].Index, int(lt.Lines[0].Line)
		}
		if err := s.setAt(ctx, b, Location{TypeTag: tag, Class: class, Method: m.ID, Index: idx}); err != nil {
			b.message = err.Error()
			continue
		}
		if b.actualLine == 0 {
			b.actualLine = line
		}
	}
}
