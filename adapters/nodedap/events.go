package nodedap

import (
	"encoding/json"
	"errors"
	"strings"
)

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
		select {
		case h.resumed <- struct{}{}:
		default:
		}
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
