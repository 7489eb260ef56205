package adapters

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// DebugpyVersion is the debugpy release `dbg adapters install python` installs.
const DebugpyVersion = "1.8.22"

// Python debugs Python with debugpy's adapter over stdio
// (`python -m debugpy.adapter`). debugpy sends "initialized" only after
// launch, and answers launch only after configurationDone; the session
// manager's launch sequence allows both.
type Python struct{}

// Language implements Adapter.
func (Python) Language() string { return "python" }

func (Python) python(t Target) string {
	if t.ExecutablePath != "" {
		return t.ExecutablePath
	}
	for _, name := range []string{"python3", "python"} {
		if p, err := lookPath(name); err == nil {
			return p
		}
	}
	return "python3"
}

// InstallCommands implements Installer.
func (p Python) InstallCommands() [][]string {
	return [][]string{{p.python(Target{}), "-m", "pip", "install", "debugpy==" + DebugpyVersion}}
}

// Find implements Adapter.
func (p Python) Find(ctx context.Context) Info {
	py := p.python(Target{})
	info := Info{Language: "python", Adapter: "debugpy", Launch: true, AttachPID: true, AttachPort: true,
		InstallCommand: "dbg adapters install python  # " + py + " -m pip install debugpy==" + DebugpyVersion}
	if _, err := exec.LookPath(py); err != nil && !filepath.IsAbs(py) {
		info.Note = "no python3 in PATH"
		return info
	}
	v := commandVersion(ctx, py, "-c", "import debugpy; print(debugpy.__version__)")
	if v == "" {
		return info
	}
	info.Found, info.Path, info.Version = true, py+" -m debugpy.adapter", v
	return info
}

// Start implements Adapter.
func (p Python) Start(ctx context.Context, t Target) (*Endpoint, error) {
	if t.Mode == Attach && t.Port != 0 {
		// `debugpy.listen` / `python -m debugpy --listen` serves its own
		// adapter on that port: talk to it directly.
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		c, err := dap.Dial(dctx, fmt.Sprintf("%s:%d", hostOr(t.Host), t.Port))
		if err != nil {
			return nil, fmt.Errorf("connect to debugpy at port %d: %w", t.Port, err)
		}
		return &Endpoint{Conn: c}, nil
	}
	// No import check here: starting a second interpreter costs as much
	// as the adapter itself. The session manager checked Find at create;
	// an interpreter without debugpy fails at once with "No module named
	// debugpy" in the adapter's stderr, which the error reports.
	py := p.python(t)
	cmd := exec.Command(py, "-m", "debugpy.adapter")
	cmd.Env = envList(nil)
	proc, err := dap.StartProcess(cmd, dap.ProcessOptions{Stdio: true})
	if err != nil {
		return nil, fmt.Errorf("start debugpy: %w", err)
	}
	return &Endpoint{Conn: proc, Process: proc}, nil
}

// LaunchArgs implements Adapter.
func (p Python) LaunchArgs(_ context.Context, t Target) (map[string]any, error) {
	if t.Program == "" {
		return nil, errors.New("scriptPath is required: the .py file to run")
	}
	prog := absPath(t.Program)
	args := map[string]any{
		"program": prog, "console": "internalConsole", "redirectOutput": true,
		"stopOnEntry": t.StopOnEntry, "python": []string{p.python(t)}, "showReturnValue": true,
	}
	if isPythonModule(t.Program) {
		delete(args, "program")
		args["module"] = strings.TrimSpace(strings.TrimPrefix(t.Program, "-m "))
	}
	args["args"] = append([]string{}, t.Args...)
	cwd := t.Cwd
	if cwd == "" {
		cwd = filepath.Dir(prog)
	}
	args["cwd"] = absPath(cwd)
	if len(t.Env) > 0 {
		args["env"] = t.Env
	}
	if t.JustMyCode != nil {
		args["justMyCode"] = *t.JustMyCode
	}
	return merge(args, t.Extra), nil
}

// AttachArgs implements Adapter: by pid (debugpy injects itself with gdb)
// or by the port of `python -m debugpy --listen`.
func (Python) AttachArgs(_ context.Context, t Target) (map[string]any, error) {
	var args map[string]any
	switch {
	case t.Port != 0:
		args = map[string]any{"connect": map[string]any{"host": hostOr(t.Host), "port": t.Port}}
	case t.PID != 0:
		args = map[string]any{"processId": t.PID}
	default:
		return nil, errors.New("python attach needs processId or port")
	}
	if t.JustMyCode != nil {
		args["justMyCode"] = *t.JustMyCode
	}
	if len(t.SourcePaths) > 0 {
		var maps []map[string]string
		for _, sp := range t.SourcePaths {
			if remote, local, ok := strings.Cut(sp, "="); ok {
				maps = append(maps, map[string]string{"remoteRoot": remote, "localRoot": local})
			}
		}
		if len(maps) > 0 {
			args["pathMappings"] = maps
		}
	}
	return merge(args, t.Extra), nil
}

// StopReason implements Adapter.
func (Python) StopReason(r string) string { return r }

// ExceptionFilters implements Adapter: debugpy's "raised" is every raise.
func (Python) ExceptionFilters(mode string) []string {
	switch mode {
	case "all":
		return []string{"raised", "uncaught"}
	case "uncaught":
		return []string{"uncaught"}
	}
	return []string{}
}

// Traits implements Adapter: a program "-m pkg" names a module.
func (Python) Traits() Traits { return Traits{NamedProgram: isPythonModule} }

// isPythonModule reports whether a launch program names a module
// ("-m pkg"), which debugpy runs as `python -m pkg`.
func isPythonModule(program string) bool { return strings.HasPrefix(program, "-m ") }
