package nodedap

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/dap"
)

// idSpan separates the frame ids and variable references of threads: a
// worker thread t numbers its own from t*idSpan.
const idSpan = 1_000_000

// workerThread is a worker_threads Worker. Each is debugged by its own
// Handler over its own inspector session, relayed through the main one;
// the main Handler routes requests to it by thread id, frame id or
// variable reference, and copies breakpoints to it.
type workerThread struct {
	id   int
	name string
	h    *Handler
	conn *workerConn
}

// newWorkerHandler returns the Handler of worker thread id.
func (h *Handler) newWorkerHandler(id int) *Handler {
	w := NewHandler()
	h.mu.Lock()
	defer h.mu.Unlock()
	w.thread = id
	w.parent = h
	w.srv = h.srv
	w.capture = h.capture
	w.sourceMaps = h.sourceMaps
	w.exceptionFilter = h.exceptionFilter
	w.frameSeq = id * idSpan
	w.refSeq = id * idSpan
	w.startDone = true
	close(w.started)
	return w
}

// workerHandlers returns the handlers of the live workers.
func (h *Handler) workerHandlers() []*Handler {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []*Handler
	for _, w := range h.workers {
		out = append(out, w.h)
	}
	return out
}

// workerByThread returns the handler of a worker thread (nil for the main
// thread or an unknown id).
func (h *Handler) workerByThread(id int) *Handler {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, w := range h.workers {
		if w.id == id {
			return w.h
		}
	}
	return nil
}

// route returns the worker handler a request belongs to, or nil when the
// main handler serves it.
func (h *Handler) route(req *dap.Message) *Handler {
	if h.parent != nil {
		return nil
	}
	var a struct {
		ThreadID           int `json:"threadId"`
		FrameID            int `json:"frameId"`
		VariablesReference int `json:"variablesReference"`
	}
	if req.DecodeBody(&a) != nil {
		return nil
	}
	switch req.Command {
	case "stackTrace", "continue", "next", "stepIn", "stepOut", "pause", "exceptionInfo":
		if a.ThreadID != threadID {
			return h.workerByThread(a.ThreadID)
		}
	case "scopes", "evaluate":
		if a.FrameID >= idSpan {
			return h.workerByThread(a.FrameID / idSpan)
		}
	case "variables", "setVariable":
		if a.VariablesReference >= idSpan {
			return h.workerByThread(a.VariablesReference / idSpan)
		}
	}
	return nil
}

func (h *Handler) threads(context.Context, *godap.ThreadsRequest) (*godap.ThreadsResponse, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := []godap.Thread{{Id: threadID, Name: "main"}}
	var ws []workerThread
	for _, w := range h.workers {
		ws = append(ws, w)
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].id < ws[j].id })
	for _, w := range ws {
		out = append(out, godap.Thread{Id: w.id, Name: w.name})
	}
	return &godap.ThreadsResponse{Body: godap.ThreadsResponseBody{Threads: out}}, nil
}

// onWorker handles NodeWorker.attachedToWorker and detachedFromWorker.
func (h *Handler) onWorker(m *Message) {
	var ev struct {
		SessionID  string `json:"sessionId"`
		WorkerInfo struct {
			WorkerID string `json:"workerId"`
			Title    string `json:"title"`
			URL      string `json:"url"`
		} `json:"workerInfo"`
	}
	if json.Unmarshal(m.Params, &ev) != nil || ev.SessionID == "" {
		return
	}
	if m.Method == "NodeWorker.detachedFromWorker" {
		h.mu.Lock()
		w, ok := h.workers[ev.SessionID]
		delete(h.workers, ev.SessionID)
		h.mu.Unlock()
		if ok {
			if w.conn != nil {
				_ = w.conn.Close()
			}
			h.event("thread", map[string]any{"reason": "exited", "threadId": w.id})
		}
		return
	}
	h.mu.Lock()
	c := h.cdp
	if h.nextThread <= threadID {
		h.nextThread = threadID + 1
	}
	id := h.nextThread
	h.nextThread++
	h.mu.Unlock()
	if c == nil {
		return
	}
	name := ev.WorkerInfo.Title
	if name == "" {
		name = ev.WorkerInfo.URL
	}
	wh := h.newWorkerHandler(id)
	conn := newWorkerConn(c, ev.SessionID, wh.onEvent)
	wh.mu.Lock()
	wh.cdp = conn
	wh.mu.Unlock()
	go wh.watch(conn)
	h.mu.Lock()
	h.workers[ev.SessionID] = workerThread{id: id, name: fmt.Sprintf("worker %s: %s", ev.WorkerInfo.WorkerID, name), h: wh, conn: conn}
	h.mu.Unlock()
	h.event("thread", map[string]any{"reason": "started", "threadId": id})
	go h.startWorker(wh, conn)
}

// startWorker prepares a worker's session like the main one (domains,
// skipFiles, exception state, breakpoints) and lets it run.
func (h *Handler) startWorker(w *Handler, c cdpConn) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h.mu.Lock()
	skip, filter := h.skip, h.exceptionFilter
	lines := map[string][]bpSpec{}
	for path, list := range h.bps.bySource {
		for _, b := range list {
			lines[path] = append(lines[path], b.spec)
		}
	}
	var fns []bpSpec
	for _, b := range h.bps.fns {
		fns = append(fns, b.spec)
	}
	h.mu.Unlock()
	_ = c.Call(ctx, "Runtime.enable", nil, nil)
	_ = c.Call(ctx, "Debugger.enable", nil, nil)
	if w.sourceMaps {
		// As on the main thread: a script with a source map waits until
		// the breakpoints its map reaches are set.
		_ = c.Call(ctx, "Debugger.setInstrumentationBreakpoint", map[string]any{"instrumentation": "beforeScriptWithSourceMapExecution"}, nil)
	}
	if len(skip) > 0 {
		_ = c.Call(ctx, "Debugger.setBlackboxPatterns", map[string]any{"patterns": skip}, nil)
	}
	if filter != "" {
		_ = c.Call(ctx, "Debugger.setPauseOnExceptions", map[string]any{"state": filter}, nil)
	}
	for path, specs := range lines {
		w.replaceLine(ctx, c, path, specs)
	}
	if len(fns) > 0 {
		w.replaceFunctions(ctx, c, fns)
	}
	// The worker waits for this (NodeWorker.enable asked it to); it gets
	// its own deadline so that a slow setup never leaves the worker stuck.
	rctx, rcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer rcancel()
	_ = c.Call(rctx, "Runtime.runIfWaitingForDebugger", nil, nil)
}

// onWorkerMessage relays a worker's message to its session.
func (h *Handler) onWorkerMessage(m *Message) {
	var ev struct {
		SessionID string `json:"sessionId"`
		Message   string `json:"message"`
	}
	if json.Unmarshal(m.Params, &ev) != nil {
		return
	}
	h.mu.Lock()
	w, ok := h.workers[ev.SessionID]
	h.mu.Unlock()
	if ok {
		w.conn.deliver(ev.Message)
	}
}

// childThread debugs a forked child as one more thread of the session,
// named after its pid, with the breakpoints copied (when the client takes
// no child sessions). A child waiting for a debugger (--inspect-brk) runs
// once its breakpoints are set; one that does not wait may run some code
// unseen.
func (h *Handler) childThread(wsURL string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h.mu.Lock()
	gone := h.disconnect || h.ended
	if h.nextThread <= threadID {
		h.nextThread = threadID + 1
	}
	id := h.nextThread
	h.nextThread++
	h.mu.Unlock()
	if gone {
		return
	}
	ch := h.newWorkerHandler(id)
	key := "child:" + wsURL
	ch.mu.Lock()
	ch.closeOnExit = true
	ch.onEnd = func() {
		h.mu.Lock()
		_, ok := h.workers[key]
		delete(h.workers, key)
		h.mu.Unlock()
		if ok {
			h.event("thread", map[string]any{"reason": "exited", "threadId": id})
		}
	}
	ch.mu.Unlock()
	c, err := Dial(ctx, wsURL, ch.onEvent)
	if err != nil {
		return // the child ended before we could connect
	}
	ch.mu.Lock()
	ch.cdp = c
	ch.mu.Unlock()
	name := "child process"
	if pid := listener(ctx, portOf(wsURL)); pid > 0 {
		name = fmt.Sprintf("process %d", pid)
	}
	h.mu.Lock()
	h.workers[key] = workerThread{id: id, name: name, h: ch}
	h.mu.Unlock()
	h.event("thread", map[string]any{"reason": "started", "threadId": id})
	go ch.watch(c)
	h.startWorker(ch, c)
}
