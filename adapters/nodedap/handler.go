package nodedap

import (
	"context"
	"errors"
	"sync"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/dap"
)

// threadID is the one JavaScript thread of a node process.
const threadID = 1

// Handler is the DAP side of the built-in Node adapter: one Handler serves
// one client and debugs one node process. Each worker thread of that
// process gets a Handler of its own, created and fed by the main one: it
// answers the requests routed to its thread and sends its events on the
// same connection.
//
// Goroutines: dap.Serve calls Handle on its read goroutine, one request at
// a time (worker handlers are called from there too). The CDP connection
// delivers inspector events on its event goroutine (onEvent), and the
// launched process's output arrives on its reader goroutines; forked
// children are looked for and announced (startDebugging) on goroutines of
// their own, which end when the handler closes. All share the
// state below under mu; no CDP call is made while mu is held. Close may be
// called from any goroutine.
type Handler struct {
	router *dap.Router
	srv    *dap.ServerConn // set by the first request
	stop   sync.Once       // runs shutdown when the connection ends

	mu          sync.Mutex
	cdp         cdpConn
	proc        *nodeProcess // nil when attached
	attachedPID int
	capture     string // "std" or "console"
	sourceMaps  bool
	stopOnEntry bool
	configured  bool
	disconnect  bool // the client asked to disconnect; no more events
	ended       bool // terminated was sent

	mainContext int           // execution context id of the program
	started     chan struct{} // closed at the first real pause, or when the program ends early
	startErr    error         // why the program ended before it started
	startDone   bool
	sawPause    bool // a Debugger.paused (other than instrumentation) has come

	scripts  map[string]*script // by scriptId
	bps      breakpoints
	pause    *pauseState // nil while running
	stepping bool
	pausing  bool
	frameSeq int
	refSeq   int
	refs     map[int]*varRef

	// workerExceptions: the exception filters apply in worker threads
	// only (launch's exceptionThreads "workers").
	workerExceptions bool

	exceptionFilter string
	workers         map[string]workerThread // by CDP session id
	skip            []string                // blackbox patterns
	thread          int                     // the DAP thread this handler debugs
	parent          *Handler                // the main thread's handler, for a worker or child
	closeOnExit     bool                    // a child process: let it exit when its program ends
	childSessions   bool                    // the client answers startDebugging (child sessions)
	noChildren      bool                    // the launch leaves the program's children undebugged
	skipGlobs       []string                // skipFiles as given, passed on to child sessions
	childWait       time.Duration           // how long a forked child may wait for its child session
	childURLs       map[string]bool         // inspectors of child processes already taken care of
	childPIDs       map[int]bool            // their pids, when known (and the program's own)
	onEnd           func()                  // a child process: report its end to the parent
	sourceRefs      []string                // sourceReference-1 -> scriptId
	guards          map[string]bool         // CDP ids of entry breakpoints (see guard)
	guarded         map[string]bool         // paths that have a guard
	nextThread      int
	resumed         chan struct{} // holds a token after the program resumed: watchChildren looks again soon
	closed          chan struct{}
	finished        chan struct{} // closed once the debuggee is gone and reported
}

// NewHandler returns a Handler with no program yet.
func NewHandler() *Handler {
	h := &Handler{
		scripts:   map[string]*script{},
		refs:      map[int]*varRef{},
		bps:       newBreakpoints(),
		started:   make(chan struct{}),
		resumed:   make(chan struct{}, 1),
		closed:    make(chan struct{}),
		finished:  make(chan struct{}),
		capture:   "std",
		workers:   map[string]workerThread{},
		thread:    threadID,
		childWait: defaultChildWait,
		guards:    map[string]bool{},
		guarded:   map[string]bool{},
	}
	h.router = h.routes()
	return h
}

// Handle serves one DAP request: the main thread's handler hands a
// request for a worker thread to that worker's handler.
func (h *Handler) Handle(ctx context.Context, s *dap.ServerConn, req *dap.Message) {
	h.mu.Lock()
	if h.srv == nil {
		h.srv = s
		go func() {
			<-ctx.Done()
			h.Close()
		}()
	}
	h.mu.Unlock()
	if w := h.route(req); w != nil {
		w.Handle(ctx, s, req)
		return
	}
	h.router.Handle(ctx, s, req)
}

// routes are the requests the adapter answers.
func (h *Handler) routes() *dap.Router {
	r := dap.NewRouter("the built-in Node adapter", 30*time.Second)
	dap.On(r, "initialize", func(_ context.Context, req *godap.InitializeRequest) (*dap.InitializeResponse, error) {
		h.mu.Lock()
		h.childSessions = req.Arguments.SupportsStartDebuggingRequest // the client answers startDebugging
		h.mu.Unlock()
		return &dap.InitializeResponse{Body: r.Capabilities(capabilities)}, nil
	})
	dap.On(r, "launch", func(ctx context.Context, req *launchRequest) (*godap.LaunchResponse, error) {
		return nil, h.initialized(ctx, h.launch(ctx, &req.Arguments))
	})
	dap.On(r, "attach", func(ctx context.Context, req *attachRequest) (*godap.AttachResponse, error) {
		return nil, h.initialized(ctx, h.attach(ctx, &req.Arguments))
	})
	dap.On(r, "setBreakpoints", h.setBreakpoints)
	dap.On(r, "setFunctionBreakpoints", h.setFunctionBreakpoints)
	dap.On(r, "setExceptionBreakpoints", h.setExceptionBreakpoints)
	dap.On(r, "configurationDone", h.configurationDone)
	dap.On(r, "threads", h.threads)
	dap.On(r, "stackTrace", h.stackTrace)
	dap.On(r, "scopes", h.scopes)
	dap.On(r, "variables", h.variables)
	dap.On(r, "evaluate", h.evaluate)
	dap.On(r, "setVariable", h.setVariable)
	dap.On(r, "continue", func(ctx context.Context, _ *godap.ContinueRequest) (*godap.ContinueResponse, error) {
		return &godap.ContinueResponse{Body: godap.ContinueResponseBody{AllThreadsContinued: true}}, h.resume(ctx, "Debugger.resume", false)
	})
	dap.OnSteps(r, func(ctx context.Context, command string, _ int) error {
		return h.resume(ctx, map[string]string{"next": "Debugger.stepOver", "stepIn": "Debugger.stepInto", "stepOut": "Debugger.stepOut"}[command], true)
	})
	dap.On(r, "pause", func(ctx context.Context, _ *godap.PauseRequest) (*godap.PauseResponse, error) {
		return nil, h.pauseReq(ctx)
	})
	dap.On(r, "exceptionInfo", h.exceptionInfo)
	dap.On(r, "disconnect", h.disconnectReq)
	dap.On(r, "terminate", h.terminate)
	dap.On(r, "source", h.source)
	dap.On(r, "restartFrame", h.restartFrame)
	dap.On(r, "hotReload", h.hotReload)
	return r
}

// initialized sends the initialized event once a launch or attach that
// did not fail (err) has been answered.
func (h *Handler) initialized(ctx context.Context, err error) error {
	if err == nil {
		dap.AfterResponse(ctx, func() { h.event("initialized", nil) })
	}
	return err
}

// capabilities are what the adapter declares; the router adds those of
// the requests it routes.
var capabilities = dap.Capabilities{
	Capabilities: godap.Capabilities{
		SupportsConditionalBreakpoints:    true,
		SupportsHitConditionalBreakpoints: true,
		SupportsLogPoints:                 true,
		SupportsEvaluateForHovers:         true,
		SupportTerminateDebuggee:          true,
		SupportsDelayedStackTraceLoading:  true,
		ExceptionBreakpointFilters: []godap.ExceptionBreakpointsFilter{
			{Filter: "all", Label: "Caught Exceptions"},
			{Filter: "uncaught", Label: "Uncaught Exceptions"},
		},
	},
	SupportsSafeEvaluate: true,
}

// event sends a DAP event unless the client has gone.
func (h *Handler) event(name string, body any) {
	h.mu.Lock()
	s, gone := h.srv, h.disconnect
	h.mu.Unlock()
	if s != nil && !gone {
		s.Event(name, body)
	}
}

func (h *Handler) output(category, text string) {
	h.event("output", godap.OutputEventBody{Category: category, Output: text})
}

// connect dials the inspector and prepares the Debugger and Runtime
// domains. skip are blackbox patterns.
func (h *Handler) connect(ctx context.Context, wsURL string, skip []string) error {
	c, err := Dial(ctx, wsURL, h.onEvent)
	if err != nil {
		return err
	}
	h.mu.Lock()
	h.cdp = c
	h.mu.Unlock()
	go h.watch(c)
	if err := c.Call(ctx, "Runtime.enable", nil, nil); err != nil {
		return err
	}
	if err := c.Call(ctx, "Debugger.enable", map[string]any{"maxScriptsCacheSize": 10e6}, nil); err != nil {
		return err
	}
	h.mu.Lock()
	h.skip = skip
	h.mu.Unlock()
	if len(skip) > 0 {
		if err := c.Call(ctx, "Debugger.setBlackboxPatterns", map[string]any{"patterns": skip}, nil); err != nil {
			return err
		}
	}
	// Workers show up as threads (node 12+; older nodes answer an error).
	// They wait for us at start, so that breakpoints are set before they run.
	_ = c.Call(ctx, "NodeWorker.enable", map[string]any{"waitForDebuggerOnStart": true}, nil)
	if h.sourceMaps {
		// Pause before any script with a source map runs, so breakpoints
		// in its sources are set first.
		_ = c.Call(ctx, "Debugger.setInstrumentationBreakpoint", map[string]any{"instrumentation": "beforeScriptWithSourceMapExecution"}, nil)
	}
	return nil
}

// watch reports the end of the debuggee when the inspector connection ends.
func (h *Handler) watch(c cdpConn) {
	<-c.EventsDone()
	h.finish()
}

// client returns the CDP client or an error when there is none.
func (h *Handler) client() (cdpConn, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cdp == nil {
		return nil, errors.New("not connected to a program: launch or attach first")
	}
	return h.cdp, nil
}

// idleKick makes an idle program run a little JavaScript, so that a pending
// pause lands in it (V8 pauses only when JavaScript runs).
const idleKick = "setTimeout(function dbgPause() {}, 0), undefined"
