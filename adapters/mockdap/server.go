// Package mockdap is dbg's built-in mock debug adapter: a real DAP server
// that runs programs of a tiny line-based language (see program.go). It is
// deterministic, needs nothing installed, and exercises everything the
// session manager does: breakpoints (conditions, hit counts, log points,
// functions, exceptions), stepping, stacks, scopes, variables, evaluate,
// setVariable, pause, output and exit.
package mockdap

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/adapters/bpcond"
	"github.com/dbg-dev/dbg/dap"
)

// Serve serves one client on rw until it disconnects or ctx ends.
func Serve(ctx context.Context, rw io.ReadWriteCloser, log *dap.TrafficLog) error {
	return dap.Serve(ctx, rw, NewHandler(), log)
}

// NewHandler returns a handler for one client connection.
func NewHandler() dap.Handler {
	a := &adapter{bps: map[int]*breakpoint{}, refs: map[int]any{}}
	a.router = a.routes()
	return a
}

type breakpoint struct {
	id        int
	line      int
	condition string
	hit       bpcond.Hit
	logMsg    string
	hits      int
}

// adapter is the state of one connection.
//
// Goroutines: requests arrive on the dap.Serve goroutine; one runner
// goroutine executes the program between stops. mu guards the fields
// below. While running is true the runner owns the machine and never
// holds mu across instructions; inspection requests take mu and refuse
// to run unless the program is stopped.
type adapter struct {
	router *dap.Router

	mu        sync.Mutex
	s         *dap.ServerConn
	prog      *program
	mach      *machine
	args      []string
	entry     bool
	attached  bool
	launched  bool
	bps       map[int]*breakpoint // by id
	bpLines   map[int][]int       // line -> ids
	funcBPs   map[string]bool
	excFilter map[string]bool
	nextBP    int
	watches   []*dataWatch // data breakpoints (watchpoints.go)
	running   bool
	pause     bool
	pauseWhy  string // LaunchConfig.PauseReason
	ended     bool
	refs      map[int]any // variablesReference -> scope or list, valid while stopped
	nextRef   int
	cancel    context.CancelFunc
	wg        sync.WaitGroup
}

type scopeRef struct {
	f      *frame
	global bool
}

// Handle implements dap.Handler.
func (a *adapter) Handle(ctx context.Context, s *dap.ServerConn, req *dap.Message) {
	a.mu.Lock()
	if a.s == nil {
		a.s = s
	}
	a.mu.Unlock()
	a.router.Handle(ctx, s, req)
}

// routes are the requests the mock answers.
func (a *adapter) routes() *dap.Router {
	r := dap.NewRouter("the mock adapter", 30*time.Second)
	dap.On(r, "initialize", func(context.Context, *godap.InitializeRequest) (*dap.InitializeResponse, error) {
		return &dap.InitializeResponse{Body: r.Capabilities(capabilities)}, nil
	})
	dap.On(r, "launch", func(ctx context.Context, req *launchRequest) (*godap.LaunchResponse, error) {
		return nil, a.launch(ctx, req, "launch")
	})
	dap.On(r, "attach", func(ctx context.Context, req *launchRequest) (*godap.AttachResponse, error) {
		return nil, a.launch(ctx, req, "attach")
	})
	dap.On(r, "setBreakpoints", a.setBreakpoints)
	dap.On(r, "setFunctionBreakpoints", a.setFunctionBreakpoints)
	dap.On(r, "dataBreakpointInfo", a.dataBreakpointInfo)
	dap.On(r, "setDataBreakpoints", a.setDataBreakpoints)
	dap.On(r, "setExceptionBreakpoints", a.setExceptionBreakpoints)
	dap.On(r, "configurationDone", a.configurationDone)
	dap.On(r, "threads", func(context.Context, *godap.ThreadsRequest) (*godap.ThreadsResponse, error) {
		return &godap.ThreadsResponse{Body: godap.ThreadsResponseBody{Threads: []godap.Thread{{Id: 1, Name: "main"}}}}, nil
	})
	dap.On(r, "stackTrace", a.stackTrace)
	dap.On(r, "scopes", a.scopes)
	dap.On(r, "variables", a.variables)
	dap.On(r, "evaluate", a.evaluate)
	dap.On(r, "setVariable", a.setVariable)
	dap.On(r, "continue", func(ctx context.Context, _ *godap.ContinueRequest) (*godap.ContinueResponse, error) {
		return &godap.ContinueResponse{Body: godap.ContinueResponseBody{AllThreadsContinued: true}}, a.step(ctx, runContinue)
	})
	dap.OnSteps(r, func(ctx context.Context, command string, _ int) error {
		return a.step(ctx, map[string]stepMode{"next": runNext, "stepIn": runStepIn, "stepOut": runStepOut}[command])
	})
	dap.On(r, "pause", func(context.Context, *godap.PauseRequest) (*godap.PauseResponse, error) {
		a.mu.Lock()
		a.pause = true
		a.mu.Unlock()
		return nil, nil
	})
	dap.On(r, "exceptionInfo", a.exceptionInfo)
	dap.On(r, "source", a.source)
	dap.On(r, "restartFrame", a.restartFrame)
	dap.On(r, "disconnect", func(context.Context, *godap.DisconnectRequest) (*godap.DisconnectResponse, error) {
		a.shutdown()
		return nil, nil
	})
	dap.On(r, "terminate", func(ctx context.Context, _ *godap.TerminateRequest) (*godap.TerminateResponse, error) {
		a.shutdown()
		dap.AfterResponse(ctx, func() { a.conn().Event("terminated", godap.TerminatedEventBody{}) })
		return nil, nil
	})
	return r
}

// capabilities are what the mock declares; the router adds those of the
// requests it routes.
var capabilities = dap.Capabilities{Capabilities: godap.Capabilities{
	SupportsConditionalBreakpoints:    true,
	SupportsHitConditionalBreakpoints: true,
	SupportsLogPoints:                 true,
	SupportsEvaluateForHovers:         true,
	ExceptionBreakpointFilters: []godap.ExceptionBreakpointsFilter{
		{Filter: "uncaught", Label: "Uncaught exceptions", Default: true},
		{Filter: "all", Label: "All exceptions"},
	},
}}

// LaunchConfig are the arguments of launch and attach.
type LaunchConfig struct {
	// Program is the path of the .mock file to run.
	Program string   `json:"program"`
	Args    []string `json:"args"`
	// StopOnEntry stops a launched program before its first line.
	StopOnEntry bool `json:"stopOnEntry"`
	// RunInTerminal asks the client to start this command
	// (runInTerminal reverse request) and prints its pid.
	RunInTerminal []string `json:"runInTerminal"`
	// ChildSession asks the client to open a child session on the
	// same program, stopped on entry (startDebugging reverse request).
	ChildSession bool `json:"childSession"`
	// PauseReason is the reason a pause's stop gives, when not "pause"
	// (lldb gives that of its own plan stepping the thread: "step").
	PauseReason string `json:"pauseReason"`
}

type launchRequest struct {
	godap.Request
	Arguments LaunchConfig `json:"arguments"`
}

// launch loads the program; method is "launch" or "attach".
func (a *adapter) launch(ctx context.Context, req *launchRequest, method string) error {
	args := req.Arguments
	if args.Program == "" {
		return errors.New("program is required: the path of a .mock file")
	}
	abs, _ := filepath.Abs(args.Program)
	p, err := loadProgram(abs)
	if err != nil {
		return errors.New("cannot load program: " + err.Error())
	}
	a.mu.Lock()
	a.prog, a.args, a.entry, a.attached = p, args.Args, args.StopOnEntry, method == "attach"
	a.pauseWhy = args.PauseReason
	a.mach = newMachine(p, args.Args, a.emitOutput)
	a.launched = true
	s := a.s
	a.mu.Unlock()
	dap.AfterResponse(ctx, func() {
		s.Event("initialized", nil)
		s.Event("process", godap.ProcessEventBody{Name: abs, StartMethod: method, IsLocalProcess: true})
		s.Event("thread", godap.ThreadEventBody{Reason: "started", ThreadId: 1})
		if len(args.RunInTerminal) > 0 || args.ChildSession {
			go a.reverseRequests(s, abs, args.RunInTerminal, args.ChildSession)
		}
	})
	return nil
}

func (a *adapter) setExceptionBreakpoints(_ context.Context, req *godap.SetExceptionBreakpointsRequest) (*godap.SetExceptionBreakpointsResponse, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.excFilter = map[string]bool{}
	for _, f := range req.Arguments.Filters {
		a.excFilter[f] = true
	}
	return nil, nil
}

func (a *adapter) configurationDone(ctx context.Context, _ *godap.ConfigurationDoneRequest) (*godap.ConfigurationDoneResponse, error) {
	a.mu.Lock()
	entry := a.entry && !a.attached
	a.mu.Unlock()
	dap.AfterResponse(ctx, func() {
		if entry {
			a.stopped("entry", "", "", nil)
		} else {
			a.resume(runContinue)
		}
	})
	return nil, nil
}

// step resumes the stopped program in mode once the request is answered.
func (a *adapter) step(ctx context.Context, mode stepMode) error {
	if err := a.requireStopped(); err != nil {
		return err
	}
	dap.AfterResponse(ctx, func() { a.resume(mode) })
	return nil
}

func (a *adapter) exceptionInfo(context.Context, *godap.ExceptionInfoRequest) (*godap.ExceptionInfoResponse, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	text := ""
	if a.mach != nil {
		text = a.mach.thrown
	}
	return &godap.ExceptionInfoResponse{Body: godap.ExceptionInfoResponseBody{ExceptionId: "MockError", Description: text, BreakMode: "unhandled"}}, nil
}

func (a *adapter) source(context.Context, *godap.SourceRequest) (*godap.SourceResponse, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	content := ""
	if a.prog != nil {
		content = strings.Join(a.prog.lines, "\n")
	}
	return &godap.SourceResponse{Body: godap.SourceResponseBody{Content: content}}, nil
}

// reverseRequests exercises the client's reverse requests.
func (a *adapter) reverseRequests(s *dap.ServerConn, program string, command []string, child bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if len(command) > 0 {
		resp, err := s.Request(ctx, "runInTerminal", godap.RunInTerminalRequestArguments{Kind: "integrated", Title: "mock", Args: command})
		var body godap.RunInTerminalResponseBody
		if err == nil {
			_ = resp.DecodeBody(&body)
			a.emitOutput("console", fmt.Sprintf("runInTerminal started process %d\n", body.ProcessId))
		} else {
			a.emitOutput("stderr", "runInTerminal failed: "+err.Error()+"\n")
		}
	}
	if child {
		cfg := map[string]any{"program": program, "stopOnEntry": true, "name": "child of " + filepath.Base(program)}
		if _, err := s.Request(ctx, "startDebugging", godap.StartDebuggingRequestArguments{Request: "launch", Configuration: cfg}); err != nil {
			a.emitOutput("stderr", "startDebugging failed: "+err.Error()+"\n")
		}
	}
}

func (a *adapter) emitOutput(category, text string) {
	if s := a.conn(); s != nil {
		s.Event("output", godap.OutputEventBody{Category: category, Output: text})
	}
}

func (a *adapter) conn() *dap.ServerConn {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.s
}

func (a *adapter) setBreakpoints(_ context.Context, req *godap.SetBreakpointsRequest) (*godap.SetBreakpointsResponse, error) {
	args := &req.Arguments
	a.mu.Lock()
	defer a.mu.Unlock()
	// The mock debugs one program; breakpoints of other files never verify.
	var lines map[int]bool
	same := a.prog != nil && samePath(args.Source.Path, a.prog.path)
	if same {
		lines = a.prog.codeLines()
	} else if a.prog == nil {
		if p, err := loadProgram(args.Source.Path); err == nil {
			lines = p.codeLines()
			same = true
		}
	}
	if a.bpLines == nil {
		a.bpLines = map[int][]int{}
	}
	for line, ids := range a.bpLines {
		for _, id := range ids {
			delete(a.bps, id)
		}
		delete(a.bpLines, line)
	}
	out := make([]godap.Breakpoint, 0, len(args.Breakpoints))
	for _, sb := range args.Breakpoints {
		a.nextBP++
		bp := godap.Breakpoint{Id: a.nextBP, Line: sb.Line, Source: &godap.Source{Path: args.Source.Path}}
		line := sb.Line
		if same && !lines[line] {
			// Move to the next line with code, like real adapters do.
			moved := 0
			for l := line + 1; l <= line+20; l++ {
				if lines[l] {
					moved = l
					break
				}
			}
			line = moved
		}
		hit, hitErr := bpcond.ParseHit(sb.HitCondition)
		if !same || line == 0 {
			bp.Verified = false
			bp.Message = fmt.Sprintf("no code at line %d", sb.Line)
			if !same {
				bp.Message = "not part of the program being debugged"
			}
		} else if hitErr != nil {
			bp.Verified, bp.Message = false, hitErr.Error()
		} else {
			bp.Verified = true
			bp.Line = line
			a.bps[bp.Id] = &breakpoint{id: bp.Id, line: line, condition: sb.Condition, hit: hit, logMsg: sb.LogMessage}
			a.bpLines[line] = append(a.bpLines[line], bp.Id)
		}
		out = append(out, bp)
	}
	return &godap.SetBreakpointsResponse{Body: godap.SetBreakpointsResponseBody{Breakpoints: out}}, nil
}

func samePath(a, b string) bool {
	ca, _ := filepath.Abs(a)
	cb, _ := filepath.Abs(b)
	return filepath.Clean(ca) == filepath.Clean(cb)
}

func (a *adapter) setFunctionBreakpoints(_ context.Context, req *godap.SetFunctionBreakpointsRequest) (*godap.SetFunctionBreakpointsResponse, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.funcBPs = map[string]bool{}
	out := make([]godap.Breakpoint, 0, len(req.Arguments.Breakpoints))
	for _, fb := range req.Arguments.Breakpoints {
		a.nextBP++
		bp := godap.Breakpoint{Id: a.nextBP}
		if a.prog != nil {
			if fn, ok := a.prog.funcs[fb.Name]; ok {
				bp.Verified, bp.Line = true, fn.line
				a.funcBPs[fb.Name] = true
			} else {
				bp.Message = "no function " + fb.Name
			}
		}
		out = append(out, bp)
	}
	return &godap.SetFunctionBreakpointsResponse{Body: godap.SetFunctionBreakpointsResponseBody{Breakpoints: out}}, nil
}

func (a *adapter) requireStopped() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case a.mach == nil || a.ended:
		return errors.New("the program is not running")
	case a.running:
		return errors.New("the program is running; pause it first")
	}
	return nil
}

// resume starts the runner. The runner owns the machine until it stops.
func (a *adapter) resume(mode stepMode) {
	a.mu.Lock()
	if a.mach == nil || a.running || a.ended {
		a.mu.Unlock()
		return
	}
	a.running, a.pause = true, false
	a.refs, a.nextRef = map[int]any{}, 0
	ctx, cancel := context.WithCancel(context.Background())
	a.cancel = cancel
	mach := a.mach
	h := hooks{
		breakAt:   a.breakAt,
		breakFunc: func(name string) bool { a.mu.Lock(); defer a.mu.Unlock(); return a.funcBPs[name] },
		breakExc: func(uncaught bool) bool {
			a.mu.Lock()
			defer a.mu.Unlock()
			return a.excFilter["all"] || uncaught && a.excFilter["uncaught"]
		},
		paused:     func() bool { a.mu.Lock(); defer a.mu.Unlock(); return a.pause },
		breakWrite: a.breakWrite,
	}
	a.wg.Add(1)
	a.mu.Unlock()
	a.conn().Event("continued", godap.ContinuedEventBody{ThreadId: 1, AllThreadsContinued: true})
	go func() {
		defer a.wg.Done()
		ev := mach.run(ctx, mode, h)
		a.mu.Lock()
		a.running = false
		if ev.reason == "pause" && a.pauseWhy != "" {
			ev.reason = a.pauseWhy
		}
		a.mu.Unlock()
		if ev.done {
			a.finish(ev.exitCode)
			return
		}
		if ev.data != nil {
			a.stoppedData(ev)
			return
		}
		a.stopped(ev.reason, ev.description, ev.text, ev.bpIDs)
	}()
}

// breakAt decides whether a breakpoint on line stops, counting hits and
// printing log points.
func (a *adapter) breakAt(line int, vars lookup) (bool, []int) {
	a.mu.Lock()
	ids := append([]int(nil), a.bpLines[line]...)
	a.mu.Unlock()
	var hit []int
	for _, id := range ids {
		a.mu.Lock()
		bp := a.bps[id]
		a.mu.Unlock()
		if bp == nil {
			continue
		}
		if bp.condition != "" {
			v, err := evalExpr(bp.condition, vars)
			if err != nil || !truthy(v) {
				continue
			}
		}
		bp.hits++
		if !bp.hit.Match(bp.hits) {
			continue
		}
		if bp.logMsg != "" {
			a.emitOutput("console", interpolate(bp.logMsg, vars)+"\n")
			continue
		}
		hit = append(hit, id)
	}
	return len(hit) > 0, hit
}

func (a *adapter) stopped(reason, description, text string, ids []int) {
	a.conn().Event("stopped", godap.StoppedEventBody{Reason: reason, ThreadId: 1, AllThreadsStopped: true,
		Description: description, Text: text, HitBreakpointIds: ids})
}

func (a *adapter) finish(code int) {
	a.mu.Lock()
	if a.ended {
		a.mu.Unlock()
		return
	}
	a.ended = true
	a.mu.Unlock()
	s := a.conn()
	s.Event("thread", godap.ThreadEventBody{Reason: "exited", ThreadId: 1})
	s.Event("exited", godap.ExitedEventBody{ExitCode: code})
	s.Event("terminated", godap.TerminatedEventBody{})
}

func (a *adapter) shutdown() {
	a.mu.Lock()
	a.ended = true
	cancel := a.cancel
	a.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	a.wg.Wait()
}

// whileStopped runs f with the machine while the program is stopped.
func (a *adapter) whileStopped(f func(m *machine) error) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.mach == nil || a.running || a.ended || len(a.mach.frames) == 0 {
		return errors.New("the program is not stopped")
	}
	return f(a.mach)
}

func (a *adapter) stackTrace(context.Context, *godap.StackTraceRequest) (*godap.StackTraceResponse, error) {
	resp := &godap.StackTraceResponse{}
	return resp, a.whileStopped(func(m *machine) error {
		var frames []godap.StackFrame
		for _, f := range m.stack() {
			frames = append(frames, godap.StackFrame{Id: f.id, Name: f.name(), Line: m.lineOf(f), Column: 1,
				Source: &godap.Source{Name: filepath.Base(m.prog.path), Path: m.prog.path}})
		}
		resp.Body = godap.StackTraceResponseBody{StackFrames: frames, TotalFrames: len(frames)}
		return nil
	})
}

func (a *adapter) ref(v any) int {
	a.nextRef++
	a.refs[a.nextRef] = v
	return a.nextRef
}

func (a *adapter) scopes(_ context.Context, req *godap.ScopesRequest) (*godap.ScopesResponse, error) {
	resp := &godap.ScopesResponse{}
	return resp, a.whileStopped(func(m *machine) error {
		f, err := m.frameByID(req.Arguments.FrameId)
		if err != nil {
			return err
		}
		scopes := []godap.Scope{{Name: "Locals", PresentationHint: "locals", VariablesReference: a.ref(scopeRef{f: f}), NamedVariables: len(f.locals)}}
		if f != m.frames[0] {
			scopes = append(scopes, godap.Scope{Name: "Globals", VariablesReference: a.ref(scopeRef{f: m.frames[0], global: true}), NamedVariables: len(m.frames[0].locals), Expensive: false})
		}
		resp.Body.Scopes = scopes
		return nil
	})
}

func (a *adapter) variable(name string, v value) godap.Variable {
	out := godap.Variable{Name: name, Value: formatValue(v), Type: typeName(v), EvaluateName: name}
	if l, ok := v.([]value); ok && len(l) > 0 {
		out.VariablesReference = a.ref(l)
		out.IndexedVariables = len(l)
	}
	return out
}

func (a *adapter) variables(_ context.Context, req *godap.VariablesRequest) (*godap.VariablesResponse, error) {
	args := &req.Arguments
	resp := &godap.VariablesResponse{}
	return resp, a.whileStopped(func(m *machine) error {
		vars := []godap.Variable{}
		switch x := a.refs[args.VariablesReference].(type) {
		case scopeRef:
			for _, n := range x.f.localNames() {
				vars = append(vars, a.variable(n, x.f.locals[n]))
			}
		case []value:
			start, count := args.Start, args.Count
			if count <= 0 || start+count > len(x) {
				count = len(x) - start
			}
			for i := start; i < start+count && i >= 0; i++ {
				vars = append(vars, a.variable(fmt.Sprintf("[%d]", i), x[i]))
			}
		default:
			return fmt.Errorf("unknown variablesReference %d", args.VariablesReference)
		}
		resp.Body.Variables = vars
		return nil
	})
}

func (a *adapter) evaluate(ctx context.Context, req *godap.EvaluateRequest) (*godap.EvaluateResponse, error) {
	args := &req.Arguments
	resp := &godap.EvaluateResponse{}
	return resp, a.whileStopped(func(m *machine) error {
		f := m.top()
		if args.FrameId != 0 {
			var err error
			if f, err = m.frameByID(args.FrameId); err != nil {
				return err
			}
		}
		v, err := evalExprCtx(ctx, args.Expression, m.lookupIn(f))
		if err != nil {
			return err
		}
		vv := a.variable(args.Expression, v)
		resp.Body = godap.EvaluateResponseBody{Result: vv.Value, Type: vv.Type, VariablesReference: vv.VariablesReference}
		return nil
	})
}

func (a *adapter) setVariable(_ context.Context, req *godap.SetVariableRequest) (*godap.SetVariableResponse, error) {
	args := &req.Arguments
	resp := &godap.SetVariableResponse{}
	return resp, a.whileStopped(func(m *machine) error {
		sc, ok := a.refs[args.VariablesReference].(scopeRef)
		if !ok {
			return fmt.Errorf("variablesReference %d is not a scope", args.VariablesReference)
		}
		if _, ok := sc.f.locals[args.Name]; !ok {
			return fmt.Errorf("no variable %q in this scope", args.Name)
		}
		v, err := evalExpr(args.Value, m.lookupIn(sc.f))
		if err != nil {
			return err
		}
		sc.f.locals[args.Name] = v
		resp.Body = godap.SetVariableResponseBody{Value: formatValue(v), Type: typeName(v)}
		return nil
	})
}
