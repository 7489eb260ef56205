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

	godap "github.com/google/go-dap"

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
	router *dap.Router
	conn   *dap.ServerConn
	ctx    context.Context // the connection's context
	once   sync.Once

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
	s := &Server{refs: newRefTable(), frameIDs: map[frameKey]cachedFrame{}, exceptions: map[uint64]*exceptionStop{}, justMyCode: true,
		threadIDs: map[uint64]int{}, threadObjs: map[int]uint64{}, bps: newBreakpoints()}
	s.router = s.routes()
	return s
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
	s.router.Handle(ctx, c, req)
}

// routes are the requests the adapter answers; each runs with mu held.
func (s *Server) routes() *dap.Router {
	r := dap.NewRouter("the built-in Java adapter", 60*time.Second)
	dap.On(r, "initialize", func(context.Context, *godap.InitializeRequest) (*dap.InitializeResponse, error) {
		return &dap.InitializeResponse{Body: r.Capabilities(capabilities)}, nil
	})
	dap.On(r, "launch", s.launch)
	dap.On(r, "attach", s.attach)
	dap.On(r, "configurationDone", s.configurationDone)
	dap.On(r, "setBreakpoints", s.setBreakpoints)
	dap.On(r, "setFunctionBreakpoints", s.setFunctionBreakpoints)
	dap.On(r, "setExceptionBreakpoints", s.setExceptionBreakpoints)
	dap.On(r, "dataBreakpointInfo", s.dataBreakpointInfo)
	dap.On(r, "setDataBreakpoints", s.setDataBreakpoints)
	dap.On(r, "threads", s.threads)
	dap.On(r, "stackTrace", s.stackTrace)
	dap.On(r, "scopes", s.scopes)
	dap.On(r, "variables", s.variables)
	dap.On(r, "evaluate", s.evaluate)
	dap.On(r, "setVariable", s.setVariable)
	dap.On(r, "continue", s.resume)
	dap.OnSteps(r, func(ctx context.Context, command string, thread int) error {
		return s.stepRequest(ctx, thread, map[string]int32{"next": StepOver, "stepIn": StepInto, "stepOut": StepOut}[command])
	})
	dap.On(r, "pause", s.pause)
	dap.On(r, "exceptionInfo", s.exceptionInfo)
	dap.On(r, "source", s.source)
	dap.On(r, "loadedSources", func(context.Context, *godap.LoadedSourcesRequest) (*godap.LoadedSourcesResponse, error) {
		return &godap.LoadedSourcesResponse{Body: godap.LoadedSourcesResponseBody{Sources: []godap.Source{}}}, nil
	})
	dap.On(r, "restartFrame", s.restartFrame)
	dap.On(r, "hotReload", s.hotReload)
	dap.On(r, "disconnect", s.disconnect)
	dap.On(r, "terminate", func(ctx context.Context, _ *godap.TerminateRequest) (*godap.TerminateResponse, error) {
		s.endSession(ctx, true)
		return nil, nil
	})
	return r
}

// capabilities are what the adapter declares; the router adds those of
// the requests it routes.
var capabilities = dap.Capabilities{
	Capabilities: godap.Capabilities{
		SupportsConditionalBreakpoints:    true,
		SupportsHitConditionalBreakpoints: true,
		SupportsLogPoints:                 true,
		SupportsEvaluateForHovers:         true,
		SupportsExceptionFilterOptions:    true,
		SupportsDelayedStackTraceLoading:  true,
		SupportTerminateDebuggee:          true,
		ExceptionBreakpointFilters: []godap.ExceptionBreakpointsFilter{
			{Filter: "caught", Label: "Caught Exceptions", SupportsCondition: true, ConditionDescription: "exception class names, comma separated"},
			{Filter: "uncaught", Label: "Uncaught Exceptions", Default: true, SupportsCondition: true, ConditionDescription: "exception class names, comma separated"},
		},
	},
	SupportsSafeEvaluate: true,
}

func (s *Server) launch(ctx context.Context, req *launchRequest) (*godap.LaunchResponse, error) {
	if s.vm != nil {
		return nil, errors.New("already debugging a JVM")
	}
	cfg := req.Arguments
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
		s.conn.Event("output", godap.OutputEventBody{Category: stream, Output: line + "\n"})
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
	name := jc.mainClass
	if name == "" {
		name = cfg.Program
	}
	if name == "" {
		name = filepath.Base(jc.argv[0])
	}
	dap.AfterResponse(ctx, func() {
		s.conn.Event("process", godap.ProcessEventBody{Name: name, SystemProcessId: proc.Pid(), IsLocalProcess: true, StartMethod: "launch"})
		s.conn.Event("initialized", nil)
	})
	return nil, nil
}

func (s *Server) attach(ctx context.Context, req *attachRequest) (*godap.AttachResponse, error) {
	if s.vm != nil {
		return nil, errors.New("already debugging a JVM")
	}
	cfg := req.Arguments
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
	dap.AfterResponse(ctx, func() {
		if cfg.ProcessID > 0 {
			s.conn.Event("process", godap.ProcessEventBody{Name: addr, SystemProcessId: cfg.ProcessID, IsLocalProcess: true, StartMethod: "attach"})
		}
		s.conn.Event("initialized", nil)
	})
	return nil, nil
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

func (s *Server) configurationDone(ctx context.Context, _ *godap.ConfigurationDoneRequest) (*godap.ConfigurationDoneResponse, error) {
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
			dap.AfterResponse(ctx, func() { s.markStopped(ctx, s.anyThread(ctx), "entry", "Attached", "", nil) })
		}
		return nil, nil
	}
	s.bpMu.Lock()
	noEntryBP := s.bps.entry == nil
	s.bpMu.Unlock()
	if s.entry && noEntryBP {
		// Main class unknown: stay at VM start.
		s.suspends++
		dap.AfterResponse(ctx, func() { s.markStopped(ctx, s.main(), "entry", "Paused at VM start", "", nil) })
		return nil, nil
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
		s.conn.Event("exited", godap.ExitedEventBody{ExitCode: code})
	} else {
		<-vm.Done()
	}
	vm.Close()
	s.termOnce.Do(func() { s.conn.Event("terminated", godap.TerminatedEventBody{}) })
}

func (s *Server) disconnect(ctx context.Context, req *dap.DisconnectRequest) (*godap.DisconnectResponse, error) {
	s.endSession(ctx, req.Terminate(!s.attached))
	return nil, nil
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
