// Package native holds what dbg fixes in LLDB's DAP adapter (lldb-dap,
// lldb-vscode), as a layer of a [dap.Proxy]. The adapter glue (finding
// the tool, building the program, launch and attach arguments) stays in
// package adapters; languages built on LLDB (COBOL) put their own layer
// in front of this one in the same proxy ([NewProxy]).
//
// The layer passes every message through, except that:
//
//   - the SIGSTOP stop of a stopOnEntry launch is reported as reason
//     "entry" (of an attach, and of a pause request: "pause") instead of
//     "exception";
//   - a pause that lldb drops (one sent right after an attach's
//     configurationDone, before lldb has resumed the process) is sent
//     again until the program stops, for at most two seconds;
//   - a Rust function's name loses its symbol's hash, and a Rust char
//     reads as 'a' (values.go);
//   - the leading blank lldb puts before summaries (` "hello"` for a Rust
//     String) is trimmed, and a reference (C++ `T &`, a Rust `&T`) reads
//     as the value it refers to, not its address (values.go; the values
//     themselves come from dbg's LLDB formatters, [FormatterCommands]);
//   - hit conditions are counted by the layer with [bpcond] semantics
//     (lldb reads one as an ignore count: "3" would stop on every hit
//     from the third on), and log points of an lldb without them (LLDB
//     14) are kept by the layer (logpoints.go);
//   - exception filters of its own ([Filter]: Rust panics, COBOL runtime
//     errors) become LLDB breakpoints on the runtime's function, and a
//     stop there is reported as an exception;
//   - LLDB's echo of the commands a launch or attach runs (those that
//     load dbg's formatters) is left out of the output (initecho.go).
package native

import (
	"context"
	"encoding/json"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// NewProxy starts a proxy in front of an LLDB adapter stream up, with the
// layers of outer (a language's, toward the client) in front of LLDB's.
// filters are the exception filters the layer implements.
func NewProxy(up io.ReadWriteCloser, filters []Filter, outer ...dap.Layer) *dap.Proxy {
	return dap.NewProxy(up, append(append([]dap.Layer{}, outer...), Layer(filters))...)
}

// NewLangProxy is NewProxy for a session of lang: the language's filters,
// and Rust's pointers read as what they point to.
func NewLangProxy(up io.ReadWriteCloser, lang string, outer ...dap.Layer) *dap.Proxy {
	return dap.NewProxy(up, append(append([]dap.Layer{}, outer...), layer(Filters(lang), lang == "rust"))...)
}

// Layer returns the LLDB layer implementing filters.
func Layer(filters []Filter) dap.Layer { return layer(filters, false) }

func layer(filters []Filter, rust bool) dap.Layer {
	return func(l *dap.Link) dap.Hooks {
		s := &lldb{link: l, filters: filters, rust: rust, excBP: map[int]Filter{}, filterBP: map[string]int{}, hits: map[int]*hitCount{}, logMsgs: map[int]string{}}
		return dap.Hooks{Request: s.request, Response: s.response, Event: s.event}
	}
}

// Pause repeats: every pauseEvery, at most pauseTimes times.
const (
	pauseEvery = 300 * time.Millisecond
	pauseTimes = 6
)

// bpNumberRE finds the breakpoint number in `breakpoint set` output
// ("Breakpoint 3: where = ...") or a stop description ("breakpoint 3.1").
var bpNumberRE = regexp.MustCompile(`(?i)^\W*breakpoint (\d+)`)

// lldb is the state of one proxy's LLDB layer. Request runs on the
// client's goroutine, Response and Event on the adapter's (see
// [dap.Hooks]); the fields below mu are guarded by it.
type lldb struct {
	link    *dap.Link
	filters []Filter
	rust    bool // the program is Rust: its pointers are references

	mu        sync.Mutex
	entryWant string        // "entry" or "pause": the reason of the first stop
	pauseWant bool          // a pause request waits for its stop
	stopped   chan struct{} // closed at the next stopped event
	excBP     map[int]Filter
	filterBP  map[string]int    // filter id → LLDB breakpoint number
	hits      map[int]*hitCount // LLDB breakpoint id → its hit condition
	gotos     []gotoTarget      // goto target id - 1 → where it goes
	watches   *watchState       // data breakpoints (watchpoints.go)
	ownLogs   bool              // lldb has no log points: the layer keeps them
	logMsgs   map[int]string    // LLDB breakpoint id → the log message kept

	started startCommands // the launch's commands, whose echo is left out (initecho.go)
}

func (s *lldb) request(r *dap.Request) dap.Verdict {
	switch r.Command {
	case "setBreakpoints":
		s.takeHitConditions(r)
	case "dataBreakpointInfo", "setDataBreakpoints":
		return s.dataBreakpoints(r)
	case "setExceptionBreakpoints":
		if len(s.filters) > 0 {
			s.exceptionFilters(r)
		}
	case "gotoTargets":
		return s.gotoTargets(r)
	case "goto":
		return s.gotoRequest(r)
	case "launch", "attach":
		s.started.note(r)
		var a struct {
			StopOnEntry bool `json:"stopOnEntry"`
		}
		_ = r.DecodeBody(&a)
		s.mu.Lock()
		s.entryWant = ""
		if a.StopOnEntry {
			s.entryWant = map[string]string{"launch": "entry", "attach": "pause"}[r.Command]
		}
		s.mu.Unlock()
	case "pause":
		stopped := make(chan struct{})
		s.mu.Lock()
		s.pauseWant = true
		s.stopped = stopped
		s.mu.Unlock()
		args := r.Arguments
		s.link.Go(func() {
			dap.RepeatUntil(s.link.Context(), stopped, pauseEvery, pauseTimes, func() error {
				return s.link.Post("pause", args)
			})
		})
	}
	return dap.Pass
}

func (s *lldb) response(r *dap.Request, m *dap.Message) dap.Verdict {
	if !m.OK() {
		return dap.Pass
	}
	switch m.Command {
	case "initialize":
		if len(s.filters) > 0 {
			s.addFilters(m)
		}
		announceGoto(m)
		s.noteLogPoints(m)
		s.mu.Lock()
		old := s.ownLogs
		s.mu.Unlock()
		if !old {
			// An LLDB without log points (14) names no watchpoint in its
			// stops, so its watchpoints could not be told from breakpoints.
			announceDataBreakpoints(m)
		}
	case "setBreakpoints":
		s.noteHitConditions(r, m)
	case "variables":
		return s.fixValues(r, m)
	case "stackTrace":
		return s.fixFrames(m)
	case "evaluate":
		return s.fixResult(r, m)
	}
	return dap.Pass
}

func (s *lldb) event(m *dap.Message) dap.Verdict {
	if m.Event == "output" {
		return s.started.quiet(m)
	}
	if m.Event != "stopped" {
		return dap.Pass
	}
	if watch, skip, tid := s.watchStop(m); watch {
		if skip {
			_ = s.link.Post("continue", map[string]any{"threadId": tid})
			return dap.Hold
		}
		if !s.fixStop(m) {
			return dap.Hold
		}
		return dap.Pass
	}
	tid, ids, passing := s.countHit(m)
	if len(ids) > 0 && len(passing) == 0 {
		// every breakpoint hit has a hit condition and none passes
		_ = s.link.Post("continue", map[string]any{"threadId": tid})
		return dap.Hold
	}
	if s.logStop(m, tid, passing) {
		return dap.Hold
	}
	if !s.fixStop(m) {
		return dap.Hold
	}
	return dap.Pass
}

// fixStop gives a stop its reason: an exception at a filter's breakpoint,
// "entry" or "pause" for the SIGSTOP of a stopOnEntry or a pause. It
// reports false when it held the event to learn its signal first (LLDB
// 14 names no signal in a stopped event; its exceptionInfo does), and
// sends it on itself.
func (s *lldb) fixStop(m *dap.Message) bool {
	s.mu.Lock()
	want := s.entryWant
	s.entryWant = ""
	if want == "" && s.pauseWant {
		want = "pause"
	}
	s.pauseWant = false
	if s.stopped != nil {
		close(s.stopped)
		s.stopped = nil
	}
	s.mu.Unlock()
	if want == "" && !s.atFilterBreakpoint(m) {
		return true // nothing to change: the body needs no map
	}
	var body map[string]any
	if err := m.DecodeBody(&body); err != nil {
		return true
	}
	d, _ := body["description"].(string)
	text, _ := body["text"].(string)
	if mm := bpNumberRE.FindStringSubmatch(d); mm != nil {
		n, _ := strconv.Atoi(mm[1])
		s.mu.Lock()
		f, ok := s.excBP[n]
		s.mu.Unlock()
		if ok {
			body["reason"] = "exception"
			body["description"] = f.Text
			body["text"] = f.Text
			m.Body, _ = json.Marshal(body)
			return true
		}
	}
	if want == "" {
		return true
	}
	if reason, _ := body["reason"].(string); reason == "exception" && d == "" && text == "" {
		tid, _ := body["threadId"].(float64)
		s.link.Go(func() {
			ctx, cancel := context.WithTimeout(s.link.Context(), 5*time.Second)
			defer cancel()
			if resp, err := s.link.Call(ctx, "exceptionInfo", map[string]any{"threadId": int(tid)}); err == nil {
				var info struct {
					ExceptionID string `json:"exceptionId"`
					Description string `json:"description"`
				}
				_ = resp.DecodeBody(&info)
				s.sigstopReason(m, body, want, info.ExceptionID+" "+info.Description)
			}
			s.link.Send(m)
		})
		return false
	}
	s.sigstopReason(m, body, want, d+" "+text)
	return true
}

// atFilterBreakpoint reports whether a stop may be at one of the
// breakpoints of the layer's exception filters (a body it cannot read
// may be).
func (s *lldb) atFilterBreakpoint(m *dap.Message) bool {
	var peek struct {
		Description string `json:"description"`
	}
	if m.DecodeBody(&peek) != nil {
		return true
	}
	mm := bpNumberRE.FindStringSubmatch(peek.Description)
	if mm == nil {
		return false
	}
	n, _ := strconv.Atoi(mm[1])
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.excBP[n]
	return ok
}

// sigstopReason gives a stop whose signal is described by what the
// reason want when it is SIGSTOP.
func (s *lldb) sigstopReason(m *dap.Message, body map[string]any, want, what string) {
	if !strings.Contains(what, "SIGSTOP") {
		return
	}
	body["reason"] = want
	m.Body, _ = json.Marshal(body)
}

// command runs an LLDB command through evaluate and returns its output.
func (s *lldb) command(ctx context.Context, cmd string) (string, error) {
	resp, err := s.link.Call(ctx, "evaluate", map[string]any{"expression": "`" + cmd, "context": "repl"})
	if err != nil {
		return "", err
	}
	var body struct {
		Result string `json:"result"`
	}
	_ = resp.DecodeBody(&body)
	return body.Result, nil
}
