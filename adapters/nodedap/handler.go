package nodedap

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

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
	srv  *dap.ServerConn // set by the first request
	stop sync.Once       // runs shutdown when the connection ends

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
	skipGlobs       []string                // skipFiles as given, passed on to child sessions
	childWait       time.Duration           // how long a forked child may wait for its child session
	childURLs       map[string]bool         // inspectors of child processes already taken care of
	childPIDs       map[int]bool            // their pids, when known (and the program's own)
	onEnd           func()                  // a child process: report its end to the parent
	sourceRefs      []string                // sourceReference-1 -> scriptId
	guards          map[string]bool         // CDP ids of entry breakpoints (see guard)
	guarded         map[string]bool         // paths that have a guard
	nextThread      int
	closed          chan struct{}
	finished        chan struct{} // closed once the debuggee is gone and reported
}

// NewHandler returns a Handler with no program yet.
func NewHandler() *Handler {
	return &Handler{
		scripts:   map[string]*script{},
		refs:      map[int]*varRef{},
		bps:       newBreakpoints(),
		started:   make(chan struct{}),
		closed:    make(chan struct{}),
		finished:  make(chan struct{}),
		capture:   "std",
		workers:   map[string]workerThread{},
		thread:    threadID,
		childWait: defaultChildWait,
		guards:    map[string]bool{},
		guarded:   map[string]bool{},
	}
}

// Handle serves one DAP request.
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
	// Requests get their own deadline; the connection's ctx ends them early.
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var (
		body any
		err  error
	)
	switch req.Command {
	case "initialize":
		h.initialize(req)
		body = capabilities()
	case "launch":
		err = h.launch(rctx, req)
	case "attach":
		err = h.attach(rctx, req)
	case "setBreakpoints":
		body, err = h.setBreakpoints(rctx, req)
	case "setFunctionBreakpoints":
		body, err = h.setFunctionBreakpoints(rctx, req)
	case "setExceptionBreakpoints":
		body, err = h.setExceptionBreakpoints(rctx, req)
	case "configurationDone":
		err = h.configurationDone(rctx)
	case "threads":
		body = h.threads()
	case "stackTrace":
		body, err = h.stackTrace(req)
	case "scopes":
		body, err = h.scopes(req)
	case "variables":
		body, err = h.variables(rctx, req)
	case "evaluate":
		body, err = h.evaluate(rctx, req)
	case "setVariable":
		body, err = h.setVariable(rctx, req)
	case "continue":
		err = h.resume(rctx, "Debugger.resume", false)
		body = map[string]any{"allThreadsContinued": true}
	case "next":
		err = h.resume(rctx, "Debugger.stepOver", true)
	case "stepIn":
		err = h.resume(rctx, "Debugger.stepInto", true)
	case "stepOut":
		err = h.resume(rctx, "Debugger.stepOut", true)
	case "pause":
		err = h.pauseReq(rctx)
	case "exceptionInfo":
		body, err = h.exceptionInfo()
	case "disconnect":
		err = h.disconnectReq(rctx, req)
	case "terminate":
		err = h.terminate(rctx)
	case "source":
		body, err = h.source(rctx, req)
	case "restartFrame":
		err = h.restartFrame(rctx, req)
	case "hotReload":
		body, err = h.hotReload(rctx, req)
	default:
		err = fmt.Errorf("%s is not supported by the built-in Node adapter", req.Command)
	}
	if err != nil {
		s.RespondError(req, err.Error())
		return
	}
	s.Respond(req, body)
	if req.Command == "launch" || req.Command == "attach" {
		s.Event("initialized", nil)
	}
}

// initialize notes what the client can do.
func (h *Handler) initialize(req *dap.Message) {
	var a struct {
		SupportsStartDebuggingRequest bool `json:"supportsStartDebuggingRequest"`
	}
	_ = req.DecodeBody(&a)
	h.mu.Lock()
	h.childSessions = a.SupportsStartDebuggingRequest
	h.mu.Unlock()
}

func capabilities() map[string]any {
	return map[string]any{
		"supportsConfigurationDoneRequest":  true,
		"supportsConditionalBreakpoints":    true,
		"supportsHitConditionalBreakpoints": true,
		"supportsLogPoints":                 true,
		"supportsFunctionBreakpoints":       true,
		"supportsSetVariable":               true,
		"supportsEvaluateForHovers":         true,
		"supportsExceptionInfoRequest":      true,
		"supportsTerminateRequest":          true,
		"supportTerminateDebuggee":          true,
		"supportsDelayedStackTraceLoading":  true,
		"supportsRestartFrame":              true,
		"supportsHotReload":                 true, // dbg's own: the hotReload request
		"supportsSafeEvaluate":              true, // dbg's own: evaluate's sideEffects:false
		"exceptionBreakpointFilters": []map[string]any{
			{"filter": "all", "label": "Caught Exceptions", "default": false},
			{"filter": "uncaught", "label": "Uncaught Exceptions", "default": false},
		},
	}
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
	h.event("output", map[string]any{"category": category, "output": text})
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
