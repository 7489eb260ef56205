package debugtools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

// Manager is what the JVM tools need of the session manager; a
// *sessions.Manager satisfies it. The project of a call, a debug session's
// process and output (sessionId), the output of processes the server
// owns, and the clock.
type Manager interface {
	ResolveProject(arg string) (string, error)
	Get(id string) (*sessions.Session, error)
	ProcessByPID(pid int) (toolkit.OwnedProcess, bool)
	Now() time.Time
}

// Tools is the JVM capability of a server (docs/contract.md, "JVM
// capabilities"): the JVM tools and the "jvm" status contributor.
type Tools struct {
	m   Manager
	svc *Service
	cfg Config
}

// New returns the JVM capability over m and svc, a Service the caller
// closes.
func New(m Manager, svc *Service, cfg Config) *Tools { return &Tools{m: m, svc: svc, cfg: cfg} }

// Register implements toolkit.Capability.
func (x *Tools) Register(tb *toolkit.Toolbox) {
	m, cfg := x.m, x.cfg
	t := &jvmTools{m: m, svc: x.svc, starter: cfg.Starter}
	declareToolset(tb, m)
	toolkit.AddTool(tb, "list_debug_tools_connections",
		"DebugTools agent connections to JVMs: connectionId, application, pid, ports, state, class loader.",
		t.listConnections, toolkit.Hints{Title: "JVM connections", ReadOnly: true}, toolkit.InToolset(Toolset))
	toolkit.AddTool(tb, "list_attachable_jvms",
		"Local JVMs one can attach (pid, displayName, attachName, matching run configuration); IDE and Gradle daemons left out.",
		t.listJVMs, toolkit.Hints{Title: "Attachable JVMs", ReadOnly: true}, toolkit.InToolset(Toolset))
	toolkit.AddTool(tb, "attach_local_jvm",
		"Load the DebugTools agent into a local JVM (pid); answers the connectionId the JVM tools take.",
		t.attach, toolkit.Hints{Title: "Attach JVM agent", Idempotent: true}, toolkit.InToolset(Toolset))
	toolkit.AddTool(tb, "invoke_java_method",
		"Invoke a Java method in the JVM (a Spring bean, a live instance or a new one); argsJson in declaration order.",
		t.invoke, toolkit.Hints{Title: "Invoke Java method", Destructive: true, Alters: true}, toolkit.InToolset(Toolset), toolkit.ListReveal())
	toolkit.AddTool(tb, "read_target_application_logs",
		"Recent logs of the JVM (connection), of a session (sessionId) or of a process dbg started (pid); since=next for newer.",
		t.logs, toolkit.Hints{Title: "Application logs", ReadOnly: true}, toolkit.InToolset(Toolset))
	toolkit.AddTool(tb, "get_last_sql_statements",
		"The JVM's recent JDBC statements with parameters, durations and failures.",
		t.sql, toolkit.Hints{Title: "Recent SQL", ReadOnly: true}, toolkit.InToolset(Toolset))
	toolkit.AddTool(tb, "run_and_invoke",
		"Attach when needed, wait until the JVM is ready, invoke the method, and answer its result with the logs and SQL it produced.",
		t.runAndInvoke, toolkit.Hints{Title: "Run and invoke", Destructive: true, Alters: true}, toolkit.InToolset(Toolset), toolkit.ListReveal())
	registerSourceTools(tb, m, cfg)
	tb.Status().Register("jvm", &jvmStatus{t: t})
	registerPrompts(tb)
}

type jvmTools struct {
	m       Manager
	svc     *Service
	starter toolkit.ConfigurationStarter // nil: no run configurations

	linkMu sync.Mutex
	links  map[string]projectLinkEntry // project + "\x00" + main class
}

type projectLinkEntry struct {
	at                   time.Time
	config, module, proj *string
}

// link is linkProject cached for 30 seconds: status calls it often.
func (t *jvmTools) link(project, mainClass string) (config, module, proj *string) {
	key := project + "\x00" + mainClass
	t.linkMu.Lock()
	e, ok := t.links[key]
	t.linkMu.Unlock()
	if ok && time.Since(e.at) < 30*time.Second {
		return e.config, e.module, e.proj
	}
	config, module, proj = linkProject(project, mainClass)
	t.linkMu.Lock()
	if t.links == nil || len(t.links) > 256 {
		t.links = map[string]projectLinkEntry{}
	}
	t.links[key] = projectLinkEntry{at: time.Now(), config: config, module: module, proj: proj}
	t.linkMu.Unlock()
	return config, module, proj
}

// flexString is a string argument that also accepts a JSON number (pids).
type flexString string

// UnmarshalJSON implements json.Unmarshaler.
func (f *flexString) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*f = flexString(strings.TrimSpace(s))
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return &json.UnmarshalTypeError{Value: toolkit.DescribeJSON(b), Type: stringType}
	}
	*f = flexString(n.String())
	return nil
}

// Common are the arguments every JVM tool takes.
type Common struct {
	SessionID   string `json:"sessionId,omitempty"`
	ProjectPath string `json:"projectPath,omitempty"`
}

// ClassLoaderOut names a class loader.
type ClassLoaderOut struct {
	Name     string `json:"name"`
	Identity string `json:"identity"`
}

// ConnectionOut is one entry of list_debug_tools_connections.
type ConnectionOut struct {
	ConnectionID       string            `json:"connectionId"`
	ApplicationName    string            `json:"applicationName"`
	PID                *string           `json:"pid"`
	Source             string            `json:"source"`
	Host               string            `json:"host"`
	Port               int               `json:"port"`
	HTTPPort           *int              `json:"httpPort"`
	Remark             *string           `json:"remark"`
	State              string            `json:"state"`
	Active             bool              `json:"active"`
	DefaultClassLoader *ClassLoaderOut   `json:"defaultClassLoader"`
	Headers            map[string]string `json:"headers"`
	PrintSQLType       *string           `json:"printSqlType"`
}

type connectionsOut struct {
	Count       int             `json:"count"`
	Connections []ConnectionOut `json:"connections"`
}

func connOut(c *Connection) ConnectionOut {
	pid := strconv.Itoa(c.PID)
	o := ConnectionOut{ConnectionID: c.ID, ApplicationName: c.ApplicationName, PID: &pid, Source: "LOCAL", Host: c.Host,
		Port: c.Port, State: c.State(), Active: c.State() == "CONNECTED", Headers: map[string]string{}}
	if c.HTTPPort > 0 {
		hp := c.HTTPPort
		o.HTTPPort = &hp
	}
	if c.DefaultLoader != nil {
		o.DefaultClassLoader = &ClassLoaderOut{Name: c.DefaultLoader.Name, Identity: c.DefaultLoader.Identity}
	}
	return o
}

func (t *jvmTools) listConnections(ctx context.Context, in Common) (connectionsOut, error) {
	conns := t.svc.Connections()
	if in.SessionID != "" {
		pid, err := t.sessionPID(in.SessionID)
		if err != nil {
			return connectionsOut{}, err
		}
		var mine []*Connection
		for _, c := range conns {
			if c.PID == pid {
				mine = append(mine, c)
			}
		}
		conns = mine
	}
	out := connectionsOut{Connections: []ConnectionOut{}}
	for _, c := range conns {
		out.Connections = append(out.Connections, connOut(c))
	}
	out.Count = len(out.Connections)
	return out, nil
}

// sessionPID returns the debuggee pid of a session.
func (t *jvmTools) sessionPID(id string) (int, error) {
	s, err := t.m.Get(id)
	if err != nil {
		return 0, err
	}
	info := s.Info()
	if info.PID == 0 {
		return 0, toolkit.NewError(toolkit.CodeNoConnection, fmt.Sprintf("session %s has no known process id", info.ID),
			"wait until the session runs, or pass connectionId or pid").WithNext(toolkit.NextAttachJVM)
	}
	return info.PID, nil
}

// knownSession refuses a sessionId that names no session, so that a
// caller's wrong id is an error even where the call does not need the
// session (a pid or projectPath given too).
func knownSession(m Manager, id string) error {
	if id == "" {
		return nil
	}
	_, err := m.Get(id)
	return err
}

// resolveConn picks the connection a call targets: connectionId, else the
// session's JVM (attached on demand), else the only connection.
func (t *jvmTools) resolveConn(ctx context.Context, connectionID string, c Common) (*Connection, error) {
	if err := knownSession(t.m, c.SessionID); err != nil {
		return nil, err
	}
	if connectionID != "" {
		if conn, ok := t.svc.Connection(connectionID); ok {
			return conn, nil
		}
		return nil, toolkit.NewError(toolkit.CodeConnectionNotFound, fmt.Sprintf("no DebugTools connection %q", connectionID),
			"pass one of availableOptions, or attach with attach_local_jvm").WithOptions(t.connIDs()...).WithNext(toolkit.NextSelectConnection)
	}
	if c.SessionID != "" {
		pid, err := t.sessionPID(c.SessionID)
		if err != nil {
			return nil, err
		}
		if conn := t.svc.ConnectionByPID(pid); conn != nil {
			return conn, nil
		}
		res, err := t.svc.Attach(ctx, pid, "", 30*time.Second)
		if err != nil {
			return nil, attachError(pid, err)
		}
		if res.Conn == nil {
			return nil, toolkit.NewError(toolkit.CodeAttachFailed, res.Message, "retry, or check the target's stderr").Retry()
		}
		return res.Conn, nil
	}
	conns := t.svc.Connections()
	switch len(conns) {
	case 1:
		return conns[0], nil
	case 0:
		var pids []string
		if jvms, err := t.svc.JVMs(ctx); err == nil {
			for _, j := range jvms {
				pids = append(pids, fmt.Sprintf("%d (%s)", j.PID, j.DisplayName))
			}
		}
		return nil, toolkit.NewError(toolkit.CodeNoConnection, "No active DebugTools connection found",
			"attach a JVM with attach_local_jvm (candidates in availableOptions) or use run_and_invoke").WithOptions(pids...).WithNext(toolkit.NextAttachJVM)
	default:
		return nil, toolkit.NewError(toolkit.CodeConnectionAmbiguous, fmt.Sprintf("%d DebugTools connections are active", len(conns)),
			"pass connectionId: one of availableOptions").WithOptions(t.connIDs()...).WithNext(toolkit.NextSelectConnection)
	}
}

func (t *jvmTools) connIDs() []string {
	var ids []string
	for _, c := range t.svc.Connections() {
		ids = append(ids, c.ID)
	}
	return ids
}

// attachError turns an attach failure into ATTACH_FAILED with a hint.
func attachError(pid int, err error) *toolkit.ToolError {
	var te *toolkit.ToolError
	if errors.As(err, &te) {
		return te
	}
	hint := "check that pid is a running HotSpot JVM of your user"
	switch {
	case errors.Is(err, ErrNotAttachable):
		hint = "restart the JVM without the option named in the message, or debug it with create_debug_session over JDWP"
	case errors.Is(err, ErrAgentBuild):
		hint = "install a JDK (javac) or set JAVA_HOME; or point " + AgentJarEnv + " at an agent jar"
	case errors.Is(err, context.DeadlineExceeded):
		return toolkit.NewError(toolkit.CodeTimeout, fmt.Sprintf("attach to pid %d timed out: %v", pid, err), "retry with a longer wait").Retry().Wrap(err)
	}
	return toolkit.NewError(toolkit.CodeAttachFailed, err.Error(), hint).WithDetails(map[string]any{"pid": strconv.Itoa(pid)}).Wrap(err)
}
