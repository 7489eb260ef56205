package javadap

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// Server is the DAP side of one debugging session: one client connection,
// at most one JVM.
//
// Goroutines: dap.Serve calls Handle on its read goroutine, one request at
// a time. Once a VM is connected, two more run: the event pump reads JDWP
// events, handles class-prepare and thread events itself (so that a method
// invocation that loads a class never waits on a busy adapter), and queues
// the rest for the stop loop, which decides whether a breakpoint, step or
// exception stops and emits "stopped". A watcher emits "exited" and
// "terminated" when the VM goes away.
//
// Locks: mu serialises requests and the stop loop; bpMu guards breakpoint
// state and is taken after mu when both are needed; tmu guards the thread
// id maps.
type Server struct {
	conn *dap.ServerConn
	ctx  context.Context // the connection's context
	once sync.Once

	live atomic.Pointer[Client] // vm, readable without mu

	mu         sync.Mutex
	vm         *Client
	classes    *classCache
	classFiles *classIndex // class files on disk, for breakpoints before their class loads
	threadSeen *seenThreads
	sources    *sourceMapper
	proc       *dap.Process // launched JVM, nil when attached
	cleanup    func()
	attached   bool
	justMyCode bool
	// library are the launch's libraryClasses patterns.
	library    []string
	configDone bool
	entry      bool // stop on entry requested
	stopped    bool
	stopThread uint64
	suspends   int // ResumeAll calls needed to undo the current stop
	step       *stepState
	refs       *refTable
	frameIDs   map[frameKey]cachedFrame
	pinned     []uint64 // objects kept from collection until resume
	exceptions map[uint64]*exceptionStop
	closed     bool
	stopQ      *queue[*EventSet]
	vmStarted  chan struct{} // closed by the pump on VM_START
	termOnce   sync.Once

	bpMu sync.Mutex
	bps  *breakpoints

	watches *watchSet // data breakpoints (watchpoints.go), guarded by mu

	tmu        sync.Mutex
	threadIDs  map[uint64]int
	threadObjs map[int]uint64
	nextThread int
	mainThread uint64
}

// NewServer returns a handler for one DAP connection.
func NewServer() *Server {
	return &Server{refs: newRefTable(), frameIDs: map[frameKey]cachedFrame{}, exceptions: map[uint64]*exceptionStop{}, justMyCode: true,
		threadIDs: map[uint64]int{}, threadObjs: map[int]uint64{}, bps: newBreakpoints()}
}

// Serve serves one DAP client on rw (for `dbg dap java`) until it
// disconnects or ctx ends; a launched JVM is killed before it returns.
func Serve(ctx context.Context, rw io.ReadWriteCloser, log *dap.TrafficLog) error {
	s := NewServer()
	defer s.Close()
	return dap.Serve(ctx, rw, s, log)
}

// Handle implements dap.Handler.
func (s *Server) Handle(ctx context.Context, c *dap.ServerConn, req *dap.Message) {
	s.once.Do(func() {
		s.conn = c
		s.ctx = ctx
		go func() {
			<-ctx.Done()
			// The client is gone. Closing the JDWP connection first fails
			// any request still waiting on the VM, so Close gets mu soon;
			// the JDWP agent resumes the VM when its debugger goes away.
			if vm := s.live.Load(); vm != nil {
				vm.Close()
			}
			s.Close()
		}()
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	rctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	body, err := s.dispatch(rctx, req)
	if errors.Is(err, errAnswered) {
		return
	}
	if err != nil {
		c.RespondError(req, err.Error())
		return
	}
	c.Respond(req, body)
}

// errAnswered tells Handle the request was already answered.
var errAnswered = errors.New("answered")

func (s *Server) dispatch(ctx context.Context, req *dap.Message) (any, error) {
	switch req.Command {
	case "initialize":
		return capabilities(), nil
	case "launch":
		return s.launch(ctx, req)
	case "attach":
		return s.attach(ctx, req)
	case "configurationDone":
		return s.configurationDone(ctx, req)
	case "setBreakpoints":
		return s.setBreakpoints(ctx, req)
	case "setFunctionBreakpoints":
		return s.setFunctionBreakpoints(ctx, req)
	case "setExceptionBreakpoints":
		return s.setExceptionBreakpoints(ctx, req)
	case "threads":
		return s.threads(ctx)
	case "stackTrace":
		return s.stackTrace(ctx, req)
	case "scopes":
		return s.scopes(ctx, req)
	case "variables":
		return s.variables(ctx, req)
	case "evaluate":
		return s.evaluateGuarded(ctx, req)
	case "setVariable":
		return s.setVariable(ctx, req)
	case "continue":
		return s.resume(ctx, req)
	case "next", "stepIn", "stepOut":
		return s.stepRequest(ctx, req)
	case "pause":
		return nil, s.pause(ctx, req)
	case "exceptionInfo":
		return s.exceptionInfo(ctx, req)
	case "source":
		return s.source(req)
	case "disconnect":
		return nil, s.disconnect(ctx, req)
	case "terminate":
		return nil, s.terminate(ctx)
	case "dataBreakpointInfo", "setDataBreakpoints":
		return s.dataBreakpoints(ctx, req)
	case "loadedSources":
		return map[string]any{"sources": []any{}}, nil
	case "restartFrame":
		return s.restartFrame(ctx, req)
	case "hotReload":
		return s.hotReload(ctx, req)
	}
	return nil, fmt.Errorf("unsupported request %q", req.Command)
}

func capabilities() map[string]any {
	return map[string]any{
		"supportsConfigurationDoneRequest":  true,
		"supportsConditionalBreakpoints":    true,
		"supportsHitConditionalBreakpoints": true,
		"supportsLogPoints":                 true,
		"supportsDataBreakpoints":           true,
		"supportsFunctionBreakpoints":       true,
		"supportsSetVariable":               true,
		"supportsEvaluateForHovers":         true,
		"supportsExceptionInfoRequest":      true,
		"supportsTerminateRequest":          true,
		"supportsExceptionFilterOptions":    true,
		"supportsDelayedStackTraceLoading":  true,
		"supportTerminateDebuggee":          true,
		"supportsRestartFrame":              true,
		"supportsHotReload":                 true, // dbg's own: the hotReload request
		"supportsSafeEvaluate":              true, // dbg's own: evaluate's sideEffects:false
		"exceptionBreakpointFilters": []map[string]any{
			{"filter": "caught", "label": "Caught Exceptions", "supportsCondition": true,
				"conditionDescription": "exception class names, comma separated"},
			{"filter": "uncaught", "label": "Uncaught Exceptions", "default": true, "supportsCondition": true,
				"conditionDescription": "exception class names, comma separated"},
		},
	}
}

func (s *Server) launch(ctx context.Context, req *dap.Message) (any, error) {
	if s.vm != nil {
		return nil, errors.New("already debugging a JVM")
	}
	var cfg LaunchConfig
	if err := dap.DecodeArgs(req, &cfg); err != nil {
		return nil, err
	}
	if cfg.JustMyCode != nil {
		s.justMyCode = *cfg.JustMyCode
	}
	s.library = cfg.LibraryClasses
	out := &outputSink{}
	jc, proc, vm, err := connectJVM(ctx, &cfg, out)
	if err != nil {
		return nil, err
	}
	s.proc, s.cleanup = proc, jc.cleanup
	roots := append([]string{}, cfg.SourcePaths...)
	if jc.sourceDir != "" {
		roots = append(roots, jc.sourceDir)
	}
	for _, c := range cfg.Classpath {
		roots = append(roots, filepath.SplitList(c)...)
	}
	if cfg.Cwd != "" {
		roots = append(roots, conventionalRoots(cfg.Cwd)...)
	} else if wd, err := os.Getwd(); err == nil {
		roots = append(roots, conventionalRoots(wd)...)
	}
	s.start(vm, roots, jc.classPath)
	s.console(jdkBanner(ctx, vm, jc.java))
	// The VM suspends itself when it sends VM_START; resuming it before
	// that would be lost, so launch answers only once it has arrived.
	select {
	case <-s.vmStarted:
	case <-vm.Done():
		return nil, fmt.Errorf("the JVM ended before it started: %s", proc.StderrTail())
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for the JVM to start: %w", ctx.Err())
	}
	out.setSink(func(stream, line string) {
		s.conn.Event("output", map[string]any{"category": stream, "output": line + "\n"})
	})
	if cfg.StopOnEntry {
		s.entry = true
		if jc.mainClass != "" {
			s.bpMu.Lock()
			s.bps.entry = &breakpoint{funcClass: jc.mainClass, funcMethod: "main", isEntry: true, classes: map[uint64]bool{}}
			s.bpMu.Unlock()
			if err := s.installFunctionBP(ctx, s.bps.entry); err != nil {
				return nil, err
			}
		}
	}
	go s.watchExit(proc)
	s.conn.Respond(req, nil)
	name := jc.mainClass
	if name == "" {
		name = cfg.Program
	}
	if name == "" {
		name = filepath.Base(jc.argv[0])
	}
	s.conn.Event("process", map[string]any{"name": name, "systemProcessId": proc.Pid(), "isLocalProcess": true, "startMethod": "launch"})
	s.conn.Event("initialized", nil)
	return nil, errAnswered
}

func (s *Server) attach(ctx context.Context, req *dap.Message) (any, error) {
	if s.vm != nil {
		return nil, errors.New("already debugging a JVM")
	}
	var cfg AttachConfig
	if err := dap.DecodeArgs(req, &cfg); err != nil {
		return nil, err
	}
	addr, err := attachAddress(ctx, cfg)
	if err != nil {
		return nil, err
	}
	vm, err := DialJDWP(ctx, addr)
	if err != nil {
		return nil, fmt.Errorf("%w (is the JVM running with -agentlib:jdwp=transport=dt_socket,server=y,address=%s?)", err, addr)
	}
	if cfg.JustMyCode != nil {
		s.justMyCode = *cfg.JustMyCode
	}
	s.attached = true
	s.entry = cfg.StopOnEntry
	roots := append([]string{}, cfg.SourcePaths...)
	if cfg.ProcessID > 0 {
		roots = append(roots, processSourceRoots(ctx, cfg.ProcessID)...)
	}
	if wd, err := os.Getwd(); err == nil {
		roots = append(roots, conventionalRoots(wd)...)
	}
	var classPath []string
	for _, c := range cfg.Classpath {
		classPath = append(classPath, filepath.SplitList(c)...)
	}
	if cfg.ProcessID > 0 {
		classPath = append(classPath, processClassPath(ctx, cfg.ProcessID)...)
	}
	if wd, err := os.Getwd(); err == nil {
		classPath = append(classPath, conventionalClassDirs(wd)...)
	}
	s.start(vm, roots, classPath)
	s.console(jdkBanner(ctx, vm, ""))
	go s.watchExit(nil)
	s.conn.Respond(req, nil)
	if cfg.ProcessID > 0 {
		s.conn.Event("process", map[string]any{"name": addr, "systemProcessId": cfg.ProcessID, "isLocalProcess": true, "startMethod": "attach"})
	}
	s.conn.Event("initialized", nil)
	return nil, errAnswered
}

// start wires a connected VM: thread events and the event goroutines.
// classPath are the directories and jars its classes come from.
func (s *Server) start(vm *Client, roots, classPath []string) {
	s.vm = vm
	s.live.Store(vm)
	s.classes = newClassCache(vm)
	s.classFiles = newClassIndex(classPath)
	s.sources = newSourceMapper(roots)
	s.threadSeen = newSeenThreads()
	s.stopQ = newQueue[*EventSet]()
	s.vmStarted = make(chan struct{})
	ctx := s.ctx
	s.watchThreads(ctx, vm)
	go s.pump(vm)
	go s.stopLoop()
}

func (s *Server) configurationDone(ctx context.Context, req *dap.Message) (any, error) {
	if s.vm == nil {
		return nil, errors.New("configurationDone before launch or attach")
	}
	if s.configDone {
		return nil, nil
	}
	s.configDone = true
	if s.attached {
		if s.entry {
			if err := s.vm.SuspendAll(ctx); err != nil {
				return nil, err
			}
			s.suspends++
			s.conn.Respond(req, nil)
			s.markStopped(ctx, s.anyThread(ctx), "entry", "Attached", "", nil)
			return nil, errAnswered
		}
		return nil, nil
	}
	s.bpMu.Lock()
	noEntryBP := s.bps.entry == nil
	s.bpMu.Unlock()
	if s.entry && noEntryBP {
		// Main class unknown: stay at VM start.
		s.suspends++
		s.conn.Respond(req, nil)
		s.markStopped(ctx, s.main(), "entry", "Paused at VM start", "", nil)
		return nil, errAnswered
	}
	return nil, s.vm.ResumeAll(ctx)
}

// watchExit emits "exited" (launch) and "terminated" once the VM is gone.
func (s *Server) watchExit(proc *dap.Process) {
	vm := s.vm
	if proc != nil {
		select {
		case <-proc.Exited():
		case <-vm.Done():
			select {
			case <-proc.Exited():
			case <-time.After(5 * time.Second):
				proc.Kill()
			}
		}
		code := 0
		var ee *exec.ExitError
		if err := proc.ExitErr(); errors.As(err, &ee) {
			code = ee.ExitCode()
		}
		s.conn.Event("exited", map[string]any{"exitCode": code})
	} else {
		<-vm.Done()
	}
	vm.Close()
	s.termOnce.Do(func() { s.conn.Event("terminated", map[string]any{}) })
}

type disconnectArgs struct {
	TerminateDebuggee *bool `json:"terminateDebuggee"`
}

func (s *Server) disconnect(ctx context.Context, req *dap.Message) error {
	var a disconnectArgs
	_ = dap.DecodeArgs(req, &a)
	terminate := !s.attached
	if a.TerminateDebuggee != nil {
		terminate = *a.TerminateDebuggee
	}
	s.endSession(ctx, terminate)
	return nil
}

func (s *Server) terminate(ctx context.Context) error {
	s.endSession(ctx, true)
	return nil
}

// endSession kills a launched JVM (or an attached one when terminate is
// set), or detaches and lets it run. Called with mu held.
func (s *Server) endSession(ctx context.Context, terminate bool) {
	if s.closed {
		return
	}
	s.closed = true
	if s.vm == nil {
		return
	}
	if s.proc != nil && terminate {
		s.proc.Kill()
	} else if terminate {
		_ = s.vm.Exit(ctx, 1)
	} else {
		_ = s.vm.Dispose(ctx)
	}
	s.vm.Close()
	if s.stopQ != nil {
		s.stopQ.Close()
	}
	if s.proc != nil {
		s.proc.Kill()
	}
	if s.cleanup != nil {
		s.cleanup()
		s.cleanup = nil
	}
}

// Close ends the session as a closed connection does: a launched JVM is
// killed, an attached one resumed. Safe to call more than once.
func (s *Server) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	s.endSession(ctx, !s.attached)
}

// dapThread returns the DAP id of a JDWP thread.
func (s *Server) dapThread(t uint64) int {
	s.tmu.Lock()
	defer s.tmu.Unlock()
	if id, ok := s.threadIDs[t]; ok {
		return id
	}
	s.nextThread++
	s.threadIDs[t] = s.nextThread
	s.threadObjs[s.nextThread] = t
	return s.nextThread
}

// jdwpThread maps a DAP thread id back (0 if unknown).
func (s *Server) jdwpThread(id int) uint64 {
	s.tmu.Lock()
	defer s.tmu.Unlock()
	return s.threadObjs[id]
}

func (s *Server) main() uint64 {
	s.tmu.Lock()
	defer s.tmu.Unlock()
	return s.mainThread
}

// anyThread returns the main thread, or the first thread named "main", or
// any thread.
func (s *Server) anyThread(ctx context.Context) uint64 {
	alive := func(t uint64) bool {
		st, _, err := s.vm.ThreadStatus(ctx, t)
		return err == nil && st != 0 // 0: zombie
	}
	if t := s.main(); t != 0 && alive(t) {
		return t
	}
	ts, err := s.vm.AllThreads(ctx)
	if err != nil || len(ts) == 0 {
		return 0
	}
	for _, t := range ts {
		if n, _ := s.vm.ThreadName(ctx, t); n == "main" && alive(t) {
			return t
		}
	}
	return ts[0]
}

// NewHandler is NewServer, named like the other built-in adapters'
// constructors.
func NewHandler() *Server { return NewServer() }
