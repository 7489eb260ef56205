package javadap

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/proc"
)

// maxChangedScan bounds the source files looked at for "changed since".
const maxChangedScan = 20000

// compileTimeout bounds javac.
const compileTimeout = 2 * time.Minute

// hotReload compiles the edited sources with the program's class path and
// the program's JDK, and redefines the loaded classes they compile to in
// one VirtualMachine.RedefineClasses: all are replaced or none. With
// restartFrames, the innermost frame of the stopped thread that runs
// replaced (obsolete) code is popped and stepped into again, so it runs
// the new code.
func (s *Server) hotReload(ctx context.Context, req *dap.HotReloadRequest) (*dap.HotReloadResponse, error) {
	if s.vm == nil {
		return nil, errors.New("no program is being debugged")
	}
	a := &req.Arguments
	if a.RestartFrames && !s.stopped {
		return nil, errNotStopped // RedefineClasses itself needs no stop
	}
	files := a.Files
	if len(files) == 0 {
		files = s.changedSources(time.UnixMilli(a.Since))
		if len(files) == 0 {
			return reloaded(dap.HotReloadResponseBody{Message: "no .java file under the program's source roots changed since the session started"})
		}
	}
	for _, f := range files {
		if !strings.HasSuffix(f, ".java") {
			return nil, fmt.Errorf("%s is not a .java source file", f)
		}
	}
	out, err := os.MkdirTemp("", "dbg-hotreload-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(out)
	if msg, err := s.compile(ctx, files, out); err != nil {
		var refused []dap.ReloadUnit
		for _, f := range files {
			refused = append(refused, dap.ReloadUnit{Name: strings.TrimSuffix(filepath.Base(f), ".java"), File: f, Reason: "javac: " + msg})
		}
		return reloaded(dap.HotReloadResponseBody{Refused: refused, Message: "the edit does not compile; nothing was replaced"})
	}
	defs, notLoaded, err := s.compiledClasses(ctx, out, files)
	if err != nil {
		return nil, err
	}
	var body dap.HotReloadResponseBody
	var note []string
	if len(notLoaded) > 0 {
		note = append(note, "not loaded yet, so not replaced (the class path still has the old class files): "+strings.Join(notLoaded, ", "))
	}
	if len(defs) == 0 {
		body.Message = strings.Join(append(note, "no loaded class to replace"), "; ")
		return reloaded(body)
	}
	var names []string // the stopped thread's frames, named before the code changes
	if a.RestartFrames {
		names = s.frameNames(ctx, a.ThreadId)
	}
	if err := s.vm.RedefineClasses(ctx, defs); err != nil {
		reason := redefineReason(err)
		var refused []dap.ReloadUnit
		for _, d := range defs {
			refused = append(refused, dap.ReloadUnit{Name: d.name, File: d.file, Reason: reason})
		}
		if len(defs) > 1 {
			note = append(note, "the JVM replaces the classes together or not at all; reload the files one at a time to find the class it refuses")
		}
		body.Refused = refused
		body.Message = strings.Join(append(note, "nothing was replaced"), "; ")
		return reloaded(body)
	}
	var replaced []dap.ReloadUnit
	redefined := map[uint64]bool{}
	for _, d := range defs {
		replaced = append(replaced, dap.ReloadUnit{Name: d.name, File: d.file})
		redefined[d.refType] = true
		s.classes.forget(d.refType)
	}
	body.Replaced = replaced
	s.rebindBreakpoints(ctx, redefined)
	if a.RestartFrames {
		t, err := s.thread(a.ThreadId)
		if err != nil {
			return nil, err
		}
		name, err := s.restartObsolete(ctx, t, names)
		switch {
		case err != nil:
			note = append(note, "no frame restarted: "+err.Error())
		case name == "":
			note = append(note, "no replaced method is running on the stopped thread")
		default:
			body.RestartedFrame, body.StackChanged, body.Resumed = name, true, true
			dap.AfterResponse(ctx, func() { s.runIntoRestarted(ctx, t) })
		}
	}
	body.Message = strings.Join(note, "; ")
	return reloaded(body)
}

func reloaded(body dap.HotReloadResponseBody) (*dap.HotReloadResponse, error) {
	return &dap.HotReloadResponse{Body: body}, nil
}

// changedSources lists the .java files under the source roots modified
// after since.
func (s *Server) changedSources(since time.Time) []string {
	s.sources.mu.Lock()
	roots := append([]string{}, s.sources.roots...)
	s.sources.mu.Unlock()
	seen := map[string]bool{}
	var out []string
	scanned := 0
	for _, root := range roots {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || scanned > maxChangedScan {
				return filepath.SkipDir
			}
			scanned++
			if d.IsDir() || !strings.HasSuffix(p, ".java") || seen[p] {
				return nil
			}
			if info, err := d.Info(); err == nil && info.ModTime().After(since) {
				seen[p] = true
				out = append(out, p)
			}
			return nil
		})
	}
	sort.Strings(out)
	return out
}

// compile runs the program's javac on files into dir, with the program's
// class path; it returns javac's output when compiling fails.
func (s *Server) compile(ctx context.Context, files []string, dir string) (string, error) {
	javac := s.javac()
	if javac == "" {
		return "no javac found (the program runs on a JRE; install a JDK)", errors.New("no javac")
	}
	s.classFiles.mu.Lock()
	cp := strings.Join(s.classFiles.roots, string(os.PathListSeparator))
	s.classFiles.mu.Unlock()
	args := append(javacLight(), "-g", "-nowarn", "-implicit:none", "-d", dir)
	if cp != "" {
		args = append(args, "-cp", cp)
	}
	cctx, cancel := context.WithTimeout(ctx, compileTimeout)
	defer cancel()
	cmd := exec.CommandContext(cctx, javac, append(args, files...)...)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(buf.String())
		if len(msg) > 2000 {
			msg = msg[:2000] + "…"
		}
		if msg == "" {
			msg = err.Error()
		}
		return msg, err
	}
	return "", nil
}

// javacLight are javac's JVM options for a short compile: the client
// compiler and the serial collector start it with the least work (a
// third less CPU than javac's defaults for a small program).
func javacLight() []string {
	return []string{"-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"}
}

// javac is the compiler of the JDK the program runs on, else of the
// JDK found like a launch's.
func (s *Server) javac() string {
	if s.proc != nil {
		if exe, err := proc.Exe(s.proc.Pid()); err == nil {
			if p := jdkTool(exe, "javac"); p != "" {
				return p
			}
		}
	}
	if java, err := FindJava("", ""); err == nil {
		return jdkTool(java, "javac")
	}
	p, _ := exec.LookPath("javac")
	return p
}

// classDef is one class to redefine.
type classDef struct {
	refType uint64
	bytes   []byte
	name    string
	file    string
}

// compiledClasses reads the class files javac wrote under dir and pairs
// each with its loaded class; it also names the classes not loaded.
func (s *Server) compiledClasses(ctx context.Context, dir string, files []string) ([]classDef, []string, error) {
	var defs []classDef
	var notLoaded []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".class") {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		internal := filepath.ToSlash(strings.TrimSuffix(rel, ".class"))
		name := strings.ReplaceAll(internal, "/", ".")
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		loaded, err := s.vm.ClassesBySignature(ctx, "L"+internal+";")
		if err != nil {
			return err
		}
		if len(loaded) == 0 {
			notLoaded = append(notLoaded, name)
			return nil
		}
		file := sourceOf(files, internal)
		for _, c := range loaded {
			defs = append(defs, classDef{refType: c.ID, bytes: data, name: name, file: file})
		}
		return nil
	})
	return defs, notLoaded, err
}

// sourceOf picks the file a class compiled from: the one named like its
// outermost class, else the only one.
func sourceOf(files []string, internal string) string {
	outer := internal[strings.LastIndexByte(internal, '/')+1:]
	if i := strings.IndexByte(outer, '$'); i >= 0 {
		outer = outer[:i]
	}
	for _, f := range files {
		if strings.TrimSuffix(filepath.Base(f), ".java") == outer {
			return f
		}
	}
	if len(files) == 1 {
		return files[0]
	}
	return ""
}

// RedefineClasses replaces the byte code of loaded classes
// (VirtualMachine.RedefineClasses): all of them or, on error, none.
func (c *Client) RedefineClasses(ctx context.Context, defs []classDef) error {
	w := c.writer()
	w.i32(int32(len(defs)))
	for _, d := range defs {
		w.refType(d.refType)
		w.i32(int32(len(d.bytes)))
		w.b = append(w.b, d.bytes...)
	}
	return c.send(ctx, "VirtualMachine.RedefineClasses", csVM, 18, w)
}

// redefineReasons are the JVM's reasons for refusing a redefinition, by
// JDWP error code.
var redefineReasons = map[uint16]string{
	60: "invalid class format",
	61: "circular class definition",
	62: "the new class fails verification",
	63: "add method not implemented (the edit adds a method)",
	64: "schema change not implemented (the edit adds, removes or changes a field)",
	65: "invalid type state",
	66: "hierarchy change not implemented (the edit changes the superclass or interfaces)",
	67: "delete method not implemented (the edit removes a method)",
	68: "unsupported class file version",
	69: "names don't match",
	70: "class modifiers change not implemented",
	71: "method modifiers change not implemented (the edit changes a method's signature or modifiers)",
	72: "class attribute change not implemented",
	99: "this JVM cannot redefine classes",
}

// redefineReason says in the JVM's words why RedefineClasses failed.
func redefineReason(err error) string {
	var je *Error
	if errors.As(err, &je) {
		if r, ok := redefineReasons[je.Code]; ok {
			return r
		}
	}
	return err.Error()
}

// forget drops what the cache knows of a class's methods, which a
// redefinition replaced.
func (c *classCache) forget(rt uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.methods, rt)
	for k := range c.lines {
		if k[0] == rt {
			delete(c.lines, k)
		}
	}
	for k := range c.vars {
		if k[0] == rt {
			delete(c.vars, k)
		}
	}
}

// rebindBreakpoints sets again the breakpoints bound in redefined
// classes: the JVM clears them with the old code.
func (s *Server) rebindBreakpoints(ctx context.Context, redefined map[uint64]bool) {
	s.bpMu.Lock()
	defer s.bpMu.Unlock()
	var all []*breakpoint
	for _, list := range s.bps.byFile {
		all = append(all, list...)
	}
	all = append(all, s.bps.funcs...)
	for _, b := range all {
		hit := false
		for c := range b.classes {
			hit = hit || redefined[c]
		}
		if !hit {
			continue
		}
		old := b.classes
		s.clearRequests(ctx, b)
		b.classes = map[uint64]bool{}
		for c := range old {
			if b.funcClass != "" {
				s.bindMethod(ctx, b, c, 1)
			} else {
				s.bindLine(ctx, b, c, 1)
			}
		}
	}
}

// frameNames names the frames of a thread (0: the stopped one) as
// Class.method, innermost first.
func (s *Server) frameNames(ctx context.Context, threadID int) []string {
	t, err := s.thread(threadID)
	if err != nil {
		return nil
	}
	fs, err := s.vm.Frames(ctx, t, 0, -1)
	if err != nil {
		return nil
	}
	out := make([]string, len(fs))
	for i, f := range fs {
		sig, _ := s.classes.signature(ctx, f.Location.Class)
		out[i] = javaTypeName(sig)
		if m, ok := s.classes.method(ctx, f.Location.Class, f.Location.Method); ok {
			out[i] += "." + m.Name
		}
	}
	return out
}

// restartObsolete pops the innermost frame of thread that runs replaced
// code, and returns its name ("" when no frame does); names are the
// frames' names from before the redefinition.
func (s *Server) restartObsolete(ctx context.Context, thread uint64, names []string) (string, error) {
	fs, err := s.vm.Frames(ctx, thread, 0, -1)
	if err != nil {
		return "", err
	}
	for d, f := range fs {
		old, err := s.vm.IsObsolete(ctx, f.Location.Class, f.Location.Method)
		if err != nil || !old {
			continue
		}
		sig, _ := s.classes.signature(ctx, f.Location.Class)
		name := javaTypeName(sig)
		if d < len(names) {
			name = names[d]
		}
		if err := s.popTo(ctx, thread, d); err != nil {
			return "", fmt.Errorf("%s (depth %d) runs replaced code: %w", name, d, err)
		}
		return fmt.Sprintf("%s (depth %d)", name, d), nil
	}
	return "", nil
}
