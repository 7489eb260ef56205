package adapters

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/safefs"
	"github.com/dbg-dev/dbg/textcut"
)

// Python 3.14 and later run code in a live process at its next safe point
// with sys.remote_exec (PEP 768), without gdb and without stopping it in
// the middle of anything. dbg hands the target a script that starts
// debugpy.listen on a free local port and writes that port to a file;
// dbg then talks to that adapter as it does to any `debugpy --listen`.

// remoteAttachTimeout bounds the wait for the target to run the script:
// it runs at the target's next safe point (a bytecode boundary of its
// main thread, or the end of a blocking call).
const remoteAttachTimeout = 30 * time.Second

// remoteAttachScript is the script sys.remote_exec runs in the target. It
// imports the target interpreter's own debugpy from debugpyParent (and
// takes that entry off sys.path again), listens, sets TCP_NODELAY on
// pydevd's connection (pydevd_nodelay.py), writes the port to portFile, and removes itself.
// It runs in a namespace of its own: it leaves no names in __main__.
// With hook set, the adapter debugpy.listen starts runs dbg's hook too
// (debugpy's pythonEnv), so its sockets get TCP_NODELAY as well.
func remoteAttachScript(debugpyParent, portFile, self, hook string) string {
	body := `import os, sys
parent = ` + strconv.Quote(debugpyParent) + `
sys.path.insert(0, parent)
try:
    import debugpy
finally:
    if sys.path and sys.path[0] == parent:
        del sys.path[0]
try:
    hook = ` + strconv.Quote(hook) + `
    if hook:
        env = dict(os.environ)
        env["PYTHONPATH"] = hook + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        env.pop("DBG_PYHOOK_DEBUGGEE", None)
        debugpy.configure(pythonEnv=env)
    host, port = debugpy.listen(("127.0.0.1", 0))
    exec(` + strconv.Quote(string(pyNoDelay)) + `, {})
    result = str(port)
except Exception as e:
    result = "error: %s: %s" % (type(e).__name__, e)
tmp = ` + strconv.Quote(portFile) + ` + ".tmp"
with open(tmp, "w") as f:
    f.write(result)
os.replace(tmp, ` + strconv.Quote(portFile) + `)
try:
    os.remove(` + strconv.Quote(self) + `)
except OSError:
    pass
`
	return "exec(compile(" + strconv.Quote(body) + `, "<dbg attach>", "exec"), {"__name__": "__dbg_attach__"})` + "\n"
}

// remoteExec runs script in pid through py's sys.remote_exec, py run as
// u (the target's user when it is not dbg's).
func (p Python) remoteExec(ctx context.Context, py string, u *pyUser, pid int, script string) error {
	if p.RemoteExec != nil {
		return p.RemoteExec(ctx, py, pid, script)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "-I", "-S", "-c", "import sys; sys.remote_exec(int(sys.argv[1]), sys.argv[2])", strconv.Itoa(pid), script)
	u.apply(cmd)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("sys.remote_exec: %w: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// remoteExecDir makes the folder of a sys.remote_exec attach. A target
// of dbg's own user reads it in dbg's private temporary folder; another
// user's cannot enter that, so its folder is a new one of an
// unpredictable name in the shared temporary folder, made by dbg
// (safefs.NewDir) and then handed to that user.
func remoteExecDir(uid int) (string, error) {
	if uid == os.Geteuid() {
		return safefs.MkdirTemp(safefs.PrivateTemp(nil), "dbg-attach-*")
	}
	return safefs.NewDir(os.TempDir(), "dbg-attach-*")
}

// remoteAttach attaches to a Python 3.14+ target with sys.remote_exec.
func (p Python) remoteAttach(ctx context.Context, t Target, plan *pyAttachPlan) (*Endpoint, error) {
	progress(ctx, "attaching to %d (python %s, %s) with debugpy %s through sys.remote_exec…", t.PID, plan.in.Version, plan.label, plan.in.Debugpy)
	// The script and the target's answer live in a new folder of an
	// unpredictable name, given to the target's user: nobody else can
	// plant an answer (a port of theirs) or read the script.
	st, err := proc.ReadStatus(t.PID)
	if err != nil {
		return nil, fmt.Errorf("read process %d: %w", t.PID, err)
	}
	dir, err := remoteExecDir(st.UID)
	if err != nil {
		return nil, fmt.Errorf("make the attach folder: %w", err)
	}
	defer os.RemoveAll(dir)
	script, portFile := filepath.Join(dir, "attach.py"), filepath.Join(dir, "port")
	hook, err := p.hookDir()
	if err != nil {
		hook = "" // no hook: the adapter runs at debugpy's own speed
	}
	if err := os.WriteFile(script, []byte(remoteAttachScript(filepath.Dir(plan.info.debugpy), portFile, script, hook)), 0o644); err != nil {
		return nil, fmt.Errorf("write the attach script: %w", err)
	}
	if err := safefs.HandOff(dir, st.UID, st.GID); err != nil {
		return nil, fmt.Errorf("give the attach folder to uid %d: %w", st.UID, err)
	}
	if err := p.remoteExec(ctx, plan.in.Path, plan.user, t.PID, script); err != nil {
		return nil, &AttachRefusedError{PID: t.PID, Reason: fmt.Sprintf("Python %s refused sys.remote_exec into process %d: %v", plan.in.Version, t.PID, err),
			Hint: "check that the target does not disable remote debugging (PYTHON_DISABLE_REMOTE_DEBUG, -X disable_remote_debug) and that dbg may ptrace it; or " + restartHint}
	}
	deadline := time.Now().Add(remoteAttachTimeout)
	var answer string
	for {
		if b, err := safefs.ReadOwned(portFile, st.UID, 4096); err == nil {
			answer = strings.TrimSpace(string(b))
			break
		}
		if time.Now().After(deadline) {
			return nil, &AttachRefusedError{PID: t.PID, Reason: fmt.Sprintf("process %d did not run dbg's attach script within %s (it runs at the target's next safe point)", t.PID, remoteAttachTimeout), Hint: restartHint}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	port, err := strconv.Atoi(answer)
	if err != nil {
		return nil, &AttachRefusedError{PID: t.PID, Reason: fmt.Sprintf("debugpy.listen failed in process %d, which wrote: %s", t.PID, textcut.Quote(answer, 300)), Hint: restartHint}
	}
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	c, err := dap.Dial(dctx, fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return nil, fmt.Errorf("connect to debugpy in process %d at port %d: %w", t.PID, port, err)
	}
	in := plan.in
	return &Endpoint{Conn: c, Interpreter: &in}, nil
}
