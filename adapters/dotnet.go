package adapters

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// Dotnet is the adapter of language "dotnet": Samsung's netcoredbg in its
// VS Code mode (`netcoredbg --interpreter=vscode`, DAP over stdio), with
// the "coreclr" launch and attach arguments it documents: program (an
// assembly .dll, run with dotnet), args, cwd, env, stopAtEntry,
// justMyCode; attach by processId.
//
// A project (.csproj, or a directory holding one) is built first with
// `dotnet build -c Debug` and its assembly launched.
//
// Not exercised against a real netcoredbg on the development machines
// (it is not packaged for Debian bookworm); the argument building and the
// discovery are unit-tested.
//
// A Dotnet value holds no per-session state and is safe for concurrent use.
type Dotnet struct{}

// NewDotnet returns the dotnet adapter.
func NewDotnet() *Dotnet { return &Dotnet{} }

// Language returns "dotnet".
func (d *Dotnet) Language() string { return "dotnet" }

// netcoredbgVersion pins the release that InstallCommands fetches.
const netcoredbgVersion = "3.1.2-1054"

// netcoredbgTool is netcoredbg; its install follows netcoredbg's and
// .NET's documented installs: the .NET SDK through dotnet-install.sh,
// netcoredbg from its release archive, both pinned.
var netcoredbgTool = Tool{
	Language: "dotnet", What: "netcoredbg",
	Names: []string{"netcoredbg"}, VersionArgs: []string{"--version"},
	Install: [][]string{
		{"sh", "-c", "command -v dotnet >/dev/null || (curl -fsSL https://dot.net/v1/dotnet-install.sh -o /tmp/dotnet-install.sh && bash /tmp/dotnet-install.sh --version 8.0.404 --install-dir /usr/local/share/dotnet && ln -sf /usr/local/share/dotnet/dotnet /usr/local/bin/dotnet)"},
		{"sh", "-c", "curl -fsSL https://github.com/Samsung/netcoredbg/releases/download/" + netcoredbgVersion +
			"/netcoredbg-linux-amd64.tar.gz | tar -xz -C /usr/local/lib && ln -sf /usr/local/lib/netcoredbg/netcoredbg /usr/local/bin/netcoredbg"},
	},
}

// Find reports netcoredbg and its version.
func (d *Dotnet) Find(ctx context.Context) Info {
	return netcoredbgTool.Describe(ctx, Info{
		Language: "dotnet", Adapter: "netcoredbg", Launch: true, AttachPID: true,
		Aliases: []string{"csharp", "cs", "fsharp", "coreclr"},
		Note:    "untested here: netcoredbg is not packaged for Debian bookworm",
	})
}

// InstallCommands implements Installer.
func (d *Dotnet) InstallCommands() [][]string { return netcoredbgTool.InstallCommands() }

// Start starts netcoredbg with DAP on its stdio.
func (d *Dotnet) Start(ctx context.Context, t Target) (*Endpoint, error) {
	p, err := netcoredbgTool.Path()
	if err != nil {
		return nil, err
	}
	proc, err := dap.StartProcess(exec.Command(p, "--interpreter=vscode"), dap.ProcessOptions{Stdio: true})
	if err != nil {
		return nil, fmt.Errorf("start netcoredbg: %w", err)
	}
	return &Endpoint{Conn: proc, Process: proc}, nil
}

// LaunchArgs returns netcoredbg's launch arguments, building a project
// first when one is given.
func (d *Dotnet) LaunchArgs(ctx context.Context, t Target) (map[string]any, error) {
	if t.Program == "" {
		return nil, errors.New("no program to launch: give an assembly (.dll), an executable or a project")
	}
	prog, st, err := programPath("program", t.Program, t.Cwd)
	if err != nil {
		return nil, err
	}
	if st.IsDir() || strings.HasSuffix(prog, ".csproj") || strings.HasSuffix(prog, ".fsproj") {
		if prog, err = dotnetBuild(ctx, prog); err != nil {
			return nil, err
		}
	}
	cwd := t.Cwd
	if cwd == "" {
		cwd = filepath.Dir(prog)
	}
	args := map[string]any{
		"type": "coreclr", "name": "dbg", "request": "launch",
		"program": prog, "args": nonNil(t.Args), "cwd": cwd,
		"env": dotnetEnv(t.Env), "stopAtEntry": t.StopOnEntry,
	}
	if t.JustMyCode != nil {
		args["justMyCode"] = *t.JustMyCode
	}
	return merge(args, t.Extra), nil
}

func dotnetEnv(env map[string]string) map[string]string {
	if env == nil {
		return map[string]string{}
	}
	return env
}

// AttachArgs returns netcoredbg's attach arguments (processId).
func (d *Dotnet) AttachArgs(ctx context.Context, t Target) (map[string]any, error) {
	if t.PID <= 0 {
		return nil, errors.New("dotnet attaches by process id")
	}
	args := map[string]any{"type": "coreclr", "name": "dbg", "request": "attach", "processId": t.PID}
	if t.JustMyCode != nil {
		args["justMyCode"] = *t.JustMyCode
	}
	return merge(args, t.Extra), nil
}

// StopReason: netcoredbg speaks DAP's reasons.
func (d *Dotnet) StopReason(reason string) string { return reason }

// ExceptionFilters maps modes to netcoredbg's filters.
func (d *Dotnet) ExceptionFilters(mode string) []string {
	switch mode {
	case "all":
		return []string{"all"}
	case "uncaught":
		return []string{"user-unhandled"}
	}
	return nil
}

// Traits: a process of the dotnet host is a .NET program.
func (d *Dotnet) Traits() Traits {
	return Traits{Commands: []string{"dotnet"},
		Children: ChildProcesses{Reason: "netcoredbg follows no child process: debug the child in a session of its own (processId)"},
		NoCore:   "netcoredbg opens no core file; read a .NET process's dump with `dotnet-dump analyze DUMP`",
		Remote: &Remote{
			Refused: "dbg starts no .NET debugger on another machine: netcoredbg has no server mode dbg can forward (and cannot be installed here to test one)"}}
}

// dotnetBuild builds a project (a .csproj/.fsproj or a directory with one)
// in Debug and returns its assembly.
func dotnetBuild(ctx context.Context, project string) (string, error) {
	dir := project
	if st, err := os.Stat(project); err == nil && !st.IsDir() {
		dir = filepath.Dir(project)
	}
	bctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	argv := []string{"dotnet", "build", "-c", "Debug", project}
	out, err := exec.CommandContext(bctx, argv[0], argv[1:]...).CombinedOutput()
	if err != nil {
		return "", &NativeBuildError{Command: argv, Output: string(out), Err: err}
	}
	return dotnetAssembly(dir, project)
}

// dotnetAssembly finds the newest bin/Debug/<tfm>/<Project>.dll of a
// built project.
func dotnetAssembly(dir, project string) (string, error) {
	name := ""
	if strings.HasSuffix(project, "proj") {
		name = strings.TrimSuffix(filepath.Base(project), filepath.Ext(project))
	} else {
		projs, _ := filepath.Glob(filepath.Join(dir, "*.*proj"))
		if len(projs) != 1 {
			return "", fmt.Errorf("%s: want exactly one project file, found %d", dir, len(projs))
		}
		name = strings.TrimSuffix(filepath.Base(projs[0]), filepath.Ext(projs[0]))
	}
	dlls, _ := filepath.Glob(filepath.Join(dir, "bin", "Debug", "*", name+".dll"))
	if len(dlls) == 0 {
		return "", fmt.Errorf("no bin/Debug/*/%s.dll under %s after the build", name, dir)
	}
	sort.Slice(dlls, func(i, j int) bool {
		a, _ := os.Stat(dlls[i])
		b, _ := os.Stat(dlls[j])
		return a.ModTime().After(b.ModTime())
	})
	return dlls[0], nil
}
