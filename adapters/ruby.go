package adapters

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// Ruby is the adapter of language "ruby": rdbg (the debug gem) in its
// DAP mode. A launch runs `rdbg --open --host 127.0.0.1 --port P --
// script.rb args` and connects over TCP; an attach connects to a program
// already started with `rdbg --open --port P`.
//
// rdbg is reached through an in-process DAP proxy that makes old rdbg
// (debug 1.4, Debian bookworm's ruby3.1) behave like the other adapters:
// breakpoints removed by setBreakpoints no longer stop the program,
// the program's stdout/stderr become output events, the end of the
// program becomes exited+terminated events instead of a bare close, and
// the repeated stopped(pause) events of an attach are reported once.
//
// A Ruby value holds no per-session state and is safe for concurrent use.
type Ruby struct{}

// NewRuby returns the ruby adapter.
func NewRuby() *Ruby { return &Ruby{} }

// Language returns "ruby".
func (r *Ruby) Language() string { return "ruby" }

// rdbgTool is rdbg: plain rdbg (the gem's) first, then the newest of
// Debian's versioned rdbgX.Y. Its install is Ruby 3.1 from Debian
// bookworm, whose bundled debug gem provides rdbg3.1.
var rdbgTool = Tool{
	Language: "ruby", What: "rdbg (Ruby's debug gem)",
	Names: []string{"rdbg"}, Versioned: regexp.MustCompile(`^rdbg(\d+(?:\.\d+)?)?$`),
	VersionArgs: []string{"--version"},
	Install: [][]string{
		{"apt-get", "update"},
		{"apt-get", "install", "-y", "--no-install-recommends",
			"ruby3.1=3.1.7+really3.1.2-0+deb12u1", "libruby3.1=3.1.7+really3.1.2-0+deb12u1", "ruby=1:3.1"},
	},
}

// findRdbg finds rdbg (see rdbgTool).
func (r *Ruby) findRdbg() (string, error) { return rdbgTool.Path() }

// Find reports rdbg and its version.
func (r *Ruby) Find(ctx context.Context) Info {
	return rdbgTool.Describe(ctx, Info{
		Language: "ruby", Adapter: "rdbg", Launch: true, AttachPort: true,
		Aliases: []string{"rb"},
		Note:    "attach by port to a program started with `rdbg --open --port P script.rb`",
	})
}

// InstallCommands implements Installer.
func (r *Ruby) InstallCommands() [][]string { return rdbgTool.InstallCommands() }

// Start launches the script under rdbg, or connects to t.Host:t.Port for
// an attach, and returns the proxied DAP stream.
func (r *Ruby) Start(ctx context.Context, t Target) (*Endpoint, error) {
	if t.Mode == Attach {
		if t.Port <= 0 {
			return nil, errors.New("ruby attaches by port: start the program with `rdbg --open --port P script.rb` and give that port")
		}
		host := t.Host
		if host == "" {
			host = "127.0.0.1"
		}
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		up, err := dap.Dial(dctx, net.JoinHostPort(host, strconv.Itoa(t.Port)))
		if err != nil {
			return nil, fmt.Errorf("connect to rdbg: %w", err)
		}
		px := newRubyProxy(up, nil, true, false)
		return px.endpoint(nil), nil
	}
	rdbg, err := r.findRdbg()
	if err != nil {
		return nil, err
	}
	script, err := rubyScript(t)
	if err != nil {
		return nil, err
	}
	port, err := natFreePort()
	if err != nil {
		return nil, err
	}
	argv := []string{"--open", "--host", "127.0.0.1", "--port", strconv.Itoa(port)}
	if t.ExecutablePath != "" {
		argv = append(argv, "-c", "--", t.ExecutablePath, script)
	} else {
		argv = append(argv, "--", script)
	}
	argv = append(argv, t.Args...)
	cmd := exec.Command(rdbg, argv...)
	cmd.Dir = t.Cwd
	if cmd.Dir == "" {
		cmd.Dir = filepath.Dir(script)
	}
	cmd.Env = os.Environ()
	for k, v := range t.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	px := newRubyProxy(nil, nil, false, t.StopOnEntry)
	p, err := dap.StartProcess(cmd, dap.ProcessOptions{OnLine: px.onLine})
	if err != nil {
		return nil, fmt.Errorf("start rdbg: %w", err)
	}
	dctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	// rdbg listens before its session exists, and old rdbg dies on a
	// connection in that window; it is ready when it says it waits.
	select {
	case <-px.ready:
	case <-p.Exited():
		return nil, fmt.Errorf("rdbg exited before accepting a connection: %s", p.StderrTail())
	case <-dctx.Done():
		p.Kill()
		return nil, fmt.Errorf("rdbg did not get ready: %w (stderr: %s)", dctx.Err(), p.StderrTail())
	}
	up, err := natDialWhileAlive(dctx, p, net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		p.Kill()
		return nil, fmt.Errorf("connect to rdbg: %w (stderr: %s)", err, p.StderrTail())
	}
	px.mu.Lock()
	px.up, px.proc, px.script = up, p, script
	px.mu.Unlock()
	return px.endpoint(p), nil
}

// rubyScript returns the absolute script path of a launch.
func rubyScript(t Target) (string, error) {
	if t.Program == "" {
		return "", errors.New("no script to launch")
	}
	script := t.Program
	if !filepath.IsAbs(script) {
		base := t.Cwd
		if base == "" {
			var err error
			if base, err = os.Getwd(); err != nil {
				return "", err
			}
		}
		script = filepath.Join(base, script)
	}
	if _, err := os.Stat(script); err != nil {
		return "", fmt.Errorf("script %s: %w", script, err)
	}
	return script, nil
}

// LaunchArgs returns rdbg's launch arguments (rdbg runs the script given
// on its command line; these document it).
func (r *Ruby) LaunchArgs(ctx context.Context, t Target) (map[string]any, error) {
	script, err := rubyScript(t)
	if err != nil {
		return nil, err
	}
	args := map[string]any{
		"type": "rdbg", "name": "dbg", "request": "launch",
		"script": script, "args": nonNil(t.Args), "stopOnEntry": t.StopOnEntry,
	}
	if t.Cwd != "" {
		args["cwd"] = t.Cwd
	}
	return merge(args, t.Extra), nil
}

// AttachArgs returns rdbg's attach arguments.
func (r *Ruby) AttachArgs(ctx context.Context, t Target) (map[string]any, error) {
	if t.Port <= 0 {
		return nil, errors.New("ruby attaches by port: start the program with `rdbg --open --port P script.rb` and give that port")
	}
	host := t.Host
	if host == "" {
		host = "127.0.0.1"
	}
	args := map[string]any{"type": "rdbg", "name": "dbg", "request": "attach", "debugPort": net.JoinHostPort(host, strconv.Itoa(t.Port))}
	return merge(args, t.Extra), nil
}

// StopReason: rdbg already speaks DAP's reasons.
func (r *Ruby) StopReason(reason string) string { return reason }

// ExceptionFilters maps modes to rdbg's filters ("any" rescues every
// exception; rdbg has no uncaught-only filter, RuntimeError is closest).
func (r *Ruby) ExceptionFilters(mode string) []string {
	switch mode {
	case "all":
		return []string{"any"}
	case "uncaught":
		return []string{"RuntimeError"}
	}
	return nil
}

// Traits: none beyond the defaults; the proxy fixes old rdbg.
func (r *Ruby) Traits() Traits { return Traits{} }

// rubyInjectedSeq is the first seq of requests the proxy itself sends to
// rdbg; their responses are not forwarded.
const rubyInjectedSeq = 1 << 30

// rubyBPRE finds the location in rdbg's breakpoint description
// (" BP - Line  /path/x.rb:15 (line)").
var rubyBPRE = regexp.MustCompile(`Line\s+(.+):(\d+)`)

// rubyProxy sits between the session (down) and rdbg (up).
//
// Goroutines: one copies requests down→up, one copies messages up→down;
// output lines arrive on the process's reader goroutines. Writes to each
// side are serialised by their own mutex; the state below is guarded by mu.
type rubyProxy struct {
	up   net.Conn
	down net.Conn // the proxy's end of the session's pipe
	proc *dap.Process

	downMu  sync.Mutex
	downSeq int
	upMu    sync.Mutex

	mu              sync.Mutex
	attach          bool
	stopOnEntry     bool
	bps             map[string]map[int]*rubyBP // desired breakpoints per file and line
	bpReqs          map[int][]int              // setBreakpoints seq → requested lines
	fnReqs          map[int]int                // setFunctionBreakpoints seq → count
	waiting         map[int]chan *dap.Message  // the proxy's own requests → their answers
	scopeReqs       map[int]int                // scopes request seq → frame id
	evalReqs        map[int]string             // evaluate request seq → expression
	launchSeq       int                        // seq of the launch request
	script          string                     // the launched script
	scopeFrame      map[int]int                // scope variablesReference → frame id
	initSeq         int                        // seq of the initialize request
	pauseSent       bool                       // a stopped(pause) was reported since the last resume
	stepping        bool                       // a step is under way
	connectStop     bool                       // attach: rdbg's pause of a new connection has not stopped yet
	keepConnectStop bool                       // the session asked for a pause before it did
	lastException   string                     // text of the last exception stop
	excWant         map[string]bool            // the session\'s exception filters
	stoppedOnce     sync.Once
	readyOnce       sync.Once
	ready           chan struct{} // closed when rdbg waits for its client
	stoppedCh       chan struct{} // closed at rdbg's first stopped event
	injected        int
	pending         []string // output lines before the client connected
	connected       bool
	done            chan struct{}
	closeOnce       sync.Once
	finishOnce      sync.Once
}

func newRubyProxy(up net.Conn, proc *dap.Process, attach, stopOnEntry bool) *rubyProxy {
	return &rubyProxy{up: up, proc: proc, attach: attach, stopOnEntry: stopOnEntry, connectStop: attach,
		bps: map[string]map[int]*rubyBP{}, bpReqs: map[int][]int{}, fnReqs: map[int]int{}, waiting: map[int]chan *dap.Message{},
		scopeReqs: map[int]int{}, scopeFrame: map[int]int{}, evalReqs: map[int]string{}, done: make(chan struct{}),
		stoppedCh: make(chan struct{}), ready: make(chan struct{})}
}

// endpoint starts the proxy and returns the session's end.
func (px *rubyProxy) endpoint(p *dap.Process) *Endpoint {
	client, server := net.Pipe()
	px.down = server
	go px.fromClient()
	go px.fromRdbg()
	go px.flushPending()
	return &Endpoint{Conn: client, Process: p, Cleanup: px.close}
}

// flushPending sends the output that arrived before the session's end
// existed, then lets onLine send directly. It runs on its own goroutine:
// the pipe blocks until the session reads.
func (px *rubyProxy) flushPending() {
	for {
		px.mu.Lock()
		pending := px.pending
		px.pending = nil
		if len(pending) == 0 {
			px.connected = true
			px.mu.Unlock()
			return
		}
		px.mu.Unlock()
		for _, l := range pending {
			px.output(l)
		}
	}
}

func (px *rubyProxy) close() {
	px.closeOnce.Do(func() {
		close(px.done)
		_ = px.up.Close()
		_ = px.down.Close()
	})
}

// onLine turns the program's output into output events. rdbg's own
// notices ("DEBUGGER: ...") are dropped.
func (px *rubyProxy) onLine(stream, line string) {
	if stream == "stderr" && strings.HasPrefix(line, "DEBUGGER:") {
		if strings.Contains(line, "wait for debugger connection") {
			px.readyOnce.Do(func() { close(px.ready) })
		}
		return
	}
	cat := "stdout"
	if stream == "stderr" {
		cat = "stderr"
	}
	px.mu.Lock()
	if !px.connected {
		px.pending = append(px.pending, cat+"\x00"+line)
		px.mu.Unlock()
		return
	}
	px.mu.Unlock()
	px.output(cat + "\x00" + line)
}

func (px *rubyProxy) output(tagged string) {
	cat, line, _ := strings.Cut(tagged, "\x00")
	px.event("output", map[string]any{"category": cat, "output": line + "\n"})
}

// event sends a synthesized event to the session.
func (px *rubyProxy) event(name string, body any) {
	b, _ := json.Marshal(body)
	px.sendDown(&dap.Message{Type: "event", Event: name, Body: b})
}

func (px *rubyProxy) sendDown(m *dap.Message) {
	px.downMu.Lock()
	defer px.downMu.Unlock()
	px.downSeq++
	m.Seq = px.downSeq
	b, err := json.Marshal(m)
	if err != nil {
		return
	}
	_ = dap.WriteFrame(px.down, b)
}

func (px *rubyProxy) sendUp(m *dap.Message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	px.upMu.Lock()
	defer px.upMu.Unlock()
	return dap.WriteFrame(px.up, b)
}

// inject sends a request of the proxy's own to rdbg.
func (px *rubyProxy) inject(command string, args any) {
	b, _ := json.Marshal(args)
	px.mu.Lock()
	px.injected++
	seq := rubyInjectedSeq + px.injected
	px.mu.Unlock()
	_ = px.sendUp(&dap.Message{Seq: seq, Type: "request", Command: command, Arguments: b})
}

// fromClient forwards the session's requests to rdbg, noting what the
// answers and later events need.
func (px *rubyProxy) fromClient() {
	defer px.close()
	fr := dap.NewFrameReader(px.down)
	for {
		body, err := fr.ReadFrame()
		if err != nil {
			return
		}
		m, err := dap.Decode(body)
		if err != nil || m.Type != "request" {
			continue
		}
		if !rubyKnownCommands[m.Command] {
			px.answerUnknown(m)
			continue
		}
		switch m.Command {
		case "initialize":
			px.mu.Lock()
			px.initSeq = m.Seq
			px.mu.Unlock()
		case "evaluate":
			var a struct {
				Expression string `json:"expression"`
			}
			_ = m.DecodeBody(&a)
			px.mu.Lock()
			px.evalReqs[m.Seq] = a.Expression
			px.mu.Unlock()
		case "launch":
			px.mu.Lock()
			px.launchSeq = m.Seq
			px.mu.Unlock()
		case "setExceptionBreakpoints":
			var a struct {
				Filters       []string `json:"filters"`
				FilterOptions []struct {
					FilterID string `json:"filterId"`
				} `json:"filterOptions"`
			}
			_ = m.DecodeBody(&a)
			want := map[string]bool{}
			for _, f := range a.Filters {
				want[f] = true
			}
			for _, f := range a.FilterOptions {
				want[f.FilterID] = true
			}
			px.mu.Lock()
			px.excWant = want
			px.mu.Unlock()
		case "scopes":
			var a struct {
				FrameID int `json:"frameId"`
			}
			_ = m.DecodeBody(&a)
			px.mu.Lock()
			px.scopeReqs[m.Seq] = a.FrameID
			px.mu.Unlock()
		case "setVariable":
			// Old rdbg has no setVariable: assign in the scope's frame.
			var a struct {
				Ref   int    `json:"variablesReference"`
				Name  string `json:"name"`
				Value string `json:"value"`
			}
			_ = m.DecodeBody(&a)
			go px.setVariable(m, a.Ref, a.Name, a.Value)
			continue
		case "setBreakpoints":
			var a struct {
				Source struct {
					Path string `json:"path"`
				} `json:"source"`
				Breakpoints []struct {
					Line         int    `json:"line"`
					Condition    string `json:"condition"`
					HitCondition string `json:"hitCondition"`
					LogMessage   string `json:"logMessage"`
				} `json:"breakpoints"`
			}
			_ = m.DecodeBody(&a)
			lines := make([]int, 0, len(a.Breakpoints))
			plain := make([]map[string]any, 0, len(a.Breakpoints))
			want := map[int]*rubyBP{}
			for _, b := range a.Breakpoints {
				lines = append(lines, b.Line)
				plain = append(plain, map[string]any{"line": b.Line})
				want[b.Line] = &rubyBP{cond: b.Condition, hit: b.HitCondition, log: b.LogMessage}
			}
			px.mu.Lock()
			path := filepath.Clean(a.Source.Path)
			for line, old := range px.bps[path] {
				if nb := want[line]; nb != nil && nb.cond == old.cond && nb.hit == old.hit {
					nb.hits = old.hits // an unchanged breakpoint keeps its count
				}
			}
			px.bps[path] = want
			px.bpReqs[m.Seq] = lines
			px.mu.Unlock()
			// rdbg keeps the first condition a line ever had; the proxy
			// evaluates conditions, hit counts and log messages itself.
			m.Arguments, _ = json.Marshal(map[string]any{"source": map[string]any{"path": a.Source.Path}, "breakpoints": plain})
		case "setFunctionBreakpoints":
			var a struct {
				Breakpoints []json.RawMessage `json:"breakpoints"`
			}
			_ = m.DecodeBody(&a)
			px.mu.Lock()
			px.fnReqs[m.Seq] = len(a.Breakpoints)
			px.mu.Unlock()
		case "attach":
			px.mu.Lock()
			px.attach = true
			px.mu.Unlock()
			// rdbg already pauses the program when a client connects;
			// its "attach" would signal a second pause that can land
			// after a continue or a disconnect (and crash old rdbg).
			px.sendDown(&dap.Message{Type: "response", RequestSeq: m.Seq, Command: m.Command, Success: rubyTrue()})
			continue
		case "continue", "next", "stepIn", "stepOut", "reverseContinue", "stepBack":
			px.mu.Lock()
			px.scopeFrame = map[int]int{}
			px.pauseSent = false
			px.stepping = m.Command != "continue" && m.Command != "reverseContinue"
			px.mu.Unlock()
		case "pause":
			px.mu.Lock()
			px.pauseSent = false
			early := px.connectStop
			if early {
				px.keepConnectStop = true
			}
			px.mu.Unlock()
			if early {
				// rdbg's own pause of the connection is on its way: it
				// is this pause's stop; a second signal would stop the
				// program again after the next continue.
				px.sendDown(&dap.Message{Type: "response", RequestSeq: m.Seq, Command: m.Command, Success: rubyTrue()})
				continue
			}
		case "disconnect":
			px.mu.Lock()
			attach := px.attach
			px.mu.Unlock()
			if attach {
				// The pause signal of "attach" may not have been handled
				// yet; if it lands after the disconnect, old rdbg dies
				// writing its stop to the closed socket. Wait for it.
				t := time.NewTimer(3 * time.Second)
				select {
				case <-px.stoppedCh:
				case <-t.C:
				case <-px.done:
				}
				t.Stop()
			}
		case "configurationDone":
			px.mu.Lock()
			entry := px.stopOnEntry && !px.attach
			attach := px.attach
			px.mu.Unlock()
			if attach {
				// rdbg has paused the attached program with a signal at
				// "attach". Its configurationDone would queue a "p"
				// command that fails inside the signal handler and
				// report a second pause; answer it here instead.
				px.sendDown(&dap.Message{Type: "response", RequestSeq: m.Seq, Command: m.Command, Success: rubyTrue()})
				continue
			}
			if entry {
				// rdbg waits at the first line until configurationDone
				// continues it; stay there and say so.
				px.sendDown(&dap.Message{Type: "response", RequestSeq: m.Seq, Command: m.Command, Success: rubyTrue()})
				px.event("stopped", map[string]any{"reason": "entry", "threadId": 1, "allThreadsStopped": true})
				continue
			}
		}
		if err := px.sendUp(m); err != nil {
			return
		}
	}
}

func rubyTrue() *bool { b := true; return &b }

// fromRdbg forwards rdbg's messages to the session, fixing what old rdbg
// gets wrong. When rdbg closes the socket the program has ended: the
// session gets exited and terminated.
func (px *rubyProxy) fromRdbg() {
	defer px.finish()
	fr := dap.NewFrameReader(px.up)
	for {
		body, err := fr.ReadFrame()
		if err != nil {
			return
		}
		m, err := dap.Decode(body)
		if err != nil {
			continue
		}
		switch m.Type {
		case "response":
			if m.RequestSeq > rubyInjectedSeq {
				px.mu.Lock()
				ch := px.waiting[m.RequestSeq]
				px.mu.Unlock()
				if ch != nil {
					ch <- m
				}
				continue
			}
			px.fixResponse(m)
			if m.Command == "launch" && px.isLaunchAnswer(m) {
				px.sendDown(m)
				px.processEvent()
				continue
			}
		case "event":
			if !px.keepEvent(m) {
				continue
			}
		}
		px.sendDown(m)
	}
}

// fixResponse completes rdbg's bare breakpoint answers.
func (px *rubyProxy) fixResponse(m *dap.Message) {
	px.mu.Lock()
	lines, isBP := px.bpReqs[m.RequestSeq]
	delete(px.bpReqs, m.RequestSeq)
	nfn, isFn := px.fnReqs[m.RequestSeq]
	delete(px.fnReqs, m.RequestSeq)
	isInit := m.Command == "initialize" && m.RequestSeq == px.initSeq
	frame, isScopes := px.scopeReqs[m.RequestSeq]
	delete(px.scopeReqs, m.RequestSeq)
	expr, isEval := px.evalReqs[m.RequestSeq]
	delete(px.evalReqs, m.RequestSeq)
	px.mu.Unlock()
	switch {
	case isEval && m.OK():
		var body struct {
			Result string `json:"result"`
			Type   string `json:"type"`
		}
		if err := m.DecodeBody(&body); err == nil && rubyEvalFailed(expr, body.Result, body.Type) {
			f := false
			m.Success = &f
			m.Message = body.Result
			m.Body, _ = json.Marshal(map[string]any{"error": map[string]any{"id": 1, "format": body.Result, "showUser": true}})
		}
	case isScopes && m.OK():
		var body struct {
			Scopes []struct {
				Ref int `json:"variablesReference"`
			} `json:"scopes"`
		}
		if err := m.DecodeBody(&body); err == nil {
			px.mu.Lock()
			for _, sc := range body.Scopes {
				px.scopeFrame[sc.Ref] = frame
			}
			px.mu.Unlock()
		}
	case isInit && m.OK():
		var caps map[string]any
		if err := m.DecodeBody(&caps); err == nil && caps != nil {
			caps["supportsHitConditionalBreakpoints"] = true
			caps["supportsLogPoints"] = true
			caps["supportsSetVariable"] = true
			m.Body, _ = json.Marshal(caps)
		}
	case isBP && m.OK():
		out := make([]map[string]any, len(lines))
		for i, l := range lines {
			out[i] = map[string]any{"verified": true, "line": l}
		}
		m.Body, _ = json.Marshal(map[string]any{"breakpoints": out})
	case isFn:
		out := make([]map[string]any, nfn)
		for i := range out {
			out[i] = map[string]any{"verified": false, "message": "function breakpoints are not supported by this rdbg"}
		}
		m.Body, _ = json.Marshal(map[string]any{"breakpoints": out})
		m.Success = rubyTrue()
	}
}

// keepEvent filters rdbg's events: stops at breakpoints the session has
// removed are resumed silently, and repeated pauses are reported once.
func (px *rubyProxy) keepEvent(m *dap.Message) bool {
	if m.Event != "stopped" {
		return true
	}
	var st struct {
		Reason      string `json:"reason"`
		Description string `json:"description"`
		ThreadID    int    `json:"threadId"`
	}
	_ = m.DecodeBody(&st)
	px.stoppedOnce.Do(func() { close(px.stoppedCh) })
	px.mu.Lock()
	defer px.mu.Unlock()
	if px.connectStop {
		// rdbg pauses every program a client connects to. Whether the
		// session wants it paused is its call: it sends a pause (after
		// attach, unless stopOnEntry is false). Resume unless it has.
		px.connectStop = false
		if !px.keepConnectStop {
			px.mu.Unlock()
			px.inject("continue", map[string]any{"threadId": st.ThreadID})
			px.mu.Lock()
			return false
		}
		px.pauseSent = true
		return true
	}
	stepping := px.stepping
	px.stepping = false
	if stepping && st.Reason == "breakpoint" && st.Description == "temporary bp" {
		// rdbg ends some steps on a temporary breakpoint of its own.
		var body map[string]any
		if err := m.DecodeBody(&body); err == nil {
			body["reason"] = "step"
			delete(body, "description")
			delete(body, "text")
			m.Body, _ = json.Marshal(body)
		}
		return true
	}
	switch st.Reason {
	case "exception":
		// rdbg never removes an exception filter once set: decide here
		// whether the session's current filters want this stop.
		switch {
		case px.excWant["any"]:
		case px.excWant["RuntimeError"]:
			go px.checkException(m, st.ThreadID, st.Description)
			return false
		default:
			px.mu.Unlock()
			px.inject("continue", map[string]any{"threadId": st.ThreadID})
			px.mu.Lock()
			return false
		}
		px.lastException = st.Description
	case "pause":
		if px.pauseSent {
			return false
		}
		px.pauseSent = true
	case "breakpoint":
		if loc := rubyBPRE.FindStringSubmatch(st.Description); loc != nil {
			line, _ := strconv.Atoi(loc[2])
			want, ok := px.bps[filepath.Clean(loc[1])]
			if !ok {
				return true
			}
			bp := want[line]
			if bp == nil {
				px.mu.Unlock()
				px.inject("continue", map[string]any{"threadId": st.ThreadID})
				px.mu.Lock()
				return false
			}
			if bp.cond != "" || bp.hit != "" || bp.log != "" {
				go px.checkStop(m, st.ThreadID, bp)
				return false
			}
		}
	}
	return true
}

// rubyErrorTypeRE matches the class names of Ruby exceptions.
var rubyErrorTypeRE = regexp.MustCompile(`^(?:[A-Z]\w*::)*[A-Z]\w*(?:Error|Exception)$`)

// rubyEvalFailed tells an evaluation that raised from one whose value is
// an exception: rdbg answers both alike, with the exception as the
// result. A bare variable name whose value is an exception is a value;
// anything else that produced an exception (including a NameError about
// the name itself) failed.
func rubyEvalFailed(expr, result, typ string) bool {
	if !rubyErrorTypeRE.MatchString(typ) || !strings.HasPrefix(result, "#<"+typ) {
		return false
	}
	expr = strings.TrimSpace(expr)
	if rubyVarNameRE.MatchString(expr) {
		return (typ == "NameError" || typ == "NoMethodError") &&
			(strings.Contains(result, "`"+expr+"'") || strings.Contains(result, "'"+expr+"'"))
	}
	return true
}

// isLaunchAnswer reports whether m answers the session's launch.
func (px *rubyProxy) isLaunchAnswer(m *dap.Message) bool {
	px.mu.Lock()
	defer px.mu.Unlock()
	return m.RequestSeq == px.launchSeq && px.proc != nil
}

// processEvent tells the session the debuggee's pid: rdbg runs the
// script in its own process, so it is rdbg's.
func (px *rubyProxy) processEvent() {
	px.mu.Lock()
	proc, script := px.proc, px.script
	px.mu.Unlock()
	if proc == nil {
		return
	}
	px.event("process", map[string]any{"name": script, "systemProcessId": proc.Pid(), "isLocalProcess": true, "startMethod": "launch"})
}

// rubyKnownCommands are the requests rdbg 1.4 serves (plus setVariable,
// which the proxy answers); it drops the connection on any other.
var rubyKnownCommands = map[string]bool{
	"initialize": true, "launch": true, "attach": true, "setBreakpoints": true,
	"setFunctionBreakpoints": true, "setExceptionBreakpoints": true, "configurationDone": true,
	"disconnect": true, "continue": true, "next": true, "stepIn": true, "stepOut": true,
	"terminate": true, "pause": true, "reverseContinue": true, "stepBack": true, "threads": true,
	"stackTrace": true, "scopes": true, "variables": true, "evaluate": true, "source": true,
	"completions": true, "setVariable": true,
}

// answerUnknown answers a request rdbg does not know: exceptionInfo from
// the last exception stop, an error for the others.
func (px *rubyProxy) answerUnknown(m *dap.Message) {
	if m.Command == "exceptionInfo" {
		px.mu.Lock()
		text := px.lastException
		px.mu.Unlock()
		if text != "" {
			body, _ := json.Marshal(map[string]any{"exceptionId": rubyExceptionClass(text), "description": text, "breakMode": "always"})
			px.sendDown(&dap.Message{Type: "response", RequestSeq: m.Seq, Command: m.Command, Success: rubyTrue(), Body: body})
			return
		}
	}
	msg := fmt.Sprintf("%s is not supported by this rdbg", m.Command)
	body, _ := json.Marshal(map[string]any{"error": map[string]any{"id": 1, "format": msg, "showUser": true}})
	px.sendDown(&dap.Message{Type: "response", RequestSeq: m.Seq, Command: m.Command, Success: new(bool), Message: msg, Body: body})
}

// rubyExceptionClass finds the class in rdbg's exception text
// ("#<RuntimeError: boom> is raised.").
func rubyExceptionClass(text string) string {
	if strings.HasPrefix(text, "#<") {
		if end := strings.IndexAny(text, ":>"); end > 2 {
			return text[2:end]
		}
	}
	return "Exception"
}

// rubyVarNameRE accepts the variable names setVariable assigns: locals,
// @instance and $global variables.
var rubyVarNameRE = regexp.MustCompile(`^(?:[a-z_]|@{1,2}[A-Za-z_]|\$[A-Za-z_])[A-Za-z0-9_]*$`)

// setVariable answers a setVariable by evaluating "name = (value)" in
// the frame of the scope. It runs on its own goroutine.
func (px *rubyProxy) setVariable(req *dap.Message, ref int, name, value string) {
	fail := func(err error) {
		body, _ := json.Marshal(map[string]any{"error": map[string]any{"id": 1, "format": err.Error(), "showUser": true}})
		px.sendDown(&dap.Message{Type: "response", RequestSeq: req.Seq, Command: req.Command, Success: new(bool), Message: err.Error(), Body: body})
	}
	px.mu.Lock()
	frame, ok := px.scopeFrame[ref]
	px.mu.Unlock()
	switch {
	case !ok:
		fail(errors.New("only variables of a scope (locals, globals) can be set in Ruby sessions; assign members with evaluate"))
		return
	case !rubyVarNameRE.MatchString(name):
		fail(fmt.Errorf("%q is not a variable name", name))
		return
	case strings.TrimSpace(value) == "":
		fail(errors.New("no value"))
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := px.call(ctx, "evaluate", map[string]any{"expression": name + " = (" + value + ")", "frameId": frame, "context": "repl"})
	if err != nil {
		fail(err)
		return
	}
	var body map[string]any
	_ = resp.DecodeBody(&body)
	out, _ := json.Marshal(map[string]any{"value": body["result"], "type": body["type"], "variablesReference": body["variablesReference"]})
	px.sendDown(&dap.Message{Type: "response", RequestSeq: req.Seq, Command: req.Command, Success: rubyTrue(), Body: out})
}

// rubyBP is a breakpoint as the session set it.
type rubyBP struct {
	cond, hit, log string
	hits           int // times the condition held
}

// checkStop decides a stop at a breakpoint with a condition, a hit
// condition or a log message: it reports the stop, or logs and resumes.
// It runs on its own goroutine (it waits for rdbg's answers).
func (px *rubyProxy) checkStop(stop *dap.Message, thread int, bp *rubyBP) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resume := func() { px.inject("continue", map[string]any{"threadId": thread}) }
	frame, err := px.topFrame(ctx, thread)
	if err != nil {
		px.sendDown(stop) // cannot decide: show the stop
		return
	}
	if bp.cond != "" {
		v, err := px.eval(ctx, frame, bp.cond)
		if err == nil && (v == "false" || v == "nil") {
			resume()
			return
		}
	}
	px.mu.Lock()
	bp.hits++
	hits := bp.hits
	px.mu.Unlock()
	if bp.hit != "" && !rubyHitOK(bp.hit, hits) {
		resume()
		return
	}
	if bp.log != "" {
		px.event("output", map[string]any{"category": "console", "output": px.interpolate(ctx, frame, bp.log) + "\n"})
		resume()
		return
	}
	px.sendDown(stop)
}

// checkException reports an exception stop when the exception is a
// RuntimeError (the "RuntimeError" filter), and resumes otherwise. It
// runs on its own goroutine.
func (px *rubyProxy) checkException(stop *dap.Message, thread int, desc string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	class := rubyExceptionClass(desc)
	if frame, err := px.topFrame(ctx, thread); err == nil && rubyConstRE.MatchString(class) {
		if v, err := px.eval(ctx, frame, "("+class+" <= ::RuntimeError) == true"); err == nil && v == "false" {
			px.inject("continue", map[string]any{"threadId": thread})
			return
		}
	}
	px.mu.Lock()
	px.lastException = desc
	px.pauseSent = false
	px.mu.Unlock()
	px.sendDown(stop)
}

// rubyConstRE accepts a (namespaced) class name.
var rubyConstRE = regexp.MustCompile(`^(?:::)?[A-Z]\w*(?:::[A-Z]\w*)*$`)

// rubyHitOK evaluates a DAP hit condition ("5", "==5", ">=5", ">5",
// "<5", "<=5", "%5") against a hit count. A malformed one always stops.
func rubyHitOK(cond string, hits int) bool {
	c := strings.ReplaceAll(cond, " ", "")
	op := strings.TrimRight(c, "0123456789")
	n, err := strconv.Atoi(c[len(op):])
	if err != nil {
		return true
	}
	switch op {
	case "", "==", "=":
		return hits == n
	case ">=":
		return hits >= n
	case ">":
		return hits > n
	case "<":
		return hits < n
	case "<=":
		return hits <= n
	case "%":
		return n > 0 && hits%n == 0
	}
	return true
}

// interpolate replaces each {expression} of a log message by its value.
func (px *rubyProxy) interpolate(ctx context.Context, frame int, msg string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(msg, '{')
		if open < 0 {
			break
		}
		end := strings.IndexByte(msg[open:], '}')
		if end < 0 {
			break
		}
		b.WriteString(msg[:open])
		expr := msg[open+1 : open+end]
		v, err := px.eval(ctx, frame, expr)
		if err != nil {
			v = "<" + err.Error() + ">"
		}
		b.WriteString(v)
		msg = msg[open+end+1:]
	}
	b.WriteString(msg)
	return b.String()
}

// topFrame returns the id of thread's top frame.
func (px *rubyProxy) topFrame(ctx context.Context, thread int) (int, error) {
	resp, err := px.call(ctx, "stackTrace", map[string]any{"threadId": thread, "startFrame": 0, "levels": 1})
	if err != nil {
		return 0, err
	}
	var body struct {
		StackFrames []struct {
			ID int `json:"id"`
		} `json:"stackFrames"`
	}
	if err := resp.DecodeBody(&body); err != nil || len(body.StackFrames) == 0 {
		return 0, fmt.Errorf("no stack frames: %v", err)
	}
	return body.StackFrames[0].ID, nil
}

// eval evaluates expr in frame.
func (px *rubyProxy) eval(ctx context.Context, frame int, expr string) (string, error) {
	resp, err := px.call(ctx, "evaluate", map[string]any{"expression": expr, "frameId": frame, "context": "watch"})
	if err != nil {
		return "", err
	}
	var body struct {
		Result string `json:"result"`
	}
	if err := resp.DecodeBody(&body); err != nil {
		return "", err
	}
	return body.Result, nil
}

// call sends a request of the proxy's own to rdbg and waits for its answer.
func (px *rubyProxy) call(ctx context.Context, command string, args any) (*dap.Message, error) {
	b, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	ch := make(chan *dap.Message, 1)
	px.mu.Lock()
	px.injected++
	seq := rubyInjectedSeq + px.injected
	px.waiting[seq] = ch
	px.mu.Unlock()
	defer func() {
		px.mu.Lock()
		delete(px.waiting, seq)
		px.mu.Unlock()
	}()
	if err := px.sendUp(&dap.Message{Seq: seq, Type: "request", Command: command, Arguments: b}); err != nil {
		return nil, err
	}
	select {
	case m := <-ch:
		if !m.OK() {
			return nil, errors.New(m.ErrorText())
		}
		return m, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-px.done:
		return nil, dap.ErrClosed
	}
}

// finish reports the end of the program once rdbg's socket closed.
func (px *rubyProxy) finish() {
	px.finishOnce.Do(func() {
		select {
		case <-px.done:
			return // the session closed first
		default:
		}
		code := 0
		if px.proc != nil {
			t := time.NewTimer(3 * time.Second)
			select {
			case <-px.proc.Exited():
				var ee *exec.ExitError
				if err := px.proc.ExitErr(); errors.As(err, &ee) {
					code = ee.ExitCode()
				}
			case <-t.C:
			case <-px.done:
			}
			t.Stop()
			px.event("exited", map[string]any{"exitCode": code})
		}
		px.event("terminated", map[string]any{})
		// Let the session read the last events before the stream ends.
		go func() {
			t := time.NewTimer(2 * time.Second)
			defer t.Stop()
			select {
			case <-t.C:
			case <-px.done:
			}
			px.close()
		}()
	})
}
