package sessions

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/toolkit"
)

// Post-mortem sessions: create_debug_session {coreFile, program} opens a
// core file with the adapter's core target ([adapters.Traits.Core]). The
// session's state is "postmortem": it stays stopped where the program
// crashed, every read works (threads, stack, scopes, variables,
// evaluation), and whatever would run or change the program is refused
// with INVALID_STATE (snapshotError). It has no process: the pid the
// adapter reports is the dead one's, never watched, tracked or signalled.

// StatePostmortem is the state of a session of a core file.
const StatePostmortem State = "postmortem"

// CoreInfo is what a post-mortem session reports of its core.
type CoreInfo struct {
	File    string `json:"file"`
	Program string `json:"program"`
	proc.Core
	SignalName string `json:"signalName,omitempty"`
}

// coreStopWait bounds the wait for the adapter's first stop in a core.
const coreStopWait = 20 * time.Second

// openCore opens req.CoreFile in s, a new session.
func (s *Session) openCore(ctx context.Context, req CreateRequest) (*StartResult, error) {
	traits := s.adapter.Traits()
	if traits.Core == nil {
		why := traits.NoCore
		if why == "" {
			why = "dbg knows no core target for it"
		}
		return nil, toolkit.NewError(toolkit.CodeUnsupported, fmt.Sprintf("the %s adapter cannot open a core file: %s", s.language, why),
			"inspect the crash with the tool named, or debug the program live with start_debugging")
	}
	info, err := checkCore(req.CoreFile, req.Program)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.core = info
	s.mu.Unlock()
	t := adapters.Target{Mode: adapters.Core, CoreFile: info.File, Program: info.Program, Cwd: filepath.Dir(info.Program),
		ExecutablePath: req.ExecutablePath, SourcePaths: req.SourcePaths, Extra: req.AdapterConfig}
	if err := s.connect(ctx, t); err != nil {
		return nil, err
	}
	res := s.waitFirst(ctx, 0, coreStopWait)
	if !res.State.Stopped() {
		return nil, toolkit.NewError(toolkit.CodeAdapterFailed, "the adapter opened the core but showed no stopped thread: "+res.Message,
			"check that the core and the program are readable, and the adapter with dbg adapters")
	}
	res.State = StatePostmortem
	res.Message = "postmortem: " + info.describe()
	return res, nil
}

// checkCore checks that core is a core file of program (by build id
// where both have one) and says what it holds.
func checkCore(core, program string) (*CoreInfo, error) {
	if program == "" {
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, "program is required with coreFile", "pass the binary that crashed, as it was built")
	}
	core, _ = filepath.Abs(core)
	program, _ = filepath.Abs(program)
	for _, f := range []struct{ name, path string }{{"coreFile", core}, {"program", program}} {
		if st, err := os.Stat(f.path); err != nil || !st.Mode().IsRegular() {
			return nil, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("%s %s is not a readable file", f.name, f.path), "pass an existing file")
		}
	}
	c, err := proc.ReadCore(core)
	if err != nil {
		hint := "pass the core file the crash left (kernel.core_pattern says where), or make one with gcore PID"
		if errors.Is(err, proc.ErrNotCore) {
			return nil, toolkit.NewError(toolkit.CodeInvalidArgument, err.Error(), hint).Wrap(err)
		}
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, "cannot read the core file: "+err.Error(), hint).Wrap(err)
	}
	id, err := proc.FileBuildID(program)
	if err != nil {
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("program %s is not an ELF binary: %v", program, err), "pass the binary that crashed, not its source").Wrap(err)
	}
	if id.Differs(c.BuildID) {
		e := toolkit.NewError(toolkit.CodeInvalidArgument,
			fmt.Sprintf("program %s (build id %s) is not the program the core was dumped from (%s, build id %s)", program, id, firstNonEmpty(c.Exe, c.Command), c.BuildID),
			"pass the binary as it was when it crashed: a rebuilt binary shows wrong lines and values")
		e.Details = map[string]any{"programBuildId": id, "coreBuildId": c.BuildID, "coreExe": c.Exe}
		return nil, e
	}
	info := &CoreInfo{File: core, Program: program, Core: *c}
	if c.Signal > 0 {
		info.SignalName = proc.SignalName(c.Signal)
	}
	return info, nil
}

// describe says what the core is of.
func (c *CoreInfo) describe() string {
	what := fmt.Sprintf("core of %s", firstNonEmpty(c.Exe, c.Program))
	if c.PID > 0 {
		what += fmt.Sprintf(" (pid %d)", c.PID)
	}
	if c.SignalName != "" {
		what += ", killed by " + c.SignalName
	}
	return what + "; a core file is a snapshot: read threads, stacks and values, nothing runs"
}

// snapshotError refuses what would run or change the program of a
// post-mortem session; nil for a live one.
func (s *Session) snapshotError(what string) error {
	s.mu.Lock()
	post := s.core != nil
	s.mu.Unlock()
	if !post {
		return nil
	}
	return toolkit.NewError(toolkit.CodeInvalidState, fmt.Sprintf("session %s is postmortem: a core file is a snapshot, it cannot %s", s.id, what),
		"read it with get_stack_trace, get_local_variables and evaluate_expression; to run the program, debug it with start_debugging in a new session")
}

// Postmortem returns the core of a post-mortem session, nil for a live one.
func (s *Session) Postmortem() *CoreInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.core
}

// CoreSupport says whether a session's adapter reads core files, what
// works instead when not, and the core of a post-mortem session.
type CoreSupport struct {
	Supported bool      `json:"supported"`
	Reason    string    `json:"reason,omitempty"`
	Core      *CoreInfo `json:"core,omitempty"`
}

// PostmortemSupport says whether s's adapter reads core files
// (get_debug_tools_status, postmortem).
func (s *Session) PostmortemSupport() CoreSupport {
	t := s.adapter.Traits()
	return CoreSupport{Supported: t.Core != nil, Reason: t.NoCore, Core: s.Postmortem()}
}
