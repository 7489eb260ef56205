// Package ruby holds what dbg fixes in rdbg (Ruby's debug gem) as a layer
// of a [dap.Proxy], so that old rdbg (debug 1.4, Debian bookworm's
// ruby3.1) behaves like the other adapters: breakpoints removed by
// setBreakpoints no longer stop the program, conditions, hit conditions
// and log messages are decided by the layer ([bpcond] semantics),
// setVariable works, the program's stdout/stderr become output events,
// the end of the program becomes exited+terminated events instead of a
// bare close, and the repeated stopped(pause) events of an attach are
// reported once. The adapter glue (finding rdbg, starting it, launch and
// attach arguments) stays in package adapters.
package ruby

import (
	"encoding/json"
	"io"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// rubyBPRE finds the location in rdbg's breakpoint description
// (" BP - Line  /path/x.rb:15 (line)").
var rubyBPRE = regexp.MustCompile(`Line\s+(.+):(\d+)`)

// Proxy is the rdbg layer of one session, created before rdbg starts so
// that it can take the program's output ([Proxy.OnLine]) from the first
// line.
//
// Goroutines: the hooks run as [dap.Hooks] documents; output lines arrive
// on the process's reader goroutines; decisions that wait for rdbg
// (conditions, setVariable) run on goroutines of the proxy. The state
// below is guarded by mu.
type Proxy struct {
	mu              sync.Mutex
	link            *dap.Link
	proc            *dap.Process
	script          string                     // the launched script
	attach          bool                       // an attach session
	stopOnEntry     bool                       // a launch that stops on entry
	bps             map[string]map[int]*rubyBP // desired breakpoints per file and line
	scopeFrame      map[int]int                // scope variablesReference → frame id
	pauseSent       bool                       // a stopped(pause) was reported since the last resume
	stepping        bool                       // a step is under way
	connectStop     bool                       // attach: rdbg's pause of a new connection has not stopped yet
	keepConnectStop bool                       // the session asked for a pause before it did
	lastException   string                     // text of the last exception stop
	excWant         map[string]bool            // the session's exception filters
	pending         []string                   // output lines before the client connected
	held            bool                       // rdbg holds line breakpoints (it never drops one)
	stopped         int                        // the thread of the stop the session sees (0: running)
	purge           chan int                   // set while a detach pauses the program: its stop's thread
	connected       bool
	disconnecting   bool // the session's disconnect has come: rdbg gets no request after it

	stoppedOnce sync.Once
	stoppedCh   chan struct{} // closed at rdbg's first stopped event
	readyOnce   sync.Once
	ready       chan struct{} // closed when rdbg waits for its client
}

// New returns the layer of an attach or a launch session.
func New(attach, stopOnEntry bool) *Proxy {
	return &Proxy{attach: attach, stopOnEntry: stopOnEntry, connectStop: attach,
		bps: map[string]map[int]*rubyBP{}, scopeFrame: map[int]int{},
		stoppedCh: make(chan struct{}), ready: make(chan struct{})}
}

// Ready is closed when rdbg says it waits for its client (a launch).
func (x *Proxy) Ready() <-chan struct{} { return x.ready }

// Start starts the proxy in front of rdbg's stream up. proc and script
// are those of a launch (nil and "" for an attach).
func (x *Proxy) Start(up io.ReadWriteCloser, proc *dap.Process, script string) *dap.Proxy {
	x.mu.Lock()
	x.proc, x.script = proc, script
	x.mu.Unlock()
	return dap.NewProxy(up, x.layer)
}

func (x *Proxy) layer(l *dap.Link) dap.Hooks {
	x.mu.Lock()
	x.link = l
	x.mu.Unlock()
	l.Go(x.flushPending)
	return dap.Hooks{Request: x.request, Response: x.response, Event: x.event, Ended: x.ended}
}

// flushPending sends the output that arrived before the session's end
// existed, then lets OnLine send directly. It runs on its own goroutine:
// the pipe blocks until the session reads.
func (x *Proxy) flushPending() {
	for {
		x.mu.Lock()
		pending := x.pending
		x.pending = nil
		if len(pending) == 0 {
			x.connected = true
			x.mu.Unlock()
			return
		}
		x.mu.Unlock()
		for _, l := range pending {
			x.output(l)
		}
	}
}

// OnLine turns the program's output into output events. rdbg's own
// notices ("DEBUGGER: ...") are dropped. It is the launch's
// [dap.ProcessOptions.OnLine].
func (x *Proxy) OnLine(stream, line string) {
	if stream == "stderr" && strings.HasPrefix(line, "DEBUGGER:") {
		if strings.Contains(line, "wait for debugger connection") {
			x.readyOnce.Do(func() { close(x.ready) })
		}
		return
	}
	cat := "stdout"
	if stream == "stderr" {
		cat = "stderr"
	}
	x.mu.Lock()
	if !x.connected {
		x.pending = append(x.pending, cat+"\x00"+line)
		x.mu.Unlock()
		return
	}
	x.mu.Unlock()
	x.output(cat + "\x00" + line)
}

func (x *Proxy) output(tagged string) {
	cat, line, _ := strings.Cut(tagged, "\x00")
	x.link.Event("output", map[string]any{"category": cat, "output": line + "\n"})
}

// continueThread resumes a thread after a stop the session must not see.
func (x *Proxy) continueThread(thread int) {
	_ = x.link.Post("continue", map[string]any{"threadId": thread})
}

// ended reports the end of the program once rdbg's socket closed.
func (x *Proxy) ended() {
	done := x.link.Done()
	x.mu.Lock()
	proc := x.proc
	x.mu.Unlock()
	if proc != nil {
		code := 0
		t := time.NewTimer(3 * time.Second)
		select {
		case <-proc.Exited():
			code = exitCode(proc.ExitErr())
		case <-t.C:
		case <-done:
		}
		t.Stop()
		x.link.Event("exited", map[string]any{"exitCode": code})
	}
	x.link.Event("terminated", map[string]any{})
	// Let the session read the last events before the stream ends.
	t := time.NewTimer(2 * time.Second)
	defer t.Stop()
	select {
	case <-t.C:
	case <-done:
	}
}

func mustJSON(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
