package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
	"github.com/dbg-dev/dbg/debugtools"
	"github.com/dbg-dev/dbg/ide"
	"github.com/dbg-dev/dbg/remote"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/sessions/sessiontools"
	"github.com/dbg-dev/dbg/testrun"
	"github.com/dbg-dev/dbg/toolkit"
	"github.com/dbg-dev/dbg/toolkit/mcpbind"
	"github.com/dbg-dev/dbg/toolkit/redact"
)

// newManager builds the session manager of project, which reaches other
// machines through reacher (nil: none), and reaps what a crashed server
// left behind.
func (f *factory) newManager(project string, flags serverFlags, reacher sessions.Reacher) *sessions.Manager {
	m := sessions.NewManager(sessions.Config{
		Adapters:     f.registry(),
		Project:      project,
		DAPLogDir:    f.getenv("DBG_DAP_LOG"),
		DAPLogRedact: dapLogRedact(flags.RevealSecrets),
		StateDir:     f.stateDir(),
		Now:          f.now,
		Reacher:      reacher,

		NoSideEffects:       flags.NoSideEffects || flags.Profile == toolkit.ProfileObserve,
		MaxSessions:         flags.MaxSessions,
		AllowOutsideProject: flags.AllowOutsideProject,
		RequestTimeout:      flags.RequestTimeout,
		// DBG_WARM_ADAPTERS=0 turns the warm adapter pool off.
		WarmAdapters: f.getenv("DBG_WARM_ADAPTERS") != "0",
	})
	m.Reap()
	return m
}

// dapLogRedact is the redaction of the DAP traffic log: the answers'
// (values and credential-named entries), unless the server reveals
// secrets.
func dapLogRedact(reveal bool) func([]byte) []byte {
	if reveal {
		return nil
	}
	return func(b []byte) []byte { return redact.JSON(b, false) }
}

// serverFlags are the server's own flags (dbg mcp, dbg serve).
type serverFlags struct {
	// RevealSecrets turns the redaction of credentials off: answers show
	// raw values.
	RevealSecrets bool
	// NoSideEffects makes evaluate_expression default to sideEffects:
	// false, for read-only agents.
	NoSideEffects bool
	// The limits the agent cannot lift by an argument: NoReveal makes
	// reveal: true an error, MaxSessions and MaxProcesses cap the open
	// sessions and the running processes (0: no cap), and
	// AllowOutsideProject lets paths leave the project and the programs.
	NoReveal            bool
	MaxSessions         int
	MaxProcesses        int
	AllowOutsideProject bool
	// RequestTimeout bounds each DAP request (0: the default).
	RequestTimeout time.Duration
	policyFlags

	// clients follows the clients of dbg serve, whose sessions close
	// after a client left; nil: one client (stdio, in process).
	clients *mcpbind.Clients
}

// newServer builds the MCP server of project ("" = the working
// directory) with every tool, for a command of the user's own (the
// console, an in-process one-shot command): paths are not confined to
// the project, as the user names them at a shell that reads any file.
// The returned function releases the capabilities, then shuts the
// session manager down (at most 10 seconds).
func (f *factory) newServer(ctx context.Context, project string) (*mcp.Server, func()) {
	return f.newServerWith(ctx, project, serverFlags{AllowOutsideProject: true})
}

// newServerWith is newServer with the server's flags.
func (f *factory) newServerWith(ctx context.Context, project string, flags serverFlags) (*mcp.Server, func()) {
	rc := f.newRemote()
	m := f.newManager(project, flags, rc)
	// Building ~50 tool schemas allocates a few MB that stay live: skip the
	// collections it would trigger, so the first answer comes sooner.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	opts := &mcp.ServerOptions{
		Instructions: "dbg debugs programs in many languages. Typical flow: create_debug_session → set_breakpoint → start_debugging → (wait_for_stop) → get_stack_trace / get_local_variables / evaluate_expression → step_over / continue_execution → close_debug_session. get_debug_tools_status says what to do next.",
	}
	mcpbind.AllowSubscriptions(opts, sessiontools.CheckResource(m))
	srv := mcp.NewServer(&mcp.Implementation{Name: "dbg", Version: version}, opts)
	release := registerTools(ctx, f, srv, m, rc, flags)
	return srv, func() {
		release()
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		m.Shutdown(sctx)
	}
}

// registerTools is the one place that registers tools: each capability,
// built by its package's New with what it depends on, registers what it
// serves (toolkit.Capability): the debug sessions first (their tools,
// resources and get_debug_tools_status), then the JVM, the run
// configurations and Git, the tests, and the other machines (rc, which
// the manager reaches them with). The returned function releases what
// the capabilities hold (agent connections, processes started for run
// configurations).
func registerTools(ctx context.Context, f *factory, srv *mcp.Server, m *sessions.Manager, rc *remote.Remote, flags serverFlags) func() {
	tb := mcpbind.NewToolbox(srv, f.now)
	audit := toolkit.NewAuditLog(f.stateDir(), f.now, pidOf(m))
	audit.SetOwnerOf(m.OwnerID)
	tb.SetPolicy(flags.policy(audit))
	if flags.clients != nil {
		// A client gone (disconnected, its grace passed) takes its
		// sessions with it.
		flags.clients.Follow(srv)
		flags.clients.OnGone(func(id string) {
			cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			m.CloseOwnedBy(cctx, id)
		})
	}
	tb.SetRevealSecrets(flags.RevealSecrets)
	tb.SetNoReveal(flags.NoReveal)
	ctx, cancel := context.WithCancel(ctx)
	// The run configurations start the JVMs of run_and_invoke.
	x := ide.New(m, ide.Options{Context: ctx, Getenv: f.getenv, Runner: ide.RunnerOptions{MaxProcesses: flags.MaxProcesses}})
	svc := debugtools.NewService(debugtools.Config{AgentJar: f.getenv(debugtools.AgentJarEnv), Now: f.now})
	for _, c := range []toolkit.Capability{
		sessiontools.New(m),
		debugtools.New(m, svc, debugtools.Config{Now: f.now, Starter: x}),
		x,
		testrun.New(m),
		rc,
	} {
		c.Register(tb)
	}
	// Last: enable_toolset knows every toolset.
	toolkit.AddToolsetTool(tb)
	return func() {
		cctx, done := context.WithTimeout(context.Background(), 10*time.Second)
		defer done()
		_ = x.Close(cctx) // returns once every process group is gone
		cancel()
		svc.Close()
	}
}

// toolClient connects a command to the tools of project: the running
// daemon's, or an in-process server's.
func (f *factory) toolClient(ctx context.Context, project string) (*toolclient.Client, error) {
	return toolclient.New(ctx, toolclient.Config{
		StateDir: f.stateDir(),
		Project:  project,
		Version:  version,
		Serve:    func(ctx context.Context) (*mcp.Server, func()) { return f.newServer(ctx, project) },
	})
}

// newRemote builds the capability that reaches other machines: ssh with
// the user's configuration (DBG_SSH_CONFIG names another ssh_config),
// its control sockets in a private folder of dbg's state.
func (f *factory) newRemote() *remote.Remote {
	return remote.New(remote.Config{Adapters: f.registry(), SSHConfig: f.getenv("DBG_SSH_CONFIG"),
		PrivateDir: func() (string, error) { return privateDir(filepath.Join(f.stateDir(), "remote")) }})
}

// privateDir makes dir (and its parents) private to this user and checks
// that it is: a folder, no symbolic link, this user's, closed to others.
func privateDir(dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return "", err
	}
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !st.IsDir() || !ok || int(sys.Uid) != os.Geteuid() || st.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("%s is not a folder private to this user", dir)
	}
	return dir, nil
}
