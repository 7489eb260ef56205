package adapters

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/proc"
)

// AttachRefusedError is an attach dbg refused before touching the target:
// the target cannot be attached to safely this way. Reason says why in a
// sentence; Hint gives the alternatives. The session manager reports it
// as ATTACH_FAILED.
type AttachRefusedError struct {
	PID    int
	Reason string
	Hint   string
}

func (e *AttachRefusedError) Error() string { return e.Reason }

// restartHint is the way around an attach by pid that cannot be made.
const restartHint = "restart the program under `python -m debugpy --listen 5678 PROGRAM.py` and attach by port 5678, " +
	"or debug it from its start with `dbg launch` (start_debugging)"

// pyAttachPlan is how dbg attaches to one Python process.
type pyAttachPlan struct {
	in     Interpreter // the target's interpreter, whose debugpy serves the attach
	info   pyInfo
	label  string     // where the interpreter comes from ("pyenv", "venv", "system")
	remote bool       // Python 3.14+: sys.remote_exec, no debugger
	inject pyInjector // otherwise the debugger that injects debugpy
	user   *pyUser    // the target's user, when it is not dbg's (nil: dbg's own)
}

var pythonExeRE = regexp.MustCompile(`^python\d*(\.\d+)?[a-z]?$`)

// targetCandidates are the interpreters that may be the target's own, in
// order: the one its argv[0] names (a venv's python, which shares its
// file with the base interpreter but not its packages), $VIRTUAL_ENV's,
// and its executable. Only those that are the target's executable count.
func targetCandidates(pid int, exe string) []string {
	var out []string
	add := func(p string) {
		if p == "" || !sameFile(p, exe) {
			return
		}
		for _, o := range out {
			if o == p {
				return
			}
		}
		out = append(out, p)
	}
	env := map[string]string{}
	if kvs, err := proc.Environ(pid); err == nil {
		for _, kv := range kvs {
			if k, v, ok := strings.Cut(kv, "="); ok {
				env[k] = v
			}
		}
	}
	if argv, err := proc.Cmdline(pid); err == nil && len(argv) > 0 {
		a := argv[0]
		switch {
		case filepath.IsAbs(a):
		case strings.Contains(a, "/"):
			if cwd, err := proc.Cwd(pid); err == nil {
				a = filepath.Join(cwd, a)
			}
		default:
			for _, d := range filepath.SplitList(env["PATH"]) {
				if p := filepath.Join(d, a); isExec(p) {
					a = p
					break
				}
			}
		}
		if filepath.IsAbs(a) {
			add(a)
		}
	}
	if ve := env["VIRTUAL_ENV"]; ve != "" {
		add(venvPython(ve))
	}
	add(exe)
	return out
}

// interpreterLabel says where an interpreter comes from, for the progress
// line: "venv", "pyenv", "system" or "python".
func interpreterLabel(path string) string {
	switch {
	case isFile(filepath.Join(filepath.Dir(filepath.Dir(path)), "pyvenv.cfg")):
		return "venv"
	case strings.Contains(path, "/.pyenv/"):
		return "pyenv"
	case strings.HasPrefix(path, "/usr/bin/"):
		return "system"
	}
	return "python"
}

// targetExe is the executable of process pid.
func targetExe(pid int) (string, error) {
	exe, err := proc.Exe(pid)
	if err != nil {
		return "", &AttachRefusedError{PID: pid, Reason: fmt.Sprintf("cannot read process %d's executable: %v", pid, err),
			Hint: "check the pid, and that dbg runs as the process's user"}
	}
	return strings.TrimSuffix(exe, " (deleted)"), nil
}

// attachPlan decides how to attach to t.PID without harming it: with the
// target's own interpreter's debugpy (never another's), by
// sys.remote_exec on Python 3.14+, else through the first debugger (gdb,
// then lldb) whose injection check passed on this machine; the target's
// interpreter runs as the target's user (pyUser). Every refusal is an
// [AttachRefusedError] that comes before anything touches the target.
func (p Python) attachPlan(ctx context.Context, t Target) (*pyAttachPlan, error) {
	pid := t.PID
	progress(ctx, "attaching to %d: reading its interpreter…", pid)
	exe, err := targetExe(pid)
	if err != nil {
		return nil, err
	}
	if !pythonExeRE.MatchString(filepath.Base(exe)) && t.ExecutablePath == "" {
		return nil, &AttachRefusedError{PID: pid, Reason: fmt.Sprintf("process %d runs %s, which is not a Python interpreter", pid, exe),
			Hint: "pass the pid of a Python process, or executablePath when the interpreter is embedded"}
	}
	u, err := targetUser(pid)
	if err != nil {
		return nil, err
	}
	candidates := targetCandidates(pid, exe)
	if t.ExecutablePath != "" {
		if pythonExeRE.MatchString(filepath.Base(exe)) && !sameFile(t.ExecutablePath, exe) {
			return nil, &AttachRefusedError{PID: pid,
				Reason: fmt.Sprintf("process %d runs %s, not %s: dbg injects only the target's own interpreter's debugpy", pid, exe, t.ExecutablePath),
				Hint:   "pass the target's interpreter as executablePath, or none"}
		}
		candidates = []string{t.ExecutablePath}
	}
	target := p.cache.probeAs(ctx, exe, u)
	if target.err != nil && t.ExecutablePath == "" {
		return nil, &AttachRefusedError{PID: pid, Reason: fmt.Sprintf("cannot tell which Python process %d runs: %v", pid, target.err), Hint: restartHint}
	}
	var first *pyInfo
	for _, c := range candidates {
		info := p.cache.probeAs(ctx, c, u)
		if info.err != nil {
			continue
		}
		if target.err == nil && !sameMinor(info.version, target.version) {
			return nil, &AttachRefusedError{PID: pid,
				Reason: fmt.Sprintf("process %d runs Python %s, and %s is Python %s: dbg injects only the target's own interpreter's debugpy", pid, target.version, c, info.version),
				Hint:   "pass the target's interpreter as executablePath, or none"}
		}
		if first == nil {
			first = &info
		}
		if info.debugpy == "" {
			continue
		}
		if !info.supports(info.version) {
			return nil, &AttachRefusedError{PID: pid,
				Reason: fmt.Sprintf("the debugpy %s of %s does not support Python %s (it needs %s)", info.dpVersion, c, info.version, info.requires),
				Hint:   "install a debugpy that does: `" + info.pipCommand() + "`"}
		}
		plan := &pyAttachPlan{info: info, label: interpreterLabel(c), user: u,
			in: Interpreter{Path: c, Version: info.version, Source: "process", Debugpy: info.dpVersion}}
		if usesRemoteExec(info.version) {
			plan.remote = true
			return plan, nil
		}
		choice := p.chooseInjector(ctx, info, u)
		if choice.With == nil {
			return nil, &AttachRefusedError{PID: pid,
				Reason: fmt.Sprintf("dbg did not attach to process %d, which is untouched: debugpy attaches by pid through a debugger's calls into the process, and on this machine no debugger can make them (%s)", pid, choice.Reason),
				Hint:   restartHint}
		}
		plan.inject = *choice.With
		return plan, nil
	}
	if first == nil {
		return nil, &AttachRefusedError{PID: pid, Reason: fmt.Sprintf("cannot run process %d's interpreter %s", pid, exe), Hint: restartHint}
	}
	return nil, &AttachRefusedError{PID: pid,
		Reason: fmt.Sprintf("process %d runs Python %s (%s), which has no debugpy; dbg attaches only with the target's own interpreter's debugpy", pid, first.version, first.path),
		Hint:   "install it with `" + first.pipCommand() + "`, then attach again"}
}

// sameMinor reports whether two versions share major and minor.
func sameMinor(a, b string) bool {
	am, an := majorMinor(a)
	bm, bn := majorMinor(b)
	return am == bm && an == bn
}

// remoteTarget reports whether t.PID is a Python 3.14+ process, which
// dbg attaches to with sys.remote_exec.
func (p Python) remoteTarget(ctx context.Context, t Target) bool {
	exe, err := targetExe(t.PID)
	if err != nil || !pythonExeRE.MatchString(filepath.Base(exe)) {
		return false
	}
	u, err := targetUser(t.PID)
	if err != nil {
		return false
	}
	info := p.cache.probeAs(ctx, exe, u)
	return info.err == nil && usesRemoteExec(info.version)
}

// usesRemoteExec reports whether dbg attaches to a Python of version v
// with sys.remote_exec (PEP 768: Python 3.14 and later), without gdb.
func usesRemoteExec(v string) bool {
	maj, min := majorMinor(v)
	return maj > 3 || (maj == 3 && min >= 14)
}

// startAttach starts debugpy's adapter on the target's interpreter, as
// the target's user, to attach by pid; its injector injects through the
// debugger the plan chose: gdb as debugpy does, or lldb through dbg's
// hook (DBG_PYHOOK_INJECT).
func (p Python) startAttach(ctx context.Context, t Target) (*Endpoint, error) {
	plan, err := p.attachPlan(ctx, t)
	if err != nil {
		return nil, err
	}
	if plan.remote {
		return p.remoteAttach(ctx, t, plan)
	}
	in := plan.in
	in.Injector = plan.inject.Name()
	progress(ctx, "attaching to %d (python %s, %s) with debugpy %s through %s…", t.PID, in.Version, plan.label, in.Debugpy, in.Injector)
	hook, cleanup, err := p.hookDirFor(plan.user)
	if err != nil && plan.inject.Kind == "lldb" {
		return nil, &AttachRefusedError{PID: t.PID,
			Reason: fmt.Sprintf("dbg did not attach to process %d, which is untouched: gdb cannot inject here and lldb injects through dbg's hook, which could not be written (%v)", t.PID, err),
			Hint:   restartHint}
	}
	env := p.adapterEnv(hook) // no hook: debugpy at its own speed, but it works
	if plan.inject.Kind == "lldb" {
		so, err := attachLibrary(plan.info.debugpy)
		if err != nil {
			cleanup()
			return nil, &AttachRefusedError{PID: t.PID, Reason: err.Error(), Hint: restartHint}
		}
		env = append(withoutEnv(env, "DBG_PYHOOK_INJECT"), lldbInjectEnv(plan.inject.Path, so))
	}
	cmd := exec.Command(plan.in.Path, "-m", "debugpy.adapter")
	cmd.Env = env
	plan.user.apply(cmd)
	proc, err := dap.StartProcess(cmd, dap.ProcessOptions{Stdio: true})
	if err != nil {
		cleanup()
		return nil, fmt.Errorf("start debugpy: %w", err)
	}
	return &Endpoint{Conn: proc, Process: proc, Interpreter: &in, Cleanup: cleanup}, nil
}

// CheckMachine implements MachineChecker: whether attach by pid works
// here for PATH's python3, and through which debugger, or why not.
func (p Python) CheckMachine(ctx context.Context, info Info) Info {
	if !info.Found {
		return info
	}
	py := p.cache.probe(ctx, pathPython())
	if py.executable != "" && py.executable != py.path {
		py = p.cache.probe(ctx, py.executable) // the interpreter a shim runs, as a target of it is
	}
	if py.err != nil || py.debugpy == "" {
		return info
	}
	if usesRemoteExec(py.version) {
		info.AttachPIDVia = "sys.remote_exec"
		return info
	}
	c := p.chooseInjector(ctx, py, nil)
	if c.With == nil {
		info.AttachPID, info.AttachPIDReason = false, c.Reason
		return info
	}
	info.AttachPIDVia = c.With.Name()
	return info
}
