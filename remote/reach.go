package remote

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

// Config is what the remote capability depends on.
type Config struct {
	// Adapters declares the languages (their remote starts, their marks).
	Adapters *adapters.Registry
	// Runner runs ssh, docker and kubectl (nil: [ExecRunner]).
	Runner Runner
	// PrivateDir returns a folder private to this user, checked, where
	// ssh's control sockets go (each in a folder of its own).
	PrivateDir func() (string, error)
	// SSHConfig, when set, is the ssh_config file ssh reads instead of
	// the user's (-F; DBG_SSH_CONFIG).
	SSHConfig string
}

// Remote is the capability that debugs programs on other machines: it
// reaches them for the session manager ([sessions.Reacher]), lists their
// processes (list_remote_processes) and reports the client tools in
// get_debug_tools_status. It is safe for concurrent use.
type Remote struct {
	cfg    Config
	status *statusCache

	mu    sync.Mutex
	known map[string][]string // per target, the verdicts its start scripts said
}

// verdicts are those the start scripts said on target key.
func (x *Remote) verdicts(key string) []string {
	x.mu.Lock()
	defer x.mu.Unlock()
	return slices.Clone(x.known[key])
}

// remember keeps the verdicts a start script said on target key, at
// most 16 per target.
func (x *Remote) remember(key string, vs []string) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.known == nil {
		x.known = map[string][]string{}
	}
	for _, v := range vs {
		if v != "" && !slices.Contains(x.known[key], v) {
			x.known[key] = append(x.known[key], v)
		}
	}
	if n := len(x.known[key]); n > 16 {
		x.known[key] = x.known[key][n-16:]
	}
}

// New returns the remote capability.
func New(cfg Config) *Remote {
	if cfg.Runner == nil {
		cfg.Runner = ExecRunner{}
	}
	if cfg.PrivateDir == nil {
		cfg.PrivateDir = func() (string, error) { return "", fmt.Errorf("no private folder configured") }
	}
	return &Remote{cfg: cfg, status: newStatusCache(cfg.Runner)}
}

// open reaches the target of v.
func (x *Remote) open(ctx context.Context, v sessions.Via) (target, error) {
	if err := checkVia(v); err != nil {
		return nil, err
	}
	switch v.Kind {
	case KindSSH:
		return dialSSH(ctx, x.cfg, v)
	case KindDocker:
		return dialDocker(ctx, x.cfg, v)
	}
	return dialKube(ctx, x.cfg, v)
}

// Reach implements sessions.Reacher: it reaches the target, starts the
// language's debug server there (or finds the port the program serves
// one on), forwards it to this machine's loopback, and picks the path
// mappings: the caller's, else those proposed from the program's
// executable and the source files its command line names.
func (x *Remote) Reach(ctx context.Context, r sessions.ReachRequest) (*sessions.Reach, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout(r.Via))
	defer cancel()
	tg, err := x.open(ctx, r.Via)
	if err != nil {
		return nil, err
	}
	w := &way{x: x, tg: tg, reach: &sessions.Reach{Info: sessions.RemoteInfo{Via: String(r.Via)}}}
	if err := w.open(ctx, r); err != nil {
		w.close(context.WithoutCancel(ctx))
		return nil, err
	}
	w.reach.Close = w.close
	w.reach.Explain = func(err error) error { return explain(tg, err) }
	w.reach.Propose = func(paths []string) ([]adapters.PathMapping, string) { return propose(r.Project, paths) }
	return w.reach, nil
}

// way is one opened reach: the target and what was started on it.
type way struct {
	x       *Remote
	tg      target
	reach   *sessions.Reach
	started *started
}

func (w *way) open(ctx context.Context, r sessions.ReachRequest) error {
	lang := r.Adapter.Language()
	rm := r.Adapter.Traits().Remote
	if r.PID != 0 && !rm.Reachable() {
		why := "dbg has no remote attach by pid for " + lang
		if rm != nil && rm.Refused != "" {
			why = rm.Refused
		}
		return toolkit.NewError(toolkit.CodeUnsupported, why, "attach with via and the port of a debug server you started on the target")
	}
	if r.PID == 0 && r.Port == 0 {
		return toolkit.NewError(toolkit.CodeInvalidArgument, "a via needs processId (the program's pid on the target) or port (a debug server listening on its loopback)",
			"list_remote_processes lists the target's processes")
	}
	if err := w.debugImage(ctx, r); err != nil {
		return err
	}
	var proc scriptResult
	switch {
	case r.PID == 0:
		if err := w.forwardPort(ctx, "127.0.0.1", r.Port, fmt.Sprintf("a debug server on port %d", r.Port)); err != nil {
			return err
		}
	case rm.Port != nil:
		out, err := w.tg.exec(ctx, describeScript, append([]string{strconv.Itoa(r.PID), ""}, envNames(rm)...)...)
		if err != nil {
			return err
		}
		if proc = parseScript(out); proc.fail != "" {
			return toolkit.NewError(toolkit.CodeInvalidArgument, w.tg.tool()+": "+proc.fail, "list_remote_processes lists the target's processes")
		}
		if err := w.programPort(ctx, r, rm, proc); err != nil {
			return err
		}
	default:
		key := String(r.Via)
		st, desc, err := startServer(ctx, w.tg, lang, rm, r.PID, w.x.verdicts(key))
		if err != nil {
			return err
		}
		proc, w.started = desc, st
		w.x.remember(key, st.verdicts)
		addr, err := w.tg.forward(ctx, "127.0.0.1", st.port)
		if err != nil {
			return err
		}
		w.reach.Remote = &adapters.RemoteEnd{Addr: addr, PID: r.PID, Exe: proc.exe}
		w.reach.Info.Server = st.command
		w.reach.Info.Forward = fmt.Sprintf("%s → 127.0.0.1:%d on the target", addr, st.port)
		w.reach.Info.Warnings = append(w.reach.Info.Warnings, st.warnings...)
	}
	w.mappings(r, proc)
	return nil
}

// debugImage moves a kubernetes via with an image into an ephemeral
// container of that image, which shares the app container's processes:
// everything after runs there (the app's image may not even have sh).
func (w *way) debugImage(ctx context.Context, r sessions.ReachRequest) error {
	kt, ok := w.tg.(*kubeTarget)
	if !ok || r.Via.Image == "" {
		return nil
	}
	warn, err := kt.debugContainer(ctx)
	if err != nil {
		return err
	}
	w.reach.Info.Warnings = append(w.reach.Info.Warnings, warn)
	return nil
}

// programPort forwards the port the program serves a debugger on
// (signalled first when the language says so), warning when it listens
// beyond the target's loopback.
func (w *way) programPort(ctx context.Context, r sessions.ReachRequest, rm *adapters.Remote, proc scriptResult) error {
	host, port, err := rm.Port(proc.argv, proc.env)
	if err != nil {
		return toolkit.NewError(toolkit.CodeAttachFailed, fmt.Sprintf("process %d on the target: %v", r.PID, err), "restart the program as the message says, then attach again").
			WithNext(toolkit.NextReconnect)
	}
	if r.Port != 0 {
		port = r.Port
	}
	out, err := w.tg.exec(ctx, listenScript, strconv.Itoa(port), "10", strconv.Itoa(r.PID), rm.Signal)
	if err != nil {
		return err
	}
	if res := parseScript(out); res.fail != "" {
		return toolkit.NewError(toolkit.CodeAttachFailed, res.fail, fmt.Sprintf("check that process %d serves a debugger on port %d", r.PID, port)).WithNext(toolkit.NextReconnect)
	}
	if rm.Signal != "" {
		w.reach.Info.Server = fmt.Sprintf("kill -s %s %d (the program opens its debugger port %d)", rm.Signal, r.PID, port)
	}
	to := host
	switch {
	case host == "" || host == "*" || host == "0.0.0.0" || host == "::":
		to = "127.0.0.1"
		w.reach.Info.Warnings = append(w.reach.Info.Warnings, fmt.Sprintf("the program's debugger port %d listens on every address of the target: whoever reaches it can run code in the program; bind it to 127.0.0.1", port))
	case !isLoopback(host):
		w.reach.Info.Warnings = append(w.reach.Info.Warnings, fmt.Sprintf("the program's debugger port listens on %s, beyond the target's loopback: whoever reaches it can run code in the program; bind it to 127.0.0.1", host))
	}
	return w.forwardPort(ctx, to, port, fmt.Sprintf("port %d", port))
}

// forwardPort forwards host:port of the target and points the attach at
// it.
func (w *way) forwardPort(ctx context.Context, host string, port int, what string) error {
	addr, err := w.tg.forward(ctx, host, port)
	if err != nil {
		return err
	}
	h, p, _ := net.SplitHostPort(addr)
	w.reach.Host, w.reach.RemotePort = h, port
	w.reach.Port, _ = strconv.Atoi(p)
	w.reach.Info.Forward = fmt.Sprintf("%s → %s (%s on the target)", addr, hostPort(host, port), what)
	return nil
}

// mappings picks the path mappings: the caller's, else those proposed
// from the executable (for a compiled program) and the source files of
// the command line; and the local copy of the executable.
func (w *way) mappings(r sessions.ReachRequest, proc scriptResult) {
	info := &w.reach.Info
	traits := r.Adapter.Traits()
	if len(r.PathMappings) > 0 {
		w.reach.PathMappings, info.Mapping = r.PathMappings, "given"
	} else if r.PID != 0 {
		var paths []string
		if traits.Native || (traits.Remote != nil && len(traits.Remote.Marks) > 0) {
			paths = append(paths, proc.exe)
		}
		paths = append(paths, sourceArgs(proc, traits.Extensions)...)
		w.reach.PathMappings, info.Mapping = propose(r.Project, paths)
	}
	if info.Mapping == "" {
		info.Mapping = "none: the target's paths are used as they are"
	}
	info.PathMappings = w.reach.PathMappings
	if end := w.reach.Remote; end != nil && end.Exe != "" {
		local, _ := adapters.MapToLocal(w.reach.PathMappings, end.Exe)
		if _, err := os.Stat(local); err == nil {
			end.LocalExe = local
		} else if traits.Native {
			info.Warnings = append(info.Warnings, fmt.Sprintf("no local copy of %s: lldb reads its symbols from the target, so frames may have no source; pass pathMappings whose localRoot holds the program", end.Exe))
		}
	}
}

// sourceArgs are the command line's arguments that name source files of
// the language (absolute, or relative to the program's folder).
func sourceArgs(proc scriptResult, exts []string) []string {
	var out []string
	for _, a := range proc.argv {
		if strings.HasPrefix(a, "-") || !slices.Contains(exts, strings.ToLower(filepath.Ext(a))) {
			continue
		}
		if !strings.HasPrefix(a, "/") {
			if proc.cwd == "" {
				continue
			}
			a = filepath.Join(proc.cwd, a)
		}
		out = append(out, filepath.Clean(a))
	}
	return out
}

// close stops what was started on the target and closes the way.
func (w *way) close(ctx context.Context) {
	teardown(ctx, w.tg, w.started)
	w.tg.close(ctx)
}

// explain adds to an attach failure what the target needs when it is a
// refused trace.
func explain(tg target, err error) error {
	text := err.Error()
	if te := toolkit.AsToolError(err); te != nil {
		text = te.Message
	}
	text = strings.ToLower(text)
	if !strings.Contains(text, "operation not permitted") && !strings.Contains(text, "ptrace") {
		return err
	}
	e := toolkit.NewError(toolkit.CodeAttachFailed, err.Error(), tg.fix(true, "")).WithNext(toolkit.NextReconnect).Wrap(err)
	if te := toolkit.AsToolError(err); te != nil {
		e.Details = te.Details
	}
	return e
}

// isLoopback reports whether host names this machine's loopback.
func isLoopback(host string) bool {
	h := strings.Trim(host, "[]")
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// envNames are the environment variables rm's Port reads, those that are
// names a shell takes.
func envNames(rm *adapters.Remote) []string {
	if rm == nil {
		return nil
	}
	var out []string
	for _, n := range rm.Env {
		if n != "" && strings.Trim(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_") == "" {
			out = append(out, n)
		}
	}
	return out
}
