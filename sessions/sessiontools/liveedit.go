package sessiontools

import (
	"context"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

type restartFrameIn struct {
	SessionRef
	FrameID toolkit.Int `json:"frameId" alias:"id" jsonschema:"the frame to restart, from get_stack_trace"`
	WaitMs  toolkit.Int `json:"waitMs,omitempty" jsonschema:"how long to wait for the stop at the frame's start (default 5000)"`
}

type hotReloadIn struct {
	SessionRef
	Files         []string     `json:"files,omitempty" jsonschema:"edited source files (default: every source changed since the session started)"`
	RestartFrames toolkit.Bool `json:"restartFrames,omitempty" jsonschema:"restart the frames of replaced code on the stack so that they run the new code (default false)"`
	WaitMs        toolkit.Int  `json:"waitMs,omitempty" jsonschema:"how long to wait for the stop of a restarted frame (default 5000)"`
}

type gotoLineIn struct {
	SessionRef
	File     string      `json:"file" jsonschema:"source file of the stopped function"`
	Line     toolkit.Int `json:"line" jsonschema:"1-based line to run next"`
	ThreadID toolkit.Int `json:"threadId,omitempty" jsonschema:"thread (default: the stopped thread)"`
}

// registerLiveEditTools adds restart_frame, hot_reload and goto_line
// (docs/contract.md, "Beyond the peers"), and the sections of get_debug_tools_status that say what
// each session supports (supportstatus.go).
func registerLiveEditTools(tb *toolkit.Toolbox, m *sessions.Manager) {
	sessionTool(tb, m, "restart_frame", "Pop the stack back to the start of frameId and stop there; answers the stop like a step.",
		func(ctx context.Context, s *sessions.Session, in restartFrameIn) (stopOut, error) {
			r, err := s.RestartFrame(ctx, int(in.FrameID), ms(in.WaitMs, 0))
			if err != nil {
				return stopOut{}, err
			}
			return newStopOut(r, tb.Compact()), nil
		}, toolkit.Hints{Title: "Restart frame", Destructive: true, Alters: true}, toolkit.InToolset(LiveToolset))
	sessionTool(tb, m, "hot_reload", "Put edited sources into the program, running or paused (Java: compile and redefine; Node: replace scripts); lists replaced and refused.",
		func(ctx context.Context, s *sessions.Session, in hotReloadIn) (sessions.HotReloadResult, error) {
			for _, f := range in.Files {
				if err := checkSource(m, s, "files", f); err != nil {
					return sessions.HotReloadResult{}, err
				}
			}
			r, err := s.HotReload(ctx, in.Files, in.RestartFrames.Or(false), ms(in.WaitMs, 0))
			if r == nil {
				return sessions.HotReloadResult{}, err
			}
			return *r, err
		}, toolkit.Hints{Title: "Hot reload", Destructive: true, Alters: true}, toolkit.InToolset(LiveToolset))
	sessionTool(tb, m, "goto_line", "Move the stopped thread to file:line without running the lines between; answers the new stop.",
		func(ctx context.Context, s *sessions.Session, in gotoLineIn) (stopOut, error) {
			if err := checkSource(m, s, "file", in.File); err != nil {
				return stopOut{}, err
			}
			r, err := s.GotoLine(ctx, in.File, int(in.Line), int(in.ThreadID), 0)
			if err != nil {
				return stopOut{}, err
			}
			return newStopOut(r, tb.Compact()), nil
		}, toolkit.Hints{Title: "Go to line", Destructive: true, Alters: true}, toolkit.InToolset(LiveToolset))
	registerSupportStatus(tb, m)
}

// evaluate runs evaluate_expression: without side effects when the call
// or the server says so; --profile observe refuses them.
func evaluate(ctx context.Context, tb *toolkit.Toolbox, m *sessions.Manager, s *sessions.Session, in evaluateIn) (*sessions.EvalResult, error) {
	if observing(tb) {
		if in.SideEffects.Or(false) {
			return nil, toolkit.ProfileRefusal(toolkit.ProfileObserve, "sideEffects: true")
		}
		return s.EvaluateSafe(ctx, in.Expression, int(in.FrameID), sessions.EvalContext(in.Context))
	}
	if in.SideEffects.Or(m.SideEffectsByDefault()) {
		return s.Evaluate(ctx, in.Expression, int(in.FrameID), sessions.EvalContext(in.Context))
	}
	return s.EvaluateSafe(ctx, in.Expression, int(in.FrameID), sessions.EvalContext(in.Context))
}
