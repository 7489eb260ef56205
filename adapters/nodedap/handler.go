package nodedap

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"syscall"
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

// finish reports the debuggee's end once: exited (with the exit code when
// we launched it) and terminated.
func (h *Handler) finish() {
	h.mu.Lock()
	if h.ended {
		h.mu.Unlock()
		return
	}
	h.ended = true
	if h.parent != nil {
		// A worker's or child's end is reported by the main handler
		// (thread exited).
		h.pause = nil
		onEnd := h.onEnd
		h.mu.Unlock()
		close(h.finished)
		if onEnd != nil {
			onEnd()
		}
		return
	}
	proc := h.proc
	h.pause = nil
	if !h.startDone {
		h.startDone = true
		if h.startErr == nil {
			h.startErr = errors.New("the program ended before it started")
		}
		close(h.started)
	}
	h.mu.Unlock()
	if proc != nil {
		t := time.NewTimer(5 * time.Second)
		select {
		case <-proc.proc.Exited():
		case <-t.C:
			proc.proc.Kill()
		}
		t.Stop()
		h.event("exited", map[string]any{"exitCode": exitCode(proc.proc)})
	}
	h.event("terminated", nil)
	close(h.finished)
}

// Close ends the session: a launched program is killed with its process
// group; an attached one is resumed, its breakpoints removed, and left
// running. It is safe to call more than once and waits for the cleanup.
func (h *Handler) Close() {
	h.stop.Do(func() {
		h.mu.Lock()
		h.disconnect = true
		h.mu.Unlock()
		h.silenceWorkers()
		h.shutdown(false)
		close(h.closed)
	})
	<-h.closed
}

// shutdown kills or releases the debuggee.
func (h *Handler) shutdown(terminate bool) {
	h.mu.Lock()
	c, proc, pid := h.cdp, h.proc, h.attachedPID
	h.mu.Unlock()
	if proc != nil {
		if c != nil {
			_ = c.Close()
		}
		proc.proc.Kill()
		return
	}
	if c == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if terminate {
		endAttached(ctx, c, pid)
	} else {
		// Debugger.disable removes our breakpoints and resumes the program.
		_ = c.Call(ctx, "Debugger.setPauseOnExceptions", map[string]any{"state": "none"}, nil)
		_ = c.Call(ctx, "Debugger.disable", nil, nil)
		_ = c.Call(ctx, "Runtime.runIfWaitingForDebugger", nil, nil)
	}
	_ = c.Close()
}

type disconnectArgs struct {
	TerminateDebuggee *bool `json:"terminateDebuggee"`
}

func (h *Handler) disconnectReq(ctx context.Context, req *dap.Message) error {
	var a disconnectArgs
	if err := dap.DecodeArgs(req, &a); err != nil {
		return err
	}
	h.mu.Lock()
	launched := h.proc != nil
	h.mu.Unlock()
	terminate := launched
	if a.TerminateDebuggee != nil {
		terminate = *a.TerminateDebuggee
	}
	h.stop.Do(func() {
		h.mu.Lock()
		h.disconnect = true
		h.mu.Unlock()
		h.silenceWorkers()
		if !launched || terminate {
			h.shutdown(terminate)
		} else {
			// A launched program the client wants left running: resume it
			// and let it go.
			h.shutdownKeep()
		}
		close(h.closed)
	})
	return nil
}

// shutdownKeep detaches from a launched program without killing it.
func (h *Handler) shutdownKeep() {
	h.mu.Lock()
	c := h.cdp
	h.proc = nil
	h.mu.Unlock()
	if c == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	// Nobody will attach to the children it forks from now on.
	_ = c.Call(ctx, "Runtime.evaluate", map[string]any{"expression": noWaitExpr, "silent": true}, nil)
	_ = c.Call(ctx, "Debugger.disable", nil, nil)
	_ = c.Close()
}

func (h *Handler) terminate(ctx context.Context) error {
	h.mu.Lock()
	c, proc := h.cdp, h.proc
	h.mu.Unlock()
	if proc != nil {
		go func() {
			if c != nil {
				_ = c.Close()
			}
			proc.proc.Kill()
		}()
		return nil
	}
	if c == nil {
		return errors.New("not connected to a program")
	}
	h.mu.Lock()
	pid := h.attachedPID
	h.mu.Unlock()
	endAttached(ctx, c, pid)
	return nil
}

// endAttached ends a program we attached to: SIGTERM when its pid is
// known, else process.exit() evaluated in it (which a program busy in a
// loop runs only once it pauses).
func endAttached(ctx context.Context, c cdpConn, pid int) {
	if pid > 0 && syscall.Kill(pid, syscall.SIGTERM) == nil {
		return
	}
	_ = c.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "process.exit(0)"}, nil)
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

func (h *Handler) configurationDone(ctx context.Context) error {
	c, err := h.client()
	if err != nil {
		return err
	}
	h.mu.Lock()
	h.configured = true
	p := h.pause
	entry := p != nil && p.entry
	stopOnEntry := h.stopOnEntry
	var hit []int
	if entry && len(p.frames) > 0 {
		hit = h.bps.at(p.frames[0].Location)
	}
	h.mu.Unlock()
	if !entry {
		return nil
	}
	switch {
	case len(hit) > 0:
		h.mu.Lock()
		p.entry = false
		h.mu.Unlock()
		h.event("stopped", map[string]any{"reason": "breakpoint", "threadId": h.thread, "allThreadsStopped": true, "hitBreakpointIds": hit})
	case stopOnEntry:
		h.mu.Lock()
		p.entry = false
		h.mu.Unlock()
		h.event("stopped", map[string]any{"reason": "entry", "threadId": h.thread, "allThreadsStopped": true})
	default:
		return h.run(ctx, c, "Debugger.resume")
	}
	return nil
}

// run sends a command that resumes the program. The pause is forgotten
// before the command goes out, so that no request sees a stale one and a
// new pause arriving meanwhile is kept.
func (h *Handler) run(ctx context.Context, c cdpConn, method string) error {
	h.mu.Lock()
	old := h.pause
	h.pause = nil
	h.refs = map[int]*varRef{}
	h.mu.Unlock()
	err := c.Call(ctx, method, nil, nil)
	if errors.Is(err, ErrClientClosed) {
		// The program ran to its end before the answer came back; its
		// end is reported by the exited and terminated events.
		return nil
	}
	if err != nil {
		h.mu.Lock()
		if h.pause == nil {
			h.pause = old
		}
		h.mu.Unlock()
	}
	return err
}

func (h *Handler) resume(ctx context.Context, method string, step bool) error {
	c, err := h.client()
	if err != nil {
		return err
	}
	h.mu.Lock()
	paused := h.pause != nil
	h.stepping = step
	h.mu.Unlock()
	if !paused {
		return errors.New("the program is not paused")
	}
	return h.run(ctx, c, method)
}

func (h *Handler) pauseReq(ctx context.Context) error {
	c, err := h.client()
	if err != nil {
		return err
	}
	h.mu.Lock()
	h.pausing = true
	h.mu.Unlock()
	if err := c.Call(ctx, "Debugger.pause", nil, nil); err != nil {
		return err
	}
	go h.repeatPause(c)
	return nil
}

// idleKick makes an idle program run a little JavaScript, so that a pending
// pause lands in it (V8 pauses only when JavaScript runs).
const idleKick = "setTimeout(function dbgPause() {}, 0), undefined"

// repeatPause asks again a few times while no pause has come: node drops
// a pause request that reaches it while it is still leaving the previous
// pause. Repeating is harmless; V8 keeps one pending pause. A program still
// not paused after the first wait is idle, and gets a timer to pause in.
func (h *Handler) repeatPause(c cdpConn) {
	for i := 0; i < 10; i++ {
		select {
		case <-time.After(100 * time.Millisecond):
		case <-c.Done():
			return
		case <-h.closed:
			return
		}
		h.mu.Lock()
		waiting := h.pausing && h.pause == nil
		h.mu.Unlock()
		if !waiting {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_ = c.Call(ctx, "Debugger.pause", nil, nil)
		if i == 0 {
			// disableBreaks: the pause must land in the timer, not in
			// this evaluation (node runs it at once, even mid-loop).
			_ = c.Call(ctx, "Runtime.evaluate", map[string]any{"expression": idleKick, "disableBreaks": true, "silent": true}, nil)
		}
		cancel()
	}
}

// onEvent handles one inspector event (on the CDP event goroutine).
func (h *Handler) onEvent(m *Message) {
	switch m.Method {
	case "Debugger.scriptParsed":
		var sp scriptParsed
		if json.Unmarshal(m.Params, &sp) == nil {
			h.addScript(sp)
		}
	case "Debugger.paused":
		var ev pausedEvent
		if json.Unmarshal(m.Params, &ev) == nil {
			h.onPaused(&ev)
		}
	case "Debugger.resumed":
		h.mu.Lock()
		h.pause = nil
		h.refs = map[int]*varRef{}
		h.mu.Unlock()
	case "Debugger.breakpointResolved":
		var ev struct {
			BreakpointID string   `json:"breakpointId"`
			Location     location `json:"location"`
		}
		if json.Unmarshal(m.Params, &ev) == nil {
			h.onBreakpointResolved(ev.BreakpointID, ev.Location)
		}
	case "Runtime.executionContextCreated":
		var ev struct {
			Context struct {
				ID      int `json:"id"`
				AuxData struct {
					IsDefault bool `json:"isDefault"`
				} `json:"auxData"`
			} `json:"context"`
		}
		if json.Unmarshal(m.Params, &ev) == nil && ev.Context.AuxData.IsDefault {
			h.mu.Lock()
			if h.mainContext == 0 {
				h.mainContext = ev.Context.ID
			}
			h.mu.Unlock()
		}
	case "Runtime.executionContextDestroyed":
		var ev struct {
			ExecutionContextID int `json:"executionContextId"`
		}
		if json.Unmarshal(m.Params, &ev) == nil {
			h.mu.Lock()
			main := ev.ExecutionContextID == h.mainContext
			c, launched := h.cdp, h.proc != nil || h.closeOnExit
			h.mu.Unlock()
			// The program has finished; node waits for us to let go.
			if main && launched && c != nil {
				go c.Close()
			}
		}
	case "Runtime.exceptionThrown":
		var ev struct {
			ExceptionDetails exceptionDetails `json:"exceptionDetails"`
		}
		if json.Unmarshal(m.Params, &ev) == nil {
			h.onException(&ev.ExceptionDetails)
		}
	case "NodeWorker.attachedToWorker", "NodeWorker.detachedFromWorker":
		h.onWorker(m)
	case "NodeWorker.receivedMessageFromWorker":
		h.onWorkerMessage(m)
	case "Runtime.consoleAPICalled":
		h.mu.Lock()
		capture := h.capture
		h.mu.Unlock()
		if capture != "console" {
			return
		}
		var ev consoleAPICalled
		if json.Unmarshal(m.Params, &ev) == nil {
			h.onConsole(&ev)
		}
	}
}

// onException handles an exception that nobody caught. Before the program
// started (a syntax error) it becomes the launch error.
func (h *Handler) onException(d *exceptionDetails) {
	text := d.message()
	h.mu.Lock()
	early := !h.startDone
	if early {
		h.startDone = true
		h.startErr = errors.New(text)
		close(h.started)
	}
	capture := h.capture
	h.mu.Unlock()
	if !early && capture == "console" {
		h.output("stderr", "Uncaught "+text+"\n")
	}
}

func (h *Handler) onConsole(ev *consoleAPICalled) {
	parts := make([]string, 0, len(ev.Args))
	for i := range ev.Args {
		a := &ev.Args[i]
		if a.Type == "string" {
			var s string
			if json.Unmarshal(a.Value, &s) == nil {
				parts = append(parts, s)
				continue
			}
		}
		parts = append(parts, formatValue(a))
	}
	cat := "stdout"
	switch ev.Type {
	case "error", "warning", "trace", "assert":
		cat = "stderr"
	}
	h.output(cat, strings.Join(parts, " ")+"\n")
}

// silenceWorkers stops the workers' handlers from sending events.
func (h *Handler) silenceWorkers() {
	for _, w := range h.workerHandlers() {
		w.mu.Lock()
		w.disconnect = true
		w.mu.Unlock()
	}
}
