package ide

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

// Debug modes of debug_run_configuration.
const (
	// DebugSession: the configuration runs under a debug adapter.
	DebugSession = "session"
	// DebugJVM: no Java adapter is installed, so the JVM runs as an owned
	// process for the JVM capabilities to attach to.
	DebugJVM = "jvm"
)

// DebugInput is the input of debug_run_configuration.
type DebugInput struct {
	ConfigurationInput
	StopOnEntry bool              `json:"stopOnEntry,omitempty" jsonschema:"stop at the first line"`
	Breakpoints []BreakpointInput `json:"breakpoints,omitempty" jsonschema:"set before the start"`
}

// BreakpointInput is a line breakpoint of debug_run_configuration.
type BreakpointInput struct {
	File      string `json:"file" jsonschema:"absolute or relative to the project"`
	Line      int    `json:"line"`
	Condition string `json:"condition,omitempty"`
}

// DebugResult is the answer of debug_run_configuration: one session's,
// or a compound's group with each member's answer.
type DebugResult struct {
	DebugSessionResult
	Group   string               `json:"group,omitempty"`
	Members []DebugSessionResult `json:"members,omitempty"`
}

// DebugSessionResult is what one configuration became.
type DebugSessionResult struct {
	ConfigurationName string                `json:"configurationName"`
	Mode              string                `json:"mode"`
	SessionID         string                `json:"sessionId,omitempty"`
	Language          string                `json:"language,omitempty"`
	Start             *sessions.StartResult `json:"start,omitempty"`
	PID               int                   `json:"pid,omitempty"`
	NextAction        string                `json:"nextAction,omitempty"`
	Hint              string                `json:"hint,omitempty"`
}

// debugPlan is how a configuration becomes a debug session.
type debugPlan struct {
	create sessions.CreateRequest
	start  *sessions.StartRequest // nil: create attaches
}

// launchKeysHandled are launch.json keys dbg maps itself or that only
// mean something to an editor.
var launchKeysHandled = map[string]bool{
	"type": true, "request": true, "name": true, "console": true, "preLaunchTask": true, "postDebugTask": true,
	"presentation": true, "internalConsoleOptions": true, "serverReadyAction": true, "outputCapture": true,
	"program": true, "args": true, "cwd": true, "env": true, "module": true, "envFile": true,
}

func launchExtra(entry map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range entry {
		if !launchKeysHandled[k] {
			out[k] = v
		}
	}
	return out
}

func toPort(v any) int {
	switch t := v.(type) {
	case float64:
		return int(t)
	case string:
		n, _ := strconv.Atoi(t)
		return n
	}
	return 0
}

// goPackageDir turns a Go import path into its directory, through the
// go.mod of the project (or of cwd's module).
func goPackageDir(project, cwd, pkg string) string {
	if filepath.IsAbs(pkg) {
		return pkg
	}
	for _, start := range []string{cwd, project} {
		for d := start; d != ""; d = filepath.Dir(d) {
			if mod := adapters.GoModulePath(d); mod != "" {
				if pkg == mod {
					return d
				}
				if strings.HasPrefix(pkg, mod+"/") {
					return filepath.Join(d, filepath.FromSlash(strings.TrimPrefix(pkg, mod+"/")))
				}
				break
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return cwd
}

// planDebug maps a configuration to the requests that create and start
// its debug session.
func planDebug(project string, c RunConfiguration, stopOnEntry bool) (debugPlan, error) {
	lang, ok := debugLanguage(c)
	if !ok {
		return debugPlan{}, toolkit.NewError(toolkit.CodeInvalidArgument,
			fmt.Sprintf("dbg cannot debug %s configurations directly", c.TypeName),
			"run it with restart_run_configuration and attach (attach_to_process or attach_local_jvm), or use create_debug_session")
	}
	if c.Kind == KindRemoteJVM {
		host, port, _ := strings.Cut(c.Program, ":")
		n, _ := strconv.Atoi(port)
		if n <= 0 {
			return debugPlan{}, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("%q names no JDWP port", c.Name), "set PORT in the configuration")
		}
		return debugPlan{create: sessions.CreateRequest{Language: lang, Name: c.Name, Host: host, Port: n}}, nil
	}
	p := debugPlan{create: sessions.CreateRequest{Language: lang, Name: c.Name}}
	if core := coreFileOf(c); core != "" {
		// A post-mortem entry (vscode-go's "mode": "core"): the core and
		// the binary that crashed.
		p.create.CoreFile, p.create.Program = core, c.Program
		return p, nil
	}
	if c.Source == sourceLaunch {
		entry := c.Launch
		if v, ok := entry["justMyCode"].(bool); ok {
			p.create.JustMyCode = &v
		}
		if c.Request == "attach" {
			p.create.AdapterConfig = launchExtra(entry)
			p.create.Port = toPort(entry["port"])
			p.create.ProcessID = toPort(entry["processId"])
			if h, _ := entry["address"].(string); h != "" {
				p.create.Host = h
			} else if h, _ := entry["host"].(string); h != "" {
				p.create.Host = h
			}
			if conn, ok := entry["connect"].(map[string]any); ok { // debugpy
				p.create.Host, _ = conn["host"].(string)
				p.create.Port = toPort(conn["port"])
			}
			if p.create.Port == 0 && p.create.ProcessID == 0 {
				return debugPlan{}, toolkit.NewError(toolkit.CodeInvalidArgument,
					fmt.Sprintf("attach configuration %q names no port or processId dbg can use", c.Name),
					"use attach_to_process with the pid or port")
			}
			return p, nil
		}
	}
	if c.Request != "" && c.Request != "launch" {
		return debugPlan{}, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("request %q is not supported", c.Request), "")
	}
	st := &sessions.StartRequest{ScriptPath: c.Program, Args: c.Args, Cwd: c.Cwd, Env: c.Env, StopOnEntry: stopOnEntry,
		DAPLaunchArgs: map[string]any{}}
	if c.Source == sourceLaunch {
		st.AdapterLaunchConfig = launchExtra(c.Launch)
	}
	switch c.Kind {
	case KindPython:
		if c.pythonMod {
			st.ScriptPath = "-m " + c.Program
		}
		if c.interpreter != "" {
			p.create.ExecutablePath = c.interpreter
		}
	case KindNode:
		if c.interpreter != "" {
			p.create.ExecutablePath = c.interpreter
		}
		if len(c.VMArgs) > 0 {
			st.DAPLaunchArgs["runtimeArgs"] = c.VMArgs
		}
	case KindGo, KindGoTest:
		if c.Source != sourceLaunch {
			st.ScriptPath = goPackageDir(project, c.Cwd, c.Program)
			if c.Kind == KindGoTest {
				st.DAPLaunchArgs["mode"] = "test"
				if c.testPattern != "" {
					st.Args = append([]string{"-test.run", c.testPattern}, st.Args...)
				}
			}
			if len(c.VMArgs) > 0 {
				st.DAPLaunchArgs["buildFlags"] = strings.Join(c.VMArgs, " ")
			}
		}
	case KindApplication, KindSpringBoot:
		st.DAPLaunchArgs["mainClass"] = c.Program
		st.DAPLaunchArgs["classpath"] = strings.Split(c.classpath, string(os.PathListSeparator))
		if len(c.VMArgs) > 0 {
			st.DAPLaunchArgs["vmArgs"] = c.VMArgs
		}
	}
	if st.ScriptPath == "" {
		return debugPlan{}, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("%q names no program", c.Name), "")
	}
	p.start = st
	return p, nil
}

func (x *IDE) debugConfiguration(ctx context.Context, in DebugInput) (DebugResult, error) {
	dir, err := x.project(in.ProjectPath)
	if err != nil {
		return DebugResult{}, err
	}
	c, err := x.find(dir, in.ConfigurationName, in.Source)
	if err != nil {
		return DebugResult{}, err
	}
	if x.m == nil {
		return DebugResult{}, toolkit.NewError(toolkit.CodeInternal, "no session manager", "")
	}
	if c.Kind == KindCompound {
		return x.debugCompound(ctx, dir, c, in)
	}
	return x.debugOne(ctx, dir, c, in)
}

// debugOne debugs one configuration c of the project in dir.
func (x *IDE) debugOne(ctx context.Context, dir string, c RunConfiguration, in DebugInput) (DebugResult, error) {
	res := DebugResult{DebugSessionResult: DebugSessionResult{ConfigurationName: c.Name, Mode: DebugSession}}
	if c.Kind == KindApplication || c.Kind == KindSpringBoot {
		if lang, _ := debugLanguage(c); !x.registered(lang) {
			return x.runAttachableJVM(ctx, c)
		}
	}
	plan, err := planDebug(dir, c, in.StopOnEntry)
	if err != nil {
		return DebugResult{}, err
	}
	s, startRes, err := x.m.Create(ctx, plan.create)
	if err != nil {
		if s != nil {
			x.closeSession(s.ID())
		}
		return DebugResult{}, err
	}
	res.SessionID, res.Language, res.Start = s.ID(), s.Language(), startRes
	for _, bp := range in.Breakpoints {
		file := bp.File
		if file != "" && !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		if _, err := s.SetBreakpoint(ctx, sessions.BreakpointSpec{File: file, Line: bp.Line, Condition: bp.Condition}); err != nil {
			x.closeSession(s.ID())
			return DebugResult{}, err
		}
	}
	if plan.start != nil {
		startRes, err = x.m.Start(ctx, s.ID(), *plan.start)
		if err != nil {
			x.closeSession(s.ID())
			return DebugResult{}, err
		}
		res.Start = startRes
	}
	res.NextAction, res.Hint = toolkit.NextSetBreakpoint, "session "+s.ID()+" is running: set_breakpoint, then wait_for_stop"
	if res.Start != nil && res.Start.State == sessions.StatePaused {
		res.NextAction, res.Hint = toolkit.NextInspectStop, "session "+s.ID()+" is paused: get_stack_trace and get_local_variables"
	}
	return res, nil
}

// debugLanguage is the language of the session that debugs c: that of
// the adapter declaring c's launch type.
func debugLanguage(c RunConfiguration) (string, bool) {
	a, ok := languages().ForLaunchType(launchTypeOf(c.Kind))
	if !ok {
		return "", false
	}
	return a.Language(), true
}

// registered reports whether the session manager has lang's adapter.
func (x *IDE) registered(lang string) bool {
	_, ok := x.m.Adapters().Lookup(lang)
	return lang != "" && ok
}

// closeSession removes a session whose start failed.
func (x *IDE) closeSession(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = x.m.CloseSession(ctx, id)
}

// runAttachableJVM starts a Java configuration as an owned process when
// no Java adapter exists; the JVM capabilities attach to it by pid.
func (x *IDE) runAttachableJVM(ctx context.Context, c RunConfiguration) (DebugResult, error) {
	r, err := x.restart(ctx, c)
	if err != nil && !r.Exited {
		return DebugResult{}, err
	}
	lang, _ := debugLanguage(c)
	res := DebugResult{DebugSessionResult: DebugSessionResult{ConfigurationName: c.Name, Mode: DebugJVM, Language: lang, PID: r.PID, NextAction: toolkit.NextAttachJVM,
		Hint: fmt.Sprintf("no Java debug adapter is installed; the JVM runs as pid %d: attach_local_jvm with that pid", r.PID)}}
	if r.Exited {
		res.NextAction, res.Hint = "", "the JVM exited at once; its output: "+strings.Join(r.Output, " | ")
	}
	return res, err // err: the JVM failed at once, a failure that keeps res
}
