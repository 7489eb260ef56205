package ide

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
	"github.com/dbg-dev/dbg/toolkit/redact"
)

// Options configures the ide capabilities. Zero values are usable
// defaults.
type Options struct {
	// Context is the server's lifetime: when it ends, every process the
	// runner started is stopped (whole process groups).
	Context context.Context
	// Getenv resolves ${env:X} in launch.json (nil = os.Getenv).
	Getenv func(string) string
	// GitPath is the git executable ("" = "git" on PATH).
	GitPath string
	// GitTimeout bounds each git command (default 2 minutes).
	GitTimeout time.Duration
	// Runner tunes the run-configuration runner.
	Runner RunnerOptions
}

// Manager is what the ide capabilities need of the session manager; a
// *sessions.Manager satisfies it. The project of every call, the registry
// its run configurations' processes are published in, and for
// debug_run_configuration the sessions it creates.
type Manager interface {
	ResolveProject(arg string) (string, error)
	RegisterProcess(p toolkit.OwnedProcess)
	UnregisterProcess(pid int)
	Adapters() *adapters.Registry
	Create(ctx context.Context, req sessions.CreateRequest) (*sessions.Session, *sessions.StartResult, error)
	Start(ctx context.Context, id string, req sessions.StartRequest) (*sessions.StartResult, error)
	CloseSession(ctx context.Context, id string) error
	AddGroup(name string, ids []string, stopAll bool)
}

// IDE holds the run-configuration runner and the Git reader of one
// server. It is safe for concurrent use.
type IDE struct {
	m       Manager
	opts    Options
	runner  *Runner
	git     *Git
	configs *configCache
	status  *gitStatusCache
}

// New returns the ide capabilities of a server. Its processes stop when
// opts.Context ends or Close is called.
func New(m Manager, opts Options) *IDE {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	var reg processRegistry
	if m != nil {
		reg = m
	}
	x := &IDE{m: m, opts: opts, runner: NewRunner(reg, opts.Runner), git: newGit(opts.GitPath, opts),
		configs: newConfigCache(opts.Getenv)}
	x.status = newGitStatusCache(x.git)
	if opts.Context != nil {
		context.AfterFunc(opts.Context, func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_ = x.Close(ctx)
		})
	}
	return x
}

// Close stops every run-configuration process.
func (x *IDE) Close(ctx context.Context) error { return x.runner.Close(ctx) }

// Runner returns the run-configuration runner.
func (x *IDE) Runner() *Runner { return x.runner }

// Register implements toolkit.Capability: it adds the run-configuration
// and Git tools to tb and registers the "runConfigurations" and "git"
// status contributors. The processes the tools start stop when
// opts.Context ends; that stop runs in the background, so a server about
// to exit calls Close, which returns once every process group is gone.
func (x *IDE) Register(tb *toolkit.Toolbox) {
	x.declareToolsets(tb)
	toolkit.AddTool(tb, "get_restartable_run_configurations",
		"The project's saved run configurations (IntelliJ, VS Code launch.json): name, type, source, command line, running.",
		x.listConfigurations, toolkit.Hints{Title: "Run configurations", ReadOnly: true}, toolkit.InToolset(RunToolset))
	toolkit.AddTool(tb, "restart_run_configuration",
		"Start a run configuration (exact name) as a process dbg owns, or restart it; its output goes to the logs tools.",
		x.restartConfiguration, toolkit.Hints{Title: "Restart run configuration", Destructive: true, Alters: true}, toolkit.InToolset(RunToolset))
	toolkit.AddTool(tb, "debug_run_configuration",
		"Create a debug session from a run configuration (launch.json entry, IntelliJ Application or Spring Boot); a compound runs as one group.",
		x.debugConfiguration, toolkit.Hints{Title: "Debug run configuration", Alters: true}, toolkit.InToolset(RunToolset), toolkit.LinkResources())
	toolkit.AddTool(tb, "get_git_repositories",
		"Git repositories: root, HEAD, branch, upstream, remotes, dirty, ahead/behind.",
		x.gitRepositories, toolkit.Hints{Title: "Git repositories", ReadOnly: true}, toolkit.InToolset(GitToolset))
	toolkit.AddTool(tb, "get_git_remotes",
		"Remotes with fetch and push URLs, credentials redacted.",
		x.gitRemotes, toolkit.Hints{Title: "Git remotes", ReadOnly: true}, toolkit.InToolset(GitToolset))
	toolkit.AddTool(tb, "git_fetch",
		"Fetch from a remote; never prompts.",
		x.gitFetch, toolkit.Hints{Title: "Git fetch", Idempotent: true, OpenWorld: true, Alters: true}, toolkit.InToolset(GitToolset))
	toolkit.AddTool(tb, "git_pull",
		"Pull the branch from its upstream; a conflict is reported and left.",
		x.gitPull, toolkit.Hints{Title: "Git pull", Destructive: true, OpenWorld: true, Alters: true}, toolkit.InToolset(GitToolset), toolkit.Enum("strategy", "ff_only", "rebase", "merge"))
	toolkit.AddTool(tb, "git_push",
		"Push the branch; never forces, never skips hooks.",
		x.gitPush, toolkit.Hints{Title: "Git push", Destructive: true, OpenWorld: true, Alters: true}, toolkit.InToolset(GitToolset))
	tb.Status().Register("runConfigurations", runConfigStatus{x})
	tb.Status().Register("git", gitStatus{x})
}

func (x *IDE) project(arg string) (string, error) {
	if x.m == nil {
		if arg == "" {
			return "", toolkit.NewError(toolkit.CodeNoProject, "no project", "pass projectPath")
		}
		return filepath.Abs(arg)
	}
	return x.m.ResolveProject(arg)
}

// ProjectInput is the common input of every ide tool.
type ProjectInput struct {
	ProjectPath string `json:"projectPath,omitempty"`
}

// ConfigurationView is one configuration as the tools list it.
type ConfigurationView struct {
	Name        string            `json:"name"`
	TypeID      string            `json:"typeId"`
	TypeName    string            `json:"typeName"`
	Source      string            `json:"source"`
	Restartable bool              `json:"restartable"`
	Command     []string          `json:"command,omitempty"`
	Cwd         string            `json:"cwd,omitempty"`
	Env         map[string]string `json:"env,omitempty"`
	Members     []string          `json:"members,omitempty"`
	Unsupported string            `json:"unsupported,omitempty"`
	Running     bool              `json:"running"`
	PID         int               `json:"pid,omitempty"`
}

// ListConfigurationsResult is the answer of get_restartable_run_configurations.
type ListConfigurationsResult struct {
	ProjectName    string              `json:"projectName"`
	ProjectPath    string              `json:"projectPath"`
	Configurations []ConfigurationView `json:"configurations"`
	Warnings       []string            `json:"warnings,omitempty"`
}

// redactValue hides the credentials inside one value of a run
// configuration: the shapes and credential-named pairs toolkit/redact
// knows, and URL user-info.
func redactValue(v string) string {
	if r, changed := redact.String(v); changed {
		v = strings.ReplaceAll(r, redact.Mark, Redacted)
	}
	return RedactText(v)
}

// redactArgs hides the credentials of a command line: the value of a
// KEY=VALUE argument whose key names one (-Dspring.datasource.password=...,
// --token=...), the argument after a flag that names one (--password X),
// and credentials inside any argument.
func redactArgs(args []string) []string {
	if args == nil {
		return nil
	}
	out := make([]string, len(args))
	for i, a := range args {
		k, _, pair := strings.Cut(a, "=")
		switch {
		case i > 0 && secretFlag(args[i-1]):
			out[i] = Redacted
		case pair && redact.SecretName(strings.TrimLeft(strings.TrimPrefix(k, "-D"), "-")):
			out[i] = k + "=" + Redacted
		default:
			out[i] = redactValue(a)
		}
	}
	return out
}

// secretFlag reports whether a is a flag naming a credential, whose
// value is the next argument (--password, -password; not --password=x).
func secretFlag(a string) bool {
	return strings.HasPrefix(a, "-") && !strings.Contains(a, "=") && redact.SecretName(strings.TrimLeft(a, "-"))
}

func redactEnv(env map[string]string) map[string]string {
	if env == nil {
		return nil
	}
	out := make(map[string]string, len(env))
	for k, v := range env {
		if redact.SecretName(k) {
			out[k] = Redacted
		} else {
			out[k] = redactValue(v)
		}
	}
	return out
}

// running returns the live pid of a configuration (0 = none).
func (x *IDE) running(c RunConfiguration) int {
	for _, p := range x.runner.Processes() {
		if p.Running && p.Name == c.Name && p.Source == c.Source {
			return p.PID
		}
	}
	return 0
}

func (x *IDE) view(c RunConfiguration) ConfigurationView {
	shown := c
	if c.shown != nil {
		shown = *c.shown
	}
	v := ConfigurationView{Name: c.Name, TypeID: c.TypeID, TypeName: c.TypeName, Source: c.Source, Restartable: c.Runnable(),
		Command: redactArgs(shown.Command), Cwd: shown.Cwd, Env: redactEnv(shown.Env), Members: c.Members, Unsupported: c.Unsupported}
	if pid := x.running(c); pid != 0 {
		v.Running, v.PID = true, pid
	}
	return v
}

func (x *IDE) listConfigurations(ctx context.Context, in ProjectInput) (ListConfigurationsResult, error) {
	dir, err := x.project(in.ProjectPath)
	if err != nil {
		return ListConfigurationsResult{}, err
	}
	res := x.configs.load(dir)
	out := ListConfigurationsResult{ProjectName: filepath.Base(dir), ProjectPath: dir, Configurations: []ConfigurationView{}, Warnings: res.Warnings}
	for _, c := range res.Configurations {
		out.Configurations = append(out.Configurations, x.view(c))
	}
	return out, nil
}

// ConfigurationInput names one run configuration.
type ConfigurationInput struct {
	ProjectPath       string `json:"projectPath,omitempty"`
	ConfigurationName string `json:"configurationName" jsonschema:"exact name"`
	Source            string `json:"source,omitempty" jsonschema:"its file, when several share the name"`
}

// find resolves a configuration by exact name, refusing empty, unknown
// and ambiguous names.
func (x *IDE) find(dir, name, source string) (RunConfiguration, error) {
	res := x.configs.load(dir)
	names := Names(res.Configurations)
	if strings.TrimSpace(name) == "" {
		return RunConfiguration{}, toolkit.NewError(toolkit.CodeInvalidArgument, "configurationName is required",
			"pass one of availableOptions (from get_restartable_run_configurations)").WithOptions(names...)
	}
	c, err := FindRunConfiguration(res.Configurations, name, source)
	var amb *AmbiguousError
	switch {
	case errors.As(err, &amb):
		return RunConfiguration{}, toolkit.NewError(toolkit.CodeInvalidArgument, amb.Error(),
			"pass source as well, one of availableOptions").WithOptions(amb.Sources...)
	case err != nil:
		te := toolkit.NewError(toolkit.CodeRunConfigNotFound, fmt.Sprintf("no run configuration named %q in %s", name, dir),
			"use the exact name of one of availableOptions").WithOptions(names...)
		if len(names) == 0 {
			te.Hint = "the project has no saved run configuration (.idea/runConfigurations, .run, .idea/workspace.xml or .vscode/launch.json)"
		}
		return RunConfiguration{}, te
	}
	return c, nil
}

// RestartResult is the answer of restart_run_configuration.
type RestartResult struct {
	RunResult
	Hint string `json:"hint,omitempty"`
}

func (x *IDE) restartConfiguration(ctx context.Context, in ConfigurationInput) (RestartResult, error) {
	dir, err := x.project(in.ProjectPath)
	if err != nil {
		return RestartResult{}, err
	}
	c, err := x.find(dir, in.ConfigurationName, in.Source)
	if err != nil {
		return RestartResult{}, err
	}
	return x.restart(ctx, c)
}

// StartConfiguration implements toolkit.ConfigurationStarter for the
// other capabilities (run_and_invoke): a configuration that already runs
// is reused, else it is started.
func (x *IDE) StartConfiguration(ctx context.Context, project, name string) (int, error) {
	dir, err := x.project(project)
	if err != nil {
		return 0, err
	}
	c, err := x.find(dir, name, "")
	if err != nil {
		return 0, err
	}
	for _, p := range x.runner.Processes() {
		if p.Name == c.Name && p.Source == c.Source && p.Running {
			return p.PID, nil
		}
	}
	res, err := x.restart(ctx, c)
	if err != nil && !res.Exited {
		return 0, err
	}
	if res.Exited {
		return 0, toolkit.NewError(toolkit.CodeInvalidState, fmt.Sprintf("%q exited at start (code %s)", c.Name, exitText(res.ExitCode)),
			"read its output with read_target_application_logs(pid), fix it and try again").WithDetails(map[string]any{"pid": res.PID, "output": res.Output})
	}
	return res.PID, nil
}

func exitText(code *int) string {
	if code == nil {
		return "unknown"
	}
	return fmt.Sprint(*code)
}

// restart starts or restarts a configuration, with tool errors.
func (x *IDE) restart(ctx context.Context, c RunConfiguration) (RestartResult, error) {
	if !c.Runnable() {
		te := toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("%q cannot be restarted: %s", c.Name, c.Unsupported), "")
		if c.Kind == KindCompound {
			te.WithOptions(c.Members...)
			te.Hint = "restart each of availableOptions"
		} else if c.Request == "attach" {
			te.Hint = "use debug_run_configuration to attach"
		}
		return RestartResult{}, te
	}
	res, err := x.runner.Restart(ctx, c)
	var several *SeveralRunningError
	var te *toolkit.ToolError
	switch {
	case errors.As(err, &te):
		return RestartResult{}, te
	case errors.As(err, &several):
		return RestartResult{}, toolkit.NewError(toolkit.CodeInvalidState, several.Error(),
			"stop the extra instances first; dbg does not guess which one to restart").WithDetails(map[string]any{"pids": several.PIDs})
	case errors.Is(err, ErrRunnerClosed):
		return RestartResult{}, toolkit.NewError(toolkit.CodeInvalidState, err.Error(), "the server is shutting down")
	case err != nil:
		return RestartResult{}, toolkit.NewError(toolkit.CodeInvalidState, fmt.Sprintf("cannot start %q: %s", c.Name, RedactText(err.Error())),
			"check that the command exists on PATH and the working directory is right").WithDetails(map[string]any{"command": x.view(c).Command, "cwd": c.Cwd}).Wrap(err)
	}
	if c.shown != nil {
		res.Command = c.shown.Command // ${env:X} as written
	}
	res.Command = redactArgs(res.Command)
	for i, l := range res.Output {
		res.Output[i] = RedactText(l)
	}
	out := RestartResult{RunResult: res, Hint: fmt.Sprintf("read its output with read_target_application_logs(pid: \"%d\")", res.PID)}
	if res.Exited {
		out.Hint = "the process exited at once; its output is in output"
	}
	if len(res.OtherInstances) > 0 {
		out.Hint += fmt.Sprintf("; note: %d other instance(s) not started by dbg run the same program (pids %v) and may hold its ports", len(res.OtherInstances), res.OtherInstances)
	}
	if res.Exited && (res.ExitCode == nil || *res.ExitCode != 0) {
		// The process failed at once: a business failure, with the run's
		// fields (pid, exit code, output) kept in data.
		return out, toolkit.NewError(toolkit.CodeInvalidState, fmt.Sprintf("%q exited at start (code %s)", c.Name, exitText(res.ExitCode)),
			"read its output in data.output, fix the configuration and try again").KeepData()
	}
	return out, nil
}
