package nodedap

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"
)

// workerThread is a worker_threads Worker, listed as a DAP thread. Workers
// are listed and reported as they start and exit; their own stacks are not
// inspected (each is a separate inspector session).
type workerThread struct {
	id   int
	name string
}

func (h *Handler) threads() map[string]any {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := []map[string]any{{"id": threadID, "name": "main"}}
	var ws []workerThread
	for _, w := range h.workers {
		ws = append(ws, w)
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].id < ws[j].id })
	for _, w := range ws {
		out = append(out, map[string]any{"id": w.id, "name": w.name})
	}
	return map[string]any{"threads": out}
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
	h.mu.Lock()
	var w workerThread
	reason := "started"
	if m.Method == "NodeWorker.attachedToWorker" {
		if h.nextThread <= threadID {
			h.nextThread = threadID + 1
		}
		name := ev.WorkerInfo.Title
		if name == "" {
			name = ev.WorkerInfo.URL
		}
		w = workerThread{id: h.nextThread, name: fmt.Sprintf("worker %s: %s", ev.WorkerInfo.WorkerID, name)}
		h.nextThread++
		h.workers[ev.SessionID] = w
		c := h.cdp
		if c != nil {
			// A worker of a program started with --inspect-brk waits for
			// its debugger too.
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				_ = c.Call(ctx, "NodeWorker.sendMessageToWorker", map[string]any{
					"sessionId": ev.SessionID,
					"message":   `{"id":1,"method":"Runtime.runIfWaitingForDebugger"}`,
				}, nil)
			}()
		}
	} else {
		var ok bool
		if w, ok = h.workers[ev.SessionID]; !ok {
			h.mu.Unlock()
			return
		}
		delete(h.workers, ev.SessionID)
		reason = "exited"
	}
	h.mu.Unlock()
	h.event("thread", map[string]any{"reason": reason, "threadId": w.id})
}

// checkThread refuses requests about a worker thread.
func (h *Handler) checkThread(id int) error {
	if id == 0 || id == threadID {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, w := range h.workers {
		if w.id == id {
			return fmt.Errorf("thread %d is a worker (%s): workers are listed, but only the main thread can be inspected", id, w.name)
		}
	}
	return fmt.Errorf("no thread %d", id)
}
