package ide

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/toolkit"
)

// Actions answered by Restart.
const (
	ActionStart   = "start_scheduled"
	ActionRestart = "restart_scheduled"
)

// ProcessKind is the toolkit.OwnedProcess kind of run configurations.
const ProcessKind = "runConfiguration"

// ErrRunnerClosed is returned by Restart after Close.
var ErrRunnerClosed = errors.New("the run-configuration runner is closed")

// processRegistry is where the runner publishes its processes (for the
// logs capability and status): a toolkit.ProcessRegistry, or the session
// manager that embeds one.
type processRegistry interface {
	RegisterProcess(p toolkit.OwnedProcess)
	UnregisterProcess(pid int)
}

// SeveralRunningError says a configuration has more than one instance
// running, so a restart would have to guess which one to stop.
type SeveralRunningError struct {
	Name string
	PIDs []int
}

func (e *SeveralRunningError) Error() string {
	return fmt.Sprintf("%d instances of %q are running (pids %v)", len(e.PIDs), e.Name, e.PIDs)
}

// RunnerOptions tunes a Runner. Zero values are usable defaults.
type RunnerOptions struct {
	// StopGrace is how long a process has to exit after SIGTERM before
	// its process group gets SIGKILL (default 3s).
	StopGrace time.Duration
	// StartupWait is how long Restart watches a new process for an
	// immediate exit, to report it (default 300ms; negative = none).
	StartupWait time.Duration
	// OutputLimit bounds each process's output ring (bytes, default 1 MiB).
	OutputLimit int
	Now         func() time.Time
	// MaxProcesses caps the processes running at once (0: no cap), as
	// --max-processes sets it; a restart replaces its instance.
	MaxProcesses int
}

// Runner starts run configurations as processes the server owns: each
// in its own process group, its stdout and stderr captured in a
// toolkit.OutputRing and published with RegisterProcess. An exited
// process stays registered (its output readable) until its
// configuration is restarted or the runner closes.
//
// A Runner is safe for concurrent use. Restarts of one configuration
// are serialized; different configurations restart in parallel. Each
// process has one goroutine waiting for it.
type Runner struct {
	reg  processRegistry
	opts RunnerOptions

	mu     sync.Mutex
	procs  map[string][]*runProc // by configuration key
	locks  map[string]chan struct{}
	closed bool
	// stopped is closed when the first Close has stopped everything.
	stopped chan struct{}
}

// runProc is one started process. Fields after done are written once
// before done is closed.
type runProc struct {
	name, source string
	kind         string
	pid          int
	command      []string
	cwd          string
	started      time.Time
	out          *toolkit.OutputRing
	cmd          *exec.Cmd
	done         chan struct{}
	exitCode     int
	exitErr      error
}

func (p *runProc) running() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// NewRunner returns a runner publishing its processes to reg (may be nil).
func NewRunner(reg processRegistry, opts RunnerOptions) *Runner {
	if opts.StopGrace <= 0 {
		opts.StopGrace = 3 * time.Second
	}
	if opts.StartupWait == 0 {
		opts.StartupWait = 300 * time.Millisecond
	}
	if opts.OutputLimit <= 0 {
		opts.OutputLimit = 1 << 20
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Runner{reg: reg, opts: opts, procs: map[string][]*runProc{}, locks: map[string]chan struct{}{}, stopped: make(chan struct{})}
}

// RunResult is the answer of Restart.
type RunResult struct {
	Action            string   `json:"action"`
	ConfigurationName string   `json:"configurationName"`
	Source            string   `json:"source"`
	PID               int      `json:"pid"`
	StoppedPID        int      `json:"stoppedPid,omitempty"`
	Command           []string `json:"command"`
	Cwd               string   `json:"cwd,omitempty"`
	// Exited is set when the process ended within the startup wait.
	Exited   bool     `json:"exited,omitempty"`
	ExitCode *int     `json:"exitCode,omitempty"`
	Output   []string `json:"output,omitempty"`
	// OtherInstances are processes dbg did not start that run the same
	// program in the same directory (started from an IDE or a shell).
	OtherInstances []int `json:"otherInstances,omitempty"`
}

// ProcInfo describes a started process.
type ProcInfo struct {
	Name      string    `json:"name"`
	Source    string    `json:"source"`
	PID       int       `json:"pid"`
	Running   bool      `json:"running"`
	StartedAt time.Time `json:"startedAt"`
	ExitCode  *int      `json:"exitCode,omitempty"`
}

// lock serializes operations on one configuration.
func (r *Runner) lock(ctx context.Context, key string) (func(), error) {
	r.mu.Lock()
	ch, ok := r.locks[key]
	if !ok {
		ch = make(chan struct{}, 1)
		r.locks[key] = ch
	}
	r.mu.Unlock()
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Restart starts cfg, first stopping its running instance if there is
// one. It refuses when several instances run.
func (r *Runner) Restart(ctx context.Context, cfg RunConfiguration) (RunResult, error) {
	if !cfg.Runnable() {
		return RunResult{}, fmt.Errorf("%q cannot be run: %s", cfg.Name, cfg.Unsupported)
	}
	unlock, err := r.lock(ctx, cfg.key())
	if err != nil {
		return RunResult{}, err
	}
	defer unlock()

	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return RunResult{}, ErrRunnerClosed
	}
	var alive, dead []*runProc
	for _, p := range r.procs[cfg.key()] {
		if p.running() {
			alive = append(alive, p)
		} else {
			dead = append(dead, p)
		}
	}
	r.mu.Unlock()
	if len(alive) > 1 {
		e := &SeveralRunningError{Name: cfg.Name}
		for _, p := range alive {
			e.PIDs = append(e.PIDs, p.pid)
		}
		return RunResult{}, e
	}
	if n := r.opts.MaxProcesses; n > 0 && len(alive) == 0 {
		if running := r.runningCount(); running >= n {
			return RunResult{}, toolkit.NewError(toolkit.CodeInvalidState,
				fmt.Sprintf("this server runs at most %d processes (--max-processes %d), and %d run", n, n, running),
				"stop one you no longer need, or restart the server with a larger --max-processes")
		}
	}
	res := RunResult{Action: ActionStart, ConfigurationName: cfg.Name, Source: cfg.Source, Command: cfg.Command, Cwd: cfg.Cwd}
	if len(alive) == 1 {
		res.Action = ActionRestart
		res.StoppedPID = alive[0].pid
		if err := r.stop(ctx, alive[0]); err != nil {
			return RunResult{}, fmt.Errorf("stop pid %d: %w", alive[0].pid, err)
		}
		dead = append(dead, alive[0])
	}
	r.forget(cfg.key(), dead)

	p, err := r.start(cfg)
	if err != nil {
		return RunResult{}, err
	}
	res.PID = p.pid
	res.OtherInstances = otherInstances(cfg, r.ownGroups())
	if r.opts.StartupWait > 0 {
		t := time.NewTimer(r.opts.StartupWait)
		defer t.Stop()
		select {
		case <-p.done:
			res.Exited = true
			code := p.exitCode
			res.ExitCode = &code
			lines, _, _ := p.out.Since(0, 20, "")
			for _, l := range lines {
				res.Output = append(res.Output, l.Text)
			}
		case <-t.C:
		case <-ctx.Done():
		}
	}
	return res, nil
}

// runningCount is how many of the runner's processes run.
func (r *Runner) runningCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, ps := range r.procs {
		for _, p := range ps {
			if p.running() {
				n++
			}
		}
	}
	return n
}

// Stop ends the running instances of cfg (whole process groups) and
// returns their pids. They stay registered, their output readable,
// until the configuration is restarted.
func (r *Runner) Stop(ctx context.Context, cfg RunConfiguration) ([]int, error) {
	unlock, err := r.lock(ctx, cfg.key())
	if err != nil {
		return nil, err
	}
	defer unlock()
	r.mu.Lock()
	var alive []*runProc
	for _, p := range r.procs[cfg.key()] {
		if p.running() {
			alive = append(alive, p)
		}
	}
	r.mu.Unlock()
	var pids []int
	var errs []error
	for _, p := range alive {
		if err := r.stop(ctx, p); err != nil {
			errs = append(errs, err)
		}
		pids = append(pids, p.pid)
	}
	return pids, errors.Join(errs...)
}

// forget drops exited processes of a configuration.
func (r *Runner) forget(key string, gone []*runProc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	keep := r.procs[key][:0]
	for _, p := range r.procs[key] {
		drop := false
		for _, g := range gone {
			drop = drop || g == p
		}
		if drop {
			if r.reg != nil {
				r.reg.UnregisterProcess(p.pid)
			}
		} else {
			keep = append(keep, p)
		}
	}
	if len(keep) == 0 {
		delete(r.procs, key)
	} else {
		r.procs[key] = keep
	}
}

// ringWriter feeds one category of a process's output into its ring.
type ringWriter struct {
	ring     *toolkit.OutputRing
	category string
}

func (w ringWriter) Write(b []byte) (int, error) {
	w.ring.Write(w.category, string(b))
	return len(b), nil
}

// start launches cfg in a new process group and records it.
func (r *Runner) start(cfg RunConfiguration) (*runProc, error) {
	cmd := exec.Command(cfg.Command[0], cfg.Command[1:]...)
	cmd.Dir = cfg.Cwd
	if cmd.Dir != "" {
		if st, err := os.Stat(cmd.Dir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("working directory %s does not exist", cmd.Dir)
		}
	}
	cmd.Env = os.Environ()
	keys := make([]string, 0, len(cfg.Env))
	for k := range cfg.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		cmd.Env = append(cmd.Env, k+"="+cfg.Env[k])
	}
	ring := toolkit.NewOutputRing(r.opts.OutputLimit, r.opts.Now)
	cmd.Stdin = nil // /dev/null
	cmd.Stdout = ringWriter{ring, "stdout"}
	cmd.Stderr = ringWriter{ring, "stderr"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	// Grandchildren that keep the pipes open must not block Wait.
	cmd.WaitDelay = 2 * time.Second

	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, ErrRunnerClosed
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", cfg.Command[0], err)
	}
	p := &runProc{name: cfg.Name, source: cfg.Source, kind: cfg.Kind, pid: cmd.Process.Pid, command: cfg.Command, cwd: cfg.Cwd,
		started: r.opts.Now(), out: ring, cmd: cmd, done: make(chan struct{})}
	ring.Write("console", fmt.Sprintf("started pid %d: %s\n", p.pid, strings.Join(cfg.Command, " ")))
	r.procs[cfg.key()] = append(r.procs[cfg.key()], p)
	if r.reg != nil {
		r.reg.RegisterProcess(toolkit.OwnedProcess{Name: cfg.Name, Kind: ProcessKind, PID: p.pid, Output: ring})
	}
	go func() {
		err := cmd.Wait()
		ring.Flush()
		p.exitErr = err
		p.exitCode = 0
		if cmd.ProcessState != nil {
			p.exitCode = cmd.ProcessState.ExitCode()
		}
		ring.Write("console", fmt.Sprintf("process %d exited (code %d)\n", p.pid, p.exitCode))
		close(p.done)
	}()
	return p, nil
}

// stop ends p's process group politely, then firmly, and waits for it.
// The polite signal is SIGTERM, or SIGINT for Gradle, whose client
// cancels the build (and the program its daemon runs) on an interrupt.
func (r *Runner) stop(ctx context.Context, p *runProc) error {
	polite := syscall.SIGTERM
	if p.kind == KindGradle {
		polite = syscall.SIGINT
	}
	// The SIGKILL after the grace sweeps the group: the leader may be gone
	// while children linger.
	proc.StopGroup(ctx, p.pid, proc.StopOptions{Signal: polite, Grace: r.opts.StopGrace, Exited: p.done})
	kt := time.NewTimer(5 * time.Second)
	defer kt.Stop()
	select {
	case <-p.done:
		return nil
	case <-kt.C:
		return fmt.Errorf("process %d did not exit after SIGKILL", p.pid)
	}
}

// ownGroups returns the process groups of the runner's live processes.
func (r *Runner) ownGroups() map[int]bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[int]bool{}
	for _, ps := range r.procs {
		for _, p := range ps {
			if p.running() {
				out[p.pid] = true
			}
		}
	}
	return out
}

// Processes lists the processes the runner started and still tracks.
func (r *Runner) Processes() []ProcInfo {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []ProcInfo
	for _, ps := range r.procs {
		for _, p := range ps {
			pi := ProcInfo{Name: p.name, Source: p.source, PID: p.pid, Running: p.running(), StartedAt: p.started}
			if !pi.Running {
				code := p.exitCode
				pi.ExitCode = &code
			}
			out = append(out, pi)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out
}

// Output returns the output ring of a tracked process.
func (r *Runner) Output(pid int) (*toolkit.OutputRing, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, ps := range r.procs {
		for _, p := range ps {
			if p.pid == pid {
				return p.out, true
			}
		}
	}
	return nil, false
}

// Close stops every process (whole process groups) and refuses new
// starts. It returns when they are gone or ctx ends; a Close while
// another runs waits for that one.
func (r *Runner) Close(ctx context.Context) error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		select {
		case <-r.stopped:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	r.closed = true
	defer close(r.stopped)
	var all []*runProc
	for _, ps := range r.procs {
		all = append(all, ps...)
	}
	r.procs = map[string][]*runProc{}
	r.mu.Unlock()
	var wg sync.WaitGroup
	errs := make([]error, len(all))
	for i, p := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = r.stop(ctx, p)
			if r.reg != nil {
				r.reg.UnregisterProcess(p.pid)
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}
