package javadap

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/adapters/bpcond"
	"github.com/dbg-dev/dbg/dap"
)

// breakpoint is a line or function breakpoint and the JDWP requests that
// implement it (one per class and method with code at the line).
type breakpoint struct {
	id                    int
	path, base, pkg       string // line breakpoints
	line, actualLine      int
	condition, logMessage string
	hit                   bpcond.Hit
	hitErr                string // a malformed hit condition: the breakpoint never binds
	hits                  int
	verified              bool
	message               string
	reqs                  []int32
	classes               map[uint64]bool

	placed                          bool   // the class files on disk have code for the line
	text                            string // the source line, for declaration lines
	funcName, funcClass, funcMethod string // function breakpoints
	isEntry                         bool
}

// breakpoints is the adapter's breakpoint state, guarded by Server.bpMu.
type breakpoints struct {
	nextID     int
	byFile     map[string][]*breakpoint
	funcs      []*breakpoint
	entry      *breakpoint
	byReq      map[int32]*breakpoint
	prepares   map[string]bool // class-prepare requests made, by pattern
	pkgs       map[string]string
	excReq     int32
	excCaught  bool
	excUncaugh bool
	excClasses map[string][]string // filter -> class names
}

func newBreakpoints() *breakpoints {
	return &breakpoints{byFile: map[string][]*breakpoint{}, byReq: map[int32]*breakpoint{},
		prepares: map[string]bool{}, pkgs: map[string]string{}}
}

func (b *breakpoint) toDAP() godap.Breakpoint {
	out := godap.Breakpoint{Id: b.id, Verified: b.verified}
	if b.path != "" {
		out.Source = &godap.Source{Name: b.base, Path: b.path}
		out.Line = b.line
		if b.actualLine > 0 {
			out.Line = b.actualLine
		}
	} else if b.actualLine > 0 {
		out.Line = b.actualLine
	}
	if !b.verified {
		out.Message = b.message
	}
	return out
}

func (s *Server) setBreakpoints(ctx context.Context, req *godap.SetBreakpointsRequest) (*godap.SetBreakpointsResponse, error) {
	a := &req.Arguments
	if err := dap.SourceBreakpoints(a); err != nil {
		return nil, err
	}
	path, err := filepath.Abs(a.Source.Path)
	if err != nil {
		return nil, err
	}
	if s.vm == nil {
		return nil, fmt.Errorf("setBreakpoints before launch or attach")
	}
	s.bpMu.Lock()
	defer s.bpMu.Unlock()
	old := s.bps.byFile[path]
	oldByLine := map[int]*breakpoint{}
	for _, b := range old {
		s.clearRequests(ctx, b)
		oldByLine[b.line] = b
	}
	base := filepath.Base(path)
	pkg, ok := s.bps.pkgs[path]
	if !ok {
		if src, err := os.ReadFile(path); err == nil {
			pkg = strings.ReplaceAll(javaPackage(string(src)), ".", "/")
		} else {
			pkg = "?"
		}
		s.bps.pkgs[path] = pkg
	}
	s.sources.addKnown(path, pkg)
	var list []*breakpoint
	srcLines := readLines(path)
	var compiled []*ClassFile
	if len(a.Breakpoints) > 0 && s.classFiles != nil {
		compiled = s.classFiles.find(pkg, base)
	}
	for _, sb := range a.Breakpoints {
		if sb.Line < 1 {
			return nil, fmt.Errorf("breakpoint line %d: lines start at 1", sb.Line)
		}
		b := &breakpoint{path: path, base: base, pkg: pkg, line: sb.Line, condition: sb.Condition,
			logMessage: sb.LogMessage, classes: map[uint64]bool{}}
		b.parseHit(sb.HitCondition)
		if l := nextStatementLine(srcLines, sb.Line); l != sb.Line {
			b.line, b.actualLine = l, l
		}
		if b.line <= len(srcLines) {
			b.text = srcLines[b.line-1]
		}
		b.placeIn(compiled, srcLines)
		if o, ok := oldByLine[b.line]; ok {
			b.id, b.hits = o.id, o.hits
		} else {
			s.bps.nextID++
			b.id = s.bps.nextID
		}
		list = append(list, b)
	}
	s.bps.byFile[path] = list
	if len(list) > 0 {
		if err := s.ensurePrepare(ctx, "src:"+base, Modifier{Kind: ModSourceNameMatch, Pattern: base}); err != nil {
			return nil, err
		}
		classes, err := s.loadedClassesOfFile(ctx, base, pkg)
		if err != nil {
			return nil, err
		}
		for _, b := range list {
			for _, c := range classes {
				s.bindLine(ctx, b, c.ID, c.TypeTag)
			}
			switch {
			case b.verified || b.hitErr != "":
			case b.placed:
				b.verified, b.message = true, ""
			case len(compiled) > 0:
				b.message = fmt.Sprintf("%s:%d has no code in the compiled classes of %s (%s): put the breakpoint on a line with a statement",
					base, b.line, base, classNames(compiled))
			default:
				b.message = fmt.Sprintf("%s:%d is pending: no class compiled from %s was found on the class path and none is loaded; it binds when its class loads",
					base, b.line, base)
			}
		}
	}
	out := []godap.Breakpoint{}
	for _, b := range list {
		out = append(out, b.toDAP())
	}
	return &godap.SetBreakpointsResponse{Body: godap.SetBreakpointsResponseBody{Breakpoints: out}}, nil
}

// ensurePrepare makes one class-prepare request per key.
func (s *Server) ensurePrepare(ctx context.Context, key string, mod Modifier) error {
	if s.bps.prepares[key] {
		return nil
	}
	if _, err := s.vm.SetEvent(ctx, EventClassPrepare, SuspendEventThread, mod); err != nil {
		return fmt.Errorf("watch class loading for %s: %w", key, err)
	}
	s.bps.prepares[key] = true
	return nil
}

// pkgMatches reports whether a class in package dir classPkg can come
// from a file declaring package filePkg ("?" = unknown).
func pkgMatches(filePkg, classPkg string) bool {
	return filePkg == "?" || filePkg == classPkg
}

// loadedClassesOfFile finds loaded classes compiled from a source file.
func (s *Server) loadedClassesOfFile(ctx context.Context, base, pkg string) ([]ClassInfo, error) {
	all, err := s.vm.AllClasses(ctx)
	if err != nil {
		return nil, err
	}
	var out []ClassInfo
	for _, c := range all {
		if c.TypeTag == 3 || c.Status&2 == 0 {
			continue // arrays and unprepared classes
		}
		if pkg == "?" {
			if isJDKClass(c.Signature) {
				continue
			}
		} else if packageDir(c.Signature) != pkg {
			continue
		}
		s.classes.setSignature(c.ID, c.Signature)
		if s.classes.sourceFile(ctx, c.ID) == base {
			out = append(out, c)
		}
	}
	return out, nil
}

// placeIn moves the breakpoint to where the class files compiled from its
// source have code for it (see placeLine), before any of them loads.
func (b *breakpoint) placeIn(compiled []*ClassFile, srcLines []string) {
	if len(compiled) == 0 || b.hitErr != "" {
		return
	}
	l, ok := placeLine(compiled, b.line, b.text)
	if !ok {
		return
	}
	b.placed = true
	if l != b.line {
		b.line, b.actualLine = l, l
		if l <= len(srcLines) {
			b.text = srcLines[l-1]
		}
	}
}

// parseHit reads a DAP hitCondition into b. A malformed one is reported
// on the breakpoint, which then stays unverified and never binds.
func (b *breakpoint) parseHit(cond string) {
	h, err := bpcond.ParseHit(cond)
	if err != nil {
		b.hitErr, b.message = err.Error(), err.Error()
		return
	}
	b.hit = h
}

// bindLine sets JDWP breakpoints for b in one class. Called with bpMu held.
func (s *Server) bindLine(ctx context.Context, b *breakpoint, class uint64, tag byte) {
	methods, ok := s.methodsToBind(ctx, b, class)
	if !ok {
		return
	}
	bound := false
	for _, m := range methods {
		lt, err := s.classes.lineTable(ctx, class, m.ID)
		if err != nil {
			continue
		}
		found := false
		var best uint64
		for _, e := range lt.Lines {
			if int(e.Line) == b.line && (!found || e.Index < best) {
				found, best = true, e.Index
			}
		}
		if !found {
			continue
		}
		if err := s.setAt(ctx, b, Location{TypeTag: tag, Class: class, Method: m.ID, Index: best}); err != nil {
			b.message = err.Error()
			continue
		}
		bound = true
	}
	if !bound {
		s.bindDeclaration(ctx, b, class, tag, methods)
	}
}

// bindDeclaration binds a breakpoint on a method's declaration line (which
// has no code) at the method's first line, as a method breakpoint would.
// The line must name the method, and its first line must follow closely.
// Called with bpMu held.
func (s *Server) bindDeclaration(ctx context.Context, b *breakpoint, class uint64, tag byte, methods []MethodInfo) {
	if b.text == "" {
		return
	}
	sig, _ := s.classes.signature(ctx, class)
	for _, m := range methods {
		name := m.Name
		if name == "<init>" {
			name = simpleClassName(sig)
		}
		if !strings.Contains(b.text, name+"(") {
			continue
		}
		lt, err := s.classes.lineTable(ctx, class, m.ID)
		if err != nil || len(lt.Lines) == 0 {
			continue
		}
		first := lt.Lines[0]
		if int(first.Line) <= b.line || int(first.Line) > b.line+3 {
			continue
		}
		if s.setAt(ctx, b, Location{TypeTag: tag, Class: class, Method: m.ID, Index: first.Index}) != nil {
			continue
		}
		b.actualLine = int(first.Line)
		return
	}
}

// methodsToBind marks class bound for b and lists its methods; false when
// it was bound already, b cannot bind, or its methods cannot be read.
func (s *Server) methodsToBind(ctx context.Context, b *breakpoint, class uint64) ([]MethodInfo, bool) {
	if b.classes[class] || b.hitErr != "" {
		return nil, false
	}
	b.classes[class] = true
	methods, err := s.classes.methodsOf(ctx, class)
	return methods, err == nil
}

// setAt sets a JDWP breakpoint for b at loc, which verifies b. Called
// with bpMu held.
func (s *Server) setAt(ctx context.Context, b *breakpoint, loc Location) error {
	id, err := s.vm.SetEvent(ctx, EventBreakpoint, SuspendAll, Modifier{Kind: ModLocationOnly, Location: loc})
	if err != nil {
		return err
	}
	b.reqs = append(b.reqs, id)
	s.bps.byReq[id] = b
	b.verified, b.message = true, ""
	return nil
}

func (s *Server) clearRequests(ctx context.Context, b *breakpoint) {
	for _, r := range b.reqs {
		_ = s.vm.ClearEvent(ctx, EventBreakpoint, r)
		delete(s.bps.byReq, r)
	}
	b.reqs = nil
}

// classPrepared binds pending breakpoints in a class that just loaded.
// It runs on the event pump.
func (s *Server) classPrepared(ctx context.Context, e Event) {
	s.classes.setSignature(e.RefType, e.Signature)
	s.bpMu.Lock()
	defer s.bpMu.Unlock()
	base := ""
	for path, list := range s.bps.byFile {
		if len(list) == 0 {
			continue
		}
		if base == "" {
			base = s.classes.sourceFile(ctx, e.RefType)
		}
		if filepath.Base(path) != base || !pkgMatches(list[0].pkg, packageDir(e.Signature)) {
			continue
		}
		for _, b := range list {
			was, wasLine := b.verified, b.actualLine
			s.bindLine(ctx, b, e.RefType, e.RefTypeTag)
			if b.verified && (!was || b.actualLine != wasLine) {
				s.conn.Event("breakpoint", godap.BreakpointEventBody{Reason: "changed", Breakpoint: b.toDAP()})
			}
		}
	}
	fbs := append([]*breakpoint{}, s.bps.funcs...)
	if s.bps.entry != nil {
		fbs = append(fbs, s.bps.entry)
	}
	for _, b := range fbs {
		if classMatches(b.funcClass, e.Signature) {
			was := b.verified
			s.bindMethod(ctx, b, e.RefType, e.RefTypeTag)
			if b.verified && !was && !b.isEntry {
				s.conn.Event("breakpoint", godap.BreakpointEventBody{Reason: "changed", Breakpoint: b.toDAP()})
			}
		}
	}
}

// breakpointHit applies hit counts, conditions and log messages; it
// returns the stop, or nil to resume. Runs on the stop loop with mu held.
func (s *Server) breakpointHit(ctx context.Context, e Event) *stopInfo {
	s.bpMu.Lock()
	b := s.bps.byReq[e.RequestID]
	if b == nil {
		s.bpMu.Unlock()
		return nil
	}
	if b.isEntry {
		s.clearRequests(ctx, b)
		s.bps.entry = nil
		s.bpMu.Unlock()
		return &stopInfo{reason: "entry", thread: e.Thread, description: "Paused on entry"}
	}
	b.hits++
	hits, hit, cond, logMsg, id, isFunc := b.hits, b.hit, b.condition, b.logMessage, b.id, b.funcName != ""
	s.bpMu.Unlock()
	if !hit.Match(hits) {
		return nil
	}
	if cond != "" {
		v, err := s.evalAt(ctx, e.Thread, cond)
		if err != nil {
			s.console(fmt.Sprintf("breakpoint %d: condition %q failed: %v", id, cond, err))
		} else if v.Tag != TagBoolean {
			s.console(fmt.Sprintf("breakpoint %d: condition %q is not boolean", id, cond))
		} else if v.Long == 0 {
			return nil
		}
	}
	if logMsg != "" {
		s.console(s.interpolate(ctx, e.Thread, logMsg))
		return nil
	}
	reason := "breakpoint"
	if isFunc {
		reason = "function breakpoint"
	}
	return &stopInfo{reason: reason, thread: e.Thread, hitIDs: []int{id}}
}

func (s *Server) console(msg string) {
	s.conn.Event("output", godap.OutputEventBody{Category: "console", Output: msg + "\n"})
}

// interpolate replaces each {expression} of a log message with its value
// in the thread's top frame.
func (s *Server) interpolate(ctx context.Context, thread uint64, msg string) string {
	return bpcond.Interpolate(msg, func(expr string) (string, error) {
		v, err := s.evalAt(ctx, thread, expr)
		if err != nil {
			return "", err
		}
		return s.javaString(ctx, thread, v), nil
	})
}

// readLines returns a file's lines (nil if unreadable).
func readLines(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return strings.Split(string(b), "\n")
}

// nextStatementLine moves a breakpoint off a blank or comment-only line to
// the next line with text (at most 20 lines down); other lines stay.
func nextStatementLine(lines []string, line int) int {
	if line < 1 {
		return line
	}
	inComment := false
	for l := line; l <= len(lines) && l < line+20; l++ {
		t := strings.TrimSpace(lines[l-1])
		switch {
		case inComment:
			if i := strings.Index(t, "*/"); i >= 0 {
				inComment = false
				if strings.TrimSpace(t[i+2:]) != "" {
					return l
				}
			}
			continue
		case t == "" || strings.HasPrefix(t, "//"):
			continue
		case strings.HasPrefix(t, "/*"):
			if i := strings.Index(t, "*/"); i < 0 {
				inComment = true
			} else if strings.TrimSpace(t[i+2:]) != "" {
				return l
			}
			continue
		}
		return l
	}
	return line
}
