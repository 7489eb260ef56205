package sessions

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/toolkit"
)

// Live edits (docs/contract.md, "Beyond the peers"): restart a frame, replace code in the running
// program, move the next statement. Each goes through DAP where DAP has a
// request for it (restartFrame, gotoTargets/goto) and through the
// built-in adapters' own request (hotReload) where it has none; an
// adapter that cannot do one answers UNSUPPORTED, nothing is emulated.

// liveCaps are the capabilities of the built-in adapters beyond DAP's,
// read from the same initialize answer.
type liveCaps struct {
	// SupportsHotReload: the adapter answers the "hotReload" request.
	SupportsHotReload bool `json:"supportsHotReload,omitempty"`
	// SupportsSafeEvaluate: the adapter honours sideEffects:false in the
	// arguments of evaluate.
	SupportsSafeEvaluate bool `json:"supportsSafeEvaluate,omitempty"`
}

// initializeAnswer is the body of the initialize response: DAP's
// capabilities and the built-in adapters' own.
type initializeAnswer struct {
	godap.Capabilities
	liveCaps
}

// LiveEditSupport says which live edits a session can do.
type LiveEditSupport struct {
	RestartFrame bool `json:"restartFrame"`
	HotReload    bool `json:"hotReload"`
	GotoLine     bool `json:"gotoLine"`
	SafeEvaluate bool `json:"safeEvaluate"`
}

// LiveEdits reports which live edits the session's adapter supports
// (all false before the adapter has started).
func (s *Session) LiveEdits() LiveEditSupport {
	s.mu.Lock()
	caps, live := s.caps, s.live
	s.mu.Unlock()
	return LiveEditSupport{RestartFrame: caps.SupportsRestartFrame, HotReload: live.SupportsHotReload,
		GotoLine: caps.SupportsGotoTargetsRequest, SafeEvaluate: live.SupportsSafeEvaluate || s.adapter.Traits().SideEffectFree != nil}
}

// unsupported is the UNSUPPORTED answer of a live edit the adapter
// cannot do; hint names the alternative.
func (s *Session) unsupported(what, hint string) error {
	return toolkit.NewError(toolkit.CodeUnsupported, fmt.Sprintf("the %s debug adapter cannot %s", s.language, what), hint)
}

// reloadTimeout bounds a hot reload: the adapter may run a compiler.
const reloadTimeout = 2 * time.Minute

// liveGrace is how long a live edit waits for the stop it causes.
const liveGrace = 5 * time.Second

// RestartFrame pops the stack back to the start of frameID and answers
// the stop there, as a step does.
func (s *Session) RestartFrame(ctx context.Context, frameID int, grace time.Duration) (*Stop, error) {
	if frameID <= 0 {
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, "frameId is required", "take a frame id from get_stack_trace")
	}
	seq, _, err := s.requirePaused(0)
	if err != nil {
		return nil, err
	}
	if !s.LiveEdits().RestartFrame {
		return nil, s.unsupported("restart a frame (it announces no restartFrame)", "set a breakpoint at the function's start and restart_debugging")
	}
	if err := s.request(ctx, "restartFrame", godap.RestartFrameArguments{FrameId: frameID}, nil); err != nil {
		return nil, adapterRefused("restart frame "+fmt.Sprint(frameID), err, "pick another frame from get_stack_trace: native frames and the bottom frame cannot be restarted")
	}
	return s.awaitLiveStop(ctx, seq, grace), nil
}

// awaitLiveStop waits for the stop a live edit caused.
func (s *Session) awaitLiveStop(ctx context.Context, seq int, grace time.Duration) *Stop {
	s.markRunning(seq, false)
	if grace <= 0 {
		grace = liveGrace
	}
	wctx, cancel := context.WithTimeout(ctx, grace)
	defer cancel()
	return s.answer(ctx, wctx, seq, WantStop)
}

// adapterRefused turns an adapter's refusal of a live edit into an
// INVALID_ARGUMENT naming it; other failures keep their own code.
func adapterRefused(what string, err error, hint string) error {
	te := toolkit.AsToolError(err)
	if te.Code == toolkit.CodeAdapterFailed {
		return toolkit.NewError(toolkit.CodeInvalidArgument, "cannot "+what+": "+responseText(err), hint).Wrap(err)
	}
	return te
}

// GotoLine moves the stopped thread's next statement to file:line,
// through gotoTargets and goto, and answers the stop there.
func (s *Session) GotoLine(ctx context.Context, file string, line, threadID int, grace time.Duration) (*Stop, error) {
	if file == "" || line <= 0 {
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, "file and a positive line are required", "pass the source file and the line to run next")
	}
	seq, tid, err := s.requirePaused(threadID)
	if err != nil {
		return nil, err
	}
	if !s.LiveEdits().GotoLine {
		return nil, s.unsupported("set the next statement (it announces no gotoTargets)", "run_to_line, or set_variable and step to reach the state you want")
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, err.Error(), "pass an absolute path")
	}
	var targets godap.GotoTargetsResponseBody
	if err := s.request(ctx, "gotoTargets", godap.GotoTargetsArguments{Source: godap.Source{Path: abs, Name: filepath.Base(abs)}, Line: line}, &targets); err != nil {
		return nil, adapterRefused(fmt.Sprintf("go to %s:%d", file, line), err, "pick a line with code in the stopped function")
	}
	if len(targets.Targets) == 0 {
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("the adapter offers no target at %s:%d", file, line), "pick a line with code in the stopped function")
	}
	target := targets.Targets[0]
	if err := s.request(ctx, "goto", godap.GotoArguments{ThreadId: tid, TargetId: target.Id}, nil); err != nil {
		return nil, adapterRefused(fmt.Sprintf("go to %s:%d", file, line), err, "pick a line with code in the stopped function")
	}
	r := s.awaitLiveStop(ctx, seq, grace)
	if ls := r.LastStop; ls != nil && ls.Description != "" {
		r.Message += "; " + ls.Description
	}
	return r, nil
}

// ReloadUnit is one class or script a hot reload dealt with.
type ReloadUnit struct {
	Name   string `json:"name"`
	File   string `json:"file,omitempty"`
	Reason string `json:"reason,omitempty"` // why it was refused
}

// HotReloadResult is the answer of hot_reload.
type HotReloadResult struct {
	Replaced     []ReloadUnit `json:"replaced"`
	Refused      []ReloadUnit `json:"refused"`
	StackChanged bool         `json:"stackChanged,omitempty"`
	Restarted    string       `json:"restartedFrame,omitempty"` // the frame restarted to run the new code
	Message      string       `json:"message,omitempty"`
	// Now is where the program stands after the reload.
	Now *Stop `json:"now"`
}

// hotReloadBody is the adapter's answer to "hotReload".
type hotReloadBody struct {
	Replaced     []ReloadUnit `json:"replaced"`
	Refused      []ReloadUnit `json:"refused"`
	StackChanged bool         `json:"stackChanged"`
	Restarted    string       `json:"restartedFrame"`
	Resumed      bool         `json:"resumed"` // the program runs to the restarted frame's start
	Message      string       `json:"message"`
}

// HotReload puts edited source into the program, paused or running (as
// IDEs do: JDWP's RedefineClasses and V8's setScriptSource need no stop):
// files (none: every source changed since the session started) are
// compiled where needed and replaced by the adapter; with restartFrames,
// which needs a stop, the frames of replaced code on the stack restart
// to run it.
func (s *Session) HotReload(ctx context.Context, files []string, restartFrames bool, grace time.Duration) (*HotReloadResult, error) {
	if !s.LiveEdits().HotReload {
		return nil, s.unsupported("replace code in a running program", "edit the source, then restart_debugging to run it (breakpoints are kept)")
	}
	seq, tid := 0, 0
	if s.State() == StateRunning {
		if restartFrames {
			return nil, toolkit.NewError(toolkit.CodeInvalidState, "session "+s.id+" is running: restartFrames restarts the frames of a stopped thread",
				"hot_reload without restartFrames replaces the code while it runs (calls made after it run the new code), or pause_execution first")
		}
	} else {
		var err error
		if seq, tid, err = s.requirePaused(0); err != nil {
			return nil, err
		}
	}
	abs := make([]string, 0, len(files))
	for _, f := range files {
		a, err := filepath.Abs(f)
		if err != nil {
			return nil, toolkit.NewError(toolkit.CodeInvalidArgument, err.Error(), "pass absolute paths")
		}
		abs = append(abs, a)
	}
	args := map[string]any{"files": abs, "restartFrames": restartFrames, "threadId": tid, "since": s.created.UnixMilli()}
	var body hotReloadBody
	toolkit.Progress(ctx, "hot reload: compiling and replacing the changed code of session %s…", s.id)
	rctx, cancel := context.WithTimeout(ctx, reloadTimeout)
	defer cancel()
	if err := s.request(rctx, "hotReload", args, &body); err != nil {
		return nil, adapterRefused("hot reload", err, "check that the files compile and belong to the program")
	}
	out := &HotReloadResult{Replaced: body.Replaced, Refused: body.Refused, StackChanged: body.StackChanged, Restarted: body.Restarted, Message: body.Message}
	if out.Replaced == nil {
		out.Replaced = []ReloadUnit{}
	}
	if out.Refused == nil {
		out.Refused = []ReloadUnit{}
	}
	if body.Resumed {
		out.Now = s.awaitLiveStop(ctx, seq, grace)
	} else {
		out.Now = s.result(ctx, s.Info(), true, WantStop)
	}
	if len(out.Refused) > 0 {
		r := out.Refused[0]
		msg := fmt.Sprintf("%s was not replaced: %s", r.Name, r.Reason)
		if len(out.Refused) > 1 {
			msg += fmt.Sprintf(" (and %d more refused)", len(out.Refused)-1)
		}
		return out, toolkit.NewError(toolkit.CodeUnsupported, msg, "undo that part of the edit, or restart_debugging to run it").KeepData()
	}
	return out, nil
}

// SideEffectsByDefault reports whether evaluations may change the
// program when a call does not say (false under --no-side-effects).
func (m *Manager) SideEffectsByDefault() bool { return !m.cfg.NoSideEffects }
