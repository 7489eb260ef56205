package testrun

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/sessions"
)

// A pytest run under the debugger imports debugpy and pytest before it
// runs a line of the test: about half a second of CPU, as much as the
// plain test. The fork server (dbg_pytest.py --zygote) imports them once
// and forks each later run from there: one per interpreter, started after
// a run of that interpreter stopped, with that run's environment (what
// debugpy's launcher gave it), so that its settings are the runs'. A
// start whose interpreter settings differ runs by itself, as it would
// without the server. The server dies with dbg (its parent-death signal,
// and it exits when its parent is gone); its runs die with it, and each
// run dies with the start that asked for it.

// zygoteEnv names the server's socket in a run's environment.
const zygoteEnv = "DBG_PYTEST_ZYGOTE"

// maxSocketPath is the longest path a Unix socket can be bound to.
const maxSocketPath = 100

// pyBoot is the pytest start of one server: its fork servers, by
// interpreter. It is safe for concurrent use.
type pyBoot struct {
	mu    sync.Mutex
	forks map[string]*pyZygote
}

// pyZygote is one fork server.
type pyZygote struct {
	cmd      *exec.Cmd
	socket   string
	settings string // the startup settings of its environment
	done     chan struct{}
}

// socket is the socket of python's fork server, or "" when none runs.
func (b *pyBoot) socket(python string) string {
	if b == nil {
		return ""
	}
	b.mu.Lock()
	z := b.forks[python]
	b.mu.Unlock()
	if z == nil {
		return ""
	}
	select {
	case <-z.done:
		return ""
	default:
	}
	if _, err := os.Stat(z.socket); err != nil {
		return "" // still importing
	}
	return z.socket
}

// learn starts, in the background, python's fork server with the
// environment and debugpy of the run whose start is process pid, unless
// one with the same startup settings runs.
func (b *pyBoot) learn(python string, pid int) {
	if b == nil || pid <= 0 {
		return
	}
	script, dir, err := pytestBootScript()
	if err != nil {
		return
	}
	argv, err := proc.Cmdline(pid)
	if err != nil {
		return
	}
	debugpy := debugpyDirOf(argv, script)
	environ, err := proc.Environ(pid)
	if debugpy == "" || err != nil {
		return
	}
	// Not the session's mark: the server is not the run's, and would be
	// killed with it.
	env := slices.DeleteFunc(environ, func(kv string) bool {
		return strings.HasPrefix(kv, zygoteEnv+"=") || strings.HasPrefix(kv, sessions.MarkEnv+"=")
	})
	settings := startupSettings(env)
	b.mu.Lock()
	defer b.mu.Unlock()
	if z := b.forks[python]; z != nil {
		select {
		case <-z.done:
		default:
			if z.settings == settings {
				return
			}
			_ = proc.KillGroup(z.cmd.Process.Pid)
		}
	}
	var r [8]byte
	_, _ = rand.Read(r[:])
	sock := filepath.Join(dir, "z-"+hex.EncodeToString(r[:])+".sock")
	if len(sock) > maxSocketPath {
		return
	}
	cmd := exec.Command(python, "-X", "frozen_modules=off", script, "--zygote", sock, debugpy)
	cmd.Env = env
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return
	}
	z := &pyZygote{cmd: cmd, socket: sock, settings: settings, done: make(chan struct{})}
	if b.forks == nil {
		b.forks = map[string]*pyZygote{}
	}
	b.forks[python] = z
	go func() {
		_ = cmd.Wait()
		os.Remove(sock)
		close(z.done)
	}()
}

// debugpyDirOf is the debugpy folder a start's command line names: the
// argument after the script and the -X options that follow it.
func debugpyDirOf(argv []string, script string) string {
	i := slices.Index(argv, script)
	if i < 0 {
		return ""
	}
	rest := argv[i+1:]
	for len(rest) >= 2 && rest[0] == "-X" {
		rest = rest[2:]
	}
	if len(rest) == 0 || !filepath.IsAbs(rest[0]) {
		return ""
	}
	return rest[0]
}

// startupSettings are the variables of env an interpreter reads at its
// start, as the fork server compares them.
func startupSettings(env []string) string {
	var keep []string
	for _, kv := range env {
		if strings.HasPrefix(kv, "PYTHON") || strings.HasPrefix(kv, "LC_") || strings.HasPrefix(kv, "LANG") {
			keep = append(keep, kv)
		}
	}
	slices.Sort(keep)
	return strings.Join(keep, "\x00")
}
