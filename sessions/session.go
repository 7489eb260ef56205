package sessions

import (
	"context"
	"sync"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/toolkit"
)

// State is a session's state (docs/contract.md, "Debug sessions").
type State string

const (
	StateCreated      State = "created"
	StateInitializing State = "initializing"
	StateRunning      State = "running"
	StatePaused       State = "paused"
	StateTerminated   State = "terminated"
	StateError        State = "error"
	// StateDetached is an attach session that let go of its target, which
	// runs on: the session has ended as terminated has, with no stop.
	StateDetached State = "detached"
)

// Stopped reports whether a session in state st shows a stop: paused, or
// postmortem (a core file).
func (st State) Stopped() bool { return st == StatePaused || st == StatePostmortem }

// Location is a place in the debuggee's source.
type Location struct {
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	Function string `json:"function,omitempty"`
	Text     string `json:"text,omitempty"` // the source line, when readable
}

// StopInfo describes the last stop.
type StopInfo struct {
	Reason      string    `json:"reason"`
	ThreadID    int       `json:"threadId,omitempty"`
	Description string    `json:"description,omitempty"`
	Text        string    `json:"text,omitempty"` // exception message
	Location    *Location `json:"location,omitempty"`
	// Unlocated says why Location is absent: the stack of the stop could
	// not be read.
	Unlocated     string    `json:"unlocated,omitempty"`
	HitBreakpoint []int     `json:"hitBreakpointIds,omitempty"`
	Time          time.Time `json:"time"`
	// Data is what a data breakpoint's stop saw (reason "data breakpoint").
	Data *DataChange `json:"data,omitempty"`
}

// SessionInfo is a session's summary.
type SessionInfo struct {
	ID         string    `json:"sessionId"`
	Name       string    `json:"name"`
	Language   string    `json:"language"`
	State      State     `json:"state"`
	Mode       string    `json:"mode,omitempty"` // launch | attach
	Program    string    `json:"program,omitempty"`
	Cwd        string    `json:"cwd,omitempty"`
	PID        int       `json:"pid,omitempty"`        // the debuggee, when known
	AdapterPID int       `json:"adapterPid,omitempty"` // the adapter process, when not built in
	CreatedAt  time.Time `json:"createdAt"`
	LastStop   *StopInfo `json:"lastStop,omitempty"`
	ExitCode   *int      `json:"exitCode,omitempty"`
	Reason     string    `json:"reason,omitempty"` // why it terminated or failed
	// ParentID is the session whose program started this one's (a child
	// process, or the program js-debug runs for its dispatcher); Command
	// is a child's command line; Children are the child sessions.
	ParentID string   `json:"parentSessionId,omitempty"`
	Command  []string `json:"command,omitempty"`
	Children []string `json:"children,omitempty"`
	Group    string   `json:"group,omitempty"` // the group it was started in (a compound)
	// Interpreter is the runtime the session runs on and why it was
	// picked (Python), when the adapter says.
	Interpreter *adapters.Interpreter `json:"interpreter,omitempty"`
	// Core is the core file of a post-mortem session.
	Core *CoreInfo `json:"core,omitempty"`
	// Owner is the client the session belongs to over HTTP (owners.go).
	Owner *Owner `json:"owner,omitempty"`

	seq int
}

// Session is one debug session: a DAP connection to an adapter and what
// the manager knows about the debuggee.
//
// Goroutines: the DAP connection's read goroutine delivers events to
// onEvent, which only updates fields under mu and wakes waiters (it never
// sends a request). Tool calls run on the caller's goroutine and block
// only on DAP requests (each with a deadline) or on waits that select on
// their context. Several tool calls may run on one session at once.
type Session struct {
	m        *Manager
	id       string
	seq      int
	name     string
	language string
	adapter  adapters.Adapter
	output   *toolkit.OutputRing
	created  time.Time
	parentID string
	owner    *Owner // the client it belongs to (owners.go); nil: none
	req      CreateRequest
	mark     string // in a launched debuggee's environment (mark.go)

	bg   sync.WaitGroup  // background work (process tracking); close waits for it
	life context.Context // ends when the session closes; background work watches it
	end  context.CancelFunc

	seen seenSources // source files its stacks showed (confine.go)

	mu         sync.Mutex
	state      State
	reason     string
	target     adapters.Target
	conn       *dap.Conn
	ep         *adapters.Endpoint
	caps       godap.Capabilities
	live       liveCaps // the built-in adapters' capabilities beyond DAP's
	pid        int
	exitCode   *int
	lastStop   *StopInfo
	stopSeq    int           // incremented on every stop
	stepping   bool          // the program runs from a step (until its stop)
	pauseAsked bool          // a pause was asked for since the last stop
	changed    chan struct{} // closed and replaced on every change
	initDone   chan struct{} // closed by the "initialized" event
	threads    map[int]string
	bps        *breakpointSet
	excMode    string // breakOnExceptions in force
	launchReq  *StartRequest
	children   []string
	cmdline    []string  // a child's command line, once its pid is known
	owned      bool      // a child of a launch: its process is the server's to end
	core       *CoreInfo // a post-mortem session's core file (postmortem.go)
	shared     *Session  // a shared child's parent, whose connection it uses (shared.go)
	family     *family   // a parent's shared family, once it has a shared child
	heldStop   *StopInfo // lastStop, when it is the stop of another member of the family
	group      string    // the group it was started in (groups.go)
	closing    bool
	detached   bool                   // ended by a detach: shown as StateDetached
	tracked    map[int]string         // pid -> start time of processes the session owns
	topFrame   frameCache             // the stopped thread's top user frame
	resolving  *stopRead              // the last stop's stack read, while it is under way
	pick       framePick              // the frame calls without a frameId act on (framepick.go)
	views      frameViews             // each frame's locals at its last stop answer (changed.go)
	told       map[string]bool        // what the session's answers said once (Told)
	reads      stopReads              // scopes and variables read at the current stop (stopreads.go)
	syncMus    map[string]*sync.Mutex // per file / kind: serialise breakpoint syncs (see syncLock)

	// adapterDied: the adapter's stream ended before the program did
	// (see onConnClosed); a launch that ends so has failed.
	adapterDied bool

	debuggee     debuggeeID // the watched debuggee process (see debuggee.go)
	recordWarned bool       // the process record could not be written, and it was said

	src sourceCache // the source files stops show

	remote   *Reach   // the way to a program on another machine (remote.go)
	warnings []string // the last attach's warnings
}

// frameCache remembers the top frame of one stop, so evaluate and
// scopes need no stackTrace round trip, and changed knows the frame.
type frameCache struct {
	seq, thread, id int
	conn            *dap.Conn
	function, path  string
	// callers sums up the frames below this one (function, file, line):
	// they stay put while the frame lives. index is the frame's position
	// in the stack (0: innermost); deep says the stack read was cut
	// before its bottom while the function recurs in it, so only its
	// depth tells its frames apart.
	callers uint64
	index   int
	deep    bool
}

func newSession(m *Manager, lang string, a adapters.Adapter, req CreateRequest) *Session {
	life, end := context.WithCancel(context.Background())
	return &Session{
		life: life, end: end,
		m: m, language: lang, adapter: a, name: req.Name, req: req,
		output:  toolkit.NewOutputRing(m.cfg.OutputLimit, m.cfg.Now),
		created: m.cfg.Now(), state: StateCreated,
		changed: make(chan struct{}), threads: map[int]string{},
		bps: newBreakpointSet(), mark: newMark(),
	}
}

// background runs f on a goroutine that close waits for.
func (s *Session) background(f func()) {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return
	}
	s.bg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.bg.Done()
		f()
	}()
}

// ID returns the session id.
func (s *Session) ID() string { return s.id }

// Language returns the canonical language.
func (s *Session) Language() string { return s.language }

// Traits returns what the session's adapter declares about its language.
func (s *Session) Traits() adapters.Traits { return s.adapter.Traits() }

// Output returns the session's captured output (debuggee and adapter).
func (s *Session) Output() *toolkit.OutputRing { return s.output }

// State returns the current state.
func (s *Session) State() State {
	s.observe()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shownStateLocked()
}

// shownStateLocked is the state as answers show it: a session ended by a
// detach is detached. Callers hold mu.
func (s *Session) shownStateLocked() State {
	if s.detached && s.state == StateTerminated {
		return StateDetached
	}
	return s.state
}

// Ended reports whether a session in state st has ended: terminated,
// failed or detached.
func (st State) Ended() bool {
	return st == StateTerminated || st == StateError || st == StateDetached
}

// Info returns the session summary, once the debuggee's process was
// looked at (a paused session whose debuggee is gone has ended).
func (s *Session) Info() SessionInfo {
	s.observe()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.infoLocked()
}

// checkedInfo is the session summary once checkDebuggee ran: one look
// at the debuggee's process. It reports whether the debuggee was found
// gone (the session has then ended).
func (s *Session) checkedInfo(ctx context.Context) (SessionInfo, bool) {
	gone := s.checkDebuggee(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.infoLocked(), gone
}

// PID is the debuggee's process id as the session knows it (0: not
// known), without looking at the process: what an audit line names.
func (s *Session) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pid == 0 && s.target.Mode == adapters.Attach && !s.detached {
		return s.target.PID
	}
	return s.pid
}

// infoLocked is the session summary. Callers hold mu.
func (s *Session) infoLocked() SessionInfo {
	info := SessionInfo{ID: s.id, Name: s.name, Language: s.language, State: s.shownStateLocked(), Reason: s.reason,
		CreatedAt: s.created, Mode: string(s.target.Mode), Program: s.target.Program, Cwd: s.target.Cwd,
		PID: s.pid, ExitCode: s.exitCode, ParentID: s.parentID, Group: s.group, Owner: s.owner, seq: s.seq}
	if info.PID == 0 && s.target.Mode == adapters.Attach && !s.detached {
		info.PID = s.target.PID // the process attached to, until the adapter names it
	}
	if len(s.children) > 0 {
		info.Children = append([]string(nil), s.children...)
	}
	if s.core != nil {
		info.Core = s.core
		if s.state == StatePaused {
			info.State = StatePostmortem
		}
	}
	if s.parentID != "" && s.pid > 0 {
		if s.cmdline == nil {
			s.cmdline, _ = proc.Cmdline(s.pid)
		}
		info.Command = s.cmdline
	}
	if s.ep != nil && s.ep.Process != nil {
		info.AdapterPID = s.ep.Process.Pid()
	}
	if s.ep != nil {
		info.Interpreter = s.ep.Interpreter
	}
	if s.lastStop != nil && !s.detached {
		ls := *s.lastStop
		info.LastStop = &ls
	}
	return info
}

// Told reports whether an earlier answer of the session already gave
// what (a field that does not change, such as the interpreter), and
// records that this one gives it.
func (s *Session) Told(what string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.told[what] {
		return true
	}
	if s.told == nil {
		s.told = map[string]bool{}
	}
	s.told[what] = true
	return false
}

// notifyLocked wakes every waiter. Callers hold mu.
func (s *Session) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
	s.m.wake()
}

// setStateLocked changes state and wakes waiters. Callers hold mu.
func (s *Session) setStateLocked(st State, reason string) {
	if s.state == StateTerminated && st != StateTerminated {
		return // terminal
	}
	s.state = st
	if reason != "" {
		s.reason = reason
	}
	s.notifyLocked()
	s.m.watch.post(s.id, ChangeState)
}

// connection returns the DAP connection or a clear error.
func (s *Session) connection() (*dap.Conn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.conn == nil {
		return nil, toolkit.NewError(toolkit.CodeInvalidState, "session "+s.id+" has not started", "call start_debugging (launch) or attach_to_process first").WithNext(toolkit.NextCreateDebugSession)
	}
	if s.state == StateTerminated {
		return nil, toolkit.NewError(toolkit.CodeInvalidState, "session "+s.id+" has terminated: "+s.reason, "restart it with restart_debugging, or close it and create a new one")
	}
	return s.conn, nil
}

// request sends a DAP request; one without a deadline gets the
// connection's, the manager's RequestTimeout.
func (s *Session) request(ctx context.Context, command string, args any, out any) error {
	c, err := s.connection()
	if err != nil {
		return err
	}
	s.beforeRequest(command)
	done, err := s.onTarget(ctx, command)
	if err != nil {
		return err
	}
	resp, err := c.Request(ctx, command, args) // the connection bounds it by RequestTimeout
	done()
	if err != nil || command == "evaluate" {
		// The adapter failed, or answered for a debuggee that is gone.
		if err := s.requestError(ctx, err); err != nil {
			return err
		}
	}
	if out != nil {
		return resp.DecodeBody(out)
	}
	return nil
}

// requestError is the error of a request that failed with err (nil: that
// succeeded): the session's end when the debuggee is found gone, else err.
func (s *Session) requestError(ctx context.Context, err error) error {
	if s.checkDebuggee(ctx) {
		if _, cerr := s.connection(); cerr != nil {
			return cerr
		}
	}
	return err
}

// DefaultRequestTimeout bounds every DAP request that has no tighter
// deadline, unless Config.RequestTimeout says otherwise.
const DefaultRequestTimeout = 15 * time.Second
