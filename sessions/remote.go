package sessions

import (
	"context"
	"fmt"
	"net"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/toolkit"
)

// RemoteToolset returns the toolset of the tools that reach a program
// create_debug_session does not: attaching a session already created,
// and listing another machine's processes. create_debug_session attaches
// by itself (its processId, port and via), so the default list leaves
// them out; the session tools and the remote capability both declare it.
func RemoteToolset() toolkit.Toolset {
	return toolkit.Toolset{Name: "remote", Description: "attach a created session; list another machine's processes"}
}

// Via names how dbg reaches a program on another machine
// (create_debug_session's via; docs/contract.md, "Beyond one machine"):
// through ssh, docker or kubectl, whichever Kind says. The manager hands
// it to its [Reacher].
type Via struct {
	Kind         string      `json:"kind" jsonschema:"ssh (host, user, port, identityFile), docker (container) or kubernetes (pod, namespace, container, context, image of a debug container)"`
	Host         string      `json:"host,omitempty"`
	User         string      `json:"user,omitempty"`
	Port         toolkit.Int `json:"port,omitempty"`
	IdentityFile string      `json:"identityFile,omitempty"`
	Container    string      `json:"container,omitempty"`
	Pod          string      `json:"pod,omitempty"`
	Namespace    string      `json:"namespace,omitempty"`
	Context      string      `json:"context,omitempty"`
	Image        string      `json:"image,omitempty"`
	TimeoutMs    toolkit.Int `json:"timeoutMs,omitempty" jsonschema:"default 30000"`
}

// Reacher opens the way to a program on another machine and closes it:
// it starts the program's debug server there (as the language's
// [adapters.Remote] declares), forwards its port to this machine's
// loopback and says how to attach. The remote capability implements it;
// [Config.Reacher] hands it to the manager. Reach is called concurrently,
// once per attach through a via; it honours ctx's deadline.
type Reacher interface {
	Reach(ctx context.Context, r ReachRequest) (*Reach, error)
}

// ReachRequest is an attach through a via.
type ReachRequest struct {
	Via     Via
	Adapter adapters.Adapter
	// PID is the program's pid on the target; Port, when PID is 0, a
	// debugger port it serves there already.
	PID, Port int
	// PathMappings are the caller's; none: the reacher may propose some.
	PathMappings []adapters.PathMapping
	// Project is the local project, where proposed mappings point.
	Project string
}

// Reach is an opened way to a remote program.
type Reach struct {
	// Remote is the program as the adapter attaches to it: set for a
	// debug server the reacher started. Host and Port are the forwarded
	// end of the program's own debugger port, for a Port attach.
	Remote     *adapters.RemoteEnd
	Host       string
	Port       int
	RemotePort int // the program's port on the target, for a Port attach
	// PathMappings are those the attach passes: the caller's, or those
	// the reacher proposed.
	PathMappings []adapters.PathMapping
	// Info is what the answers say of the way.
	Info RemoteInfo
	// Propose, when set, proposes mappings for remote paths the stack
	// shows that are not found here; note says how (for the answer).
	Propose func(remotePaths []string) (maps []adapters.PathMapping, note string)
	// Explain, when set, turns an attach failure into the error naming
	// what the target lacks (ptrace refused in a container: the flag
	// that grants it).
	Explain func(err error) error
	// Close tears the way down: the forward, the debug server, the
	// connection. It is called once, after the adapter let go.
	Close func(ctx context.Context)

	closeOnce sync.Once
}

// close runs r.Close once.
func (r *Reach) close(ctx context.Context) {
	if r == nil || r.Close == nil {
		return
	}
	r.closeOnce.Do(func() { r.Close(ctx) })
}

// RemoteInfo is what an attach through a via says of the way it took.
type RemoteInfo struct {
	Via          string                 `json:"via"`
	Server       string                 `json:"server,omitempty"`
	Forward      string                 `json:"forward,omitempty"`
	PathMappings []adapters.PathMapping `json:"pathMappings,omitempty"`
	// Mapping says where the mappings come from: "given", "proposed:
	// ..." with how, or why none was used.
	Mapping  string   `json:"mapping,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// Remote returns what the session's attach through a via said of its way
// (nil: the session was not reached through one).
func (s *Session) Remote() *RemoteInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.remote == nil {
		return nil
	}
	info := s.remote.Info
	info.PathMappings = slices.Clone(info.PathMappings)
	info.Warnings = slices.Clone(info.Warnings)
	return &info
}

// Warnings returns the warnings of the session's last attach (a debugger
// port off loopback without a via).
func (s *Session) Warnings() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.warnings)
}

// reach opens the way of an attach through req.Via and points t at it,
// or, without a via, warns when t's host is off this machine. The Reach
// is nil without a via.
func (s *Session) reach(ctx context.Context, req CreateRequest, t *adapters.Target) (*Reach, error) {
	s.mu.Lock()
	s.warnings = nil
	s.mu.Unlock()
	if req.Via == nil {
		if w := offLoopback(t.Host); w != "" {
			s.mu.Lock()
			s.warnings = []string{w}
			s.mu.Unlock()
		}
		return nil, nil
	}
	rm := s.adapter.Traits().Remote
	if !rm.Reachable() && req.ProcessID != 0 {
		why := "dbg has no remote attach by pid for " + s.language
		if rm != nil && rm.Refused != "" {
			why = rm.Refused
		}
		return nil, toolkit.NewError(toolkit.CodeUnsupported, why, "attach with via and the port of a debug server you started on the target")
	}
	if s.m.cfg.Reacher == nil {
		return nil, toolkit.NewError(toolkit.CodeUnsupported, "this server reaches no other machine", "run dbg mcp or dbg serve, whose servers do")
	}
	project, _ := s.m.ResolveProject("")
	r, err := s.m.cfg.Reacher.Reach(ctx, ReachRequest{Via: *req.Via, Adapter: s.adapter, PID: req.ProcessID, Port: req.Port,
		PathMappings: req.PathMappings, Project: project})
	if err != nil {
		return nil, err
	}
	t.PID, t.Host, t.Port, t.Remote, t.PathMappings = 0, r.Host, r.Port, r.Remote, r.PathMappings
	if t.Remote != nil {
		t.Host, t.Port = "", 0
	}
	return r, nil
}

// keepReach ties r to the session's adapter: it is closed after the
// adapter's stream (the debug server lets the program go first), when
// the session detaches, closes or attaches again.
func (s *Session) keepReach(r *Reach) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.remote = r
	if r == nil || s.ep == nil {
		return
	}
	inner := s.ep.Cleanup
	s.ep.Cleanup = func() {
		if inner != nil {
			inner()
		}
		r.close(context.Background())
	}
}

// remoteFailed is err of an attach through r that failed, with what r
// knows of the target, after r is closed.
func remoteFailed(ctx context.Context, r *Reach, err error) error {
	if r == nil {
		return err
	}
	r.close(ctx)
	if r.Explain != nil {
		return r.Explain(err)
	}
	return err
}

// proposeFromStack asks the reacher for mappings of the remote paths the
// stopped program's stacks show and no local file has, when the caller
// gave none and the adapter can add one while attached, adds them, and
// reads the stop again so that it shows local paths.
func (s *Session) proposeFromStack(ctx context.Context, res *StartResult) {
	s.mu.Lock()
	r := s.remote
	s.mu.Unlock()
	rm := s.adapter.Traits().Remote
	if r == nil || r.Propose == nil || len(r.PathMappings) > 0 || rm == nil || rm.LiveMapping == nil || res == nil || res.State != StatePaused {
		return
	}
	paths := s.unmappedPaths(ctx)
	if len(paths) == 0 {
		return
	}
	maps, note := r.Propose(paths)
	var added []adapters.PathMapping
	for _, m := range maps {
		if _, err := s.Evaluate(ctx, rm.LiveMapping(m), 0, EvalREPL); err == nil {
			added = append(added, m)
		}
	}
	s.mu.Lock()
	r.PathMappings = added
	r.Info.PathMappings = added
	r.Info.Mapping = note
	if len(added) > 0 && s.lastStop != nil {
		cp := *s.lastStop
		cp.Location = nil
		s.lastStop, s.topFrame = &cp, frameCache{}
	}
	s.mu.Unlock()
	if len(added) > 0 {
		s.resolveStop(ctx)
		res.LastStop = s.Info().LastStop
	}
}

// unmappedPaths are the source paths of the first frames of the first
// threads that no local file has.
func (s *Session) unmappedPaths(ctx context.Context) []string {
	threads, err := s.Threads(ctx)
	if err != nil {
		return nil
	}
	cur := s.currentThread()
	slices.SortStableFunc(threads, func(a, b Thread) int {
		return boolRank(b.ID == cur) - boolRank(a.ID == cur)
	})
	var out []string
	for i, th := range threads {
		if i == 8 {
			break
		}
		frames, _, err := s.StackTrace(ctx, th.ID, 0, 20)
		if err != nil {
			continue
		}
		for _, f := range frames {
			if !strings.HasPrefix(f.File, "/") || slices.Contains(out, f.File) {
				continue
			}
			if _, err := os.Stat(f.File); err != nil {
				out = append(out, f.File)
			}
		}
	}
	return out
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// offLoopback is the warning of an attach to a debugger port on another
// host reached without a via ("": host is this machine).
func offLoopback(host string) string {
	h := strings.Trim(strings.TrimSpace(host), "[]")
	if h == "" || strings.EqualFold(h, "localhost") {
		return ""
	}
	if ip := net.ParseIP(h); ip != nil && ip.IsLoopback() {
		return ""
	}
	return fmt.Sprintf("host %s is not this machine, and the debugger port is reached over the network: whoever reaches it can run code in the program "+
		"(debugpy, JDWP and the Node inspector ask no password); bind the debug server to the target's loopback and pass via (ssh, docker or kubernetes) to reach it through a tunnel", host)
}
