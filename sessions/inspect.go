package sessions

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/textcut"
	"github.com/dbg-dev/dbg/toolkit"
)

// Caps on what inspection returns, so one call cannot flood a client.
const (
	maxValueLen      = 1000
	defaultVarLimit  = 100
	maxVarLimit      = 1000
	defaultStackSize = 50
)

// Thread is a debuggee thread.
type Thread struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// Frame is one stack frame.
type Frame struct {
	ID     int    `json:"id"`
	Name   string `json:"name"`
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	Text   string `json:"text,omitempty"`
	Hint   string `json:"presentationHint,omitempty"`
}

// Scope is a frame's variable scope.
type Scope struct {
	Name               string `json:"name"`
	VariablesReference int    `json:"variablesReference"`
	Expensive          bool   `json:"expensive,omitempty"`
	Hint               string `json:"presentationHint,omitempty"`
	NamedVariables     int    `json:"namedVariables,omitempty"`
}

// Variable is one variable; VariablesReference > 0 means it has children.
type Variable struct {
	Name               string `json:"name"`
	Value              string `json:"value"`
	Type               string `json:"type,omitempty"`
	VariablesReference int    `json:"variablesReference"`
	EvaluateName       string `json:"evaluateName,omitempty"`
	IndexedVariables   int    `json:"indexedVariables,omitempty"`
	NamedVariables     int    `json:"namedVariables,omitempty"`
	Truncated          bool   `json:"truncated,omitempty"`
}

// Truncation says what a capped answer left out.
type Truncation struct {
	Note      string `json:"note"`
	Returned  int    `json:"returned,omitempty"`
	Total     int    `json:"total,omitempty"`
	NextStart int    `json:"nextStart,omitempty"`
}

// requireStopped guards inspection requests.
func (s *Session) requireStopped() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch s.state {
	case StatePaused:
		return nil
	case StateRunning:
		return toolkit.NewError(toolkit.CodeInvalidState, "session "+s.id+" is running; values can only be read while it is paused", "call pause_execution or wait_for_stop first")
	case StateTerminated, StateError:
		return toolkit.NewError(toolkit.CodeInvalidState, "session "+s.id+" has ended: "+s.reason, "restart_debugging, or create a new session")
	}
	return toolkit.NewError(toolkit.CodeInvalidState, fmt.Sprintf("session %s is %s", s.id, s.state), "start it first")
}

// Threads lists the debuggee's threads.
func (s *Session) Threads(ctx context.Context) ([]Thread, error) {
	var body godap.ThreadsResponseBody
	if err := s.request(ctx, "threads", nil, &body); err != nil {
		return nil, err
	}
	out := make([]Thread, 0, len(body.Threads))
	for _, t := range body.Threads {
		out = append(out, Thread{ID: t.Id, Name: t.Name})
	}
	return out, nil
}

// StackTrace returns up to levels frames of a thread (0 = the stopped one).
func (s *Session) StackTrace(ctx context.Context, threadID, startFrame, levels int) ([]Frame, int, error) {
	if err := s.requireStopped(); err != nil {
		return nil, 0, err
	}
	if threadID == 0 {
		threadID = s.currentThread()
	}
	if levels <= 0 || levels > 500 {
		levels = defaultStackSize
	}
	var body godap.StackTraceResponseBody
	if err := s.request(ctx, "stackTrace", godap.StackTraceArguments{ThreadId: threadID, StartFrame: startFrame, Levels: levels}, &body); err != nil {
		return nil, 0, err
	}
	out := make([]Frame, 0, len(body.StackFrames))
	for _, f := range body.StackFrames {
		loc := s.frameLocation(f)
		s.seen.add(loc.File)
		out = append(out, Frame{ID: f.Id, Name: f.Name, File: loc.File, Line: f.Line, Column: f.Column, Text: loc.Text, Hint: f.PresentationHint})
	}
	s.sawFrames(out, startFrame)
	return out, body.TotalFrames, nil
}

// stoppedFrame checks that the session is stopped and resolves frameID,
// 0 meaning the frame calls without one act on (topFrameID).
func (s *Session) stoppedFrame(ctx context.Context, frameID int) (int, error) {
	if err := s.requireStopped(); err != nil {
		return 0, err
	}
	if frameID != 0 {
		return frameID, nil
	}
	return s.topFrameID(ctx, 0)
}

// topFrameID returns the id of the frame calls without a frameId act on:
// the one picked at this stop (framepick.go), else the innermost with
// source.
func (s *Session) topFrameID(ctx context.Context, threadID int) (int, error) {
	if id := s.pickedFrame(); id != 0 && threadID == 0 {
		return id, nil
	}
	s.mu.Lock()
	fc, seq := s.topFrame, s.stopSeq
	cur := 0
	if s.lastStop != nil {
		cur = s.lastStop.ThreadID
	}
	s.mu.Unlock()
	if fc.seq == seq && fc.id != 0 && (threadID == 0 || threadID == fc.thread) && fc.thread == cur {
		return fc.id, nil
	}
	frames, _, err := s.StackTrace(ctx, threadID, 0, 20)
	if err != nil {
		return 0, err
	}
	for _, f := range frames {
		if f.File != "" && f.Line > 0 {
			return f.ID, nil
		}
	}
	if len(frames) == 0 {
		return 0, toolkit.NewError(toolkit.CodeInvalidState, "the stopped thread has no frames", "pick another thread with list_threads")
	}
	return frames[0].ID, nil
}

// Scopes returns a frame's scopes (frameID 0 = the top frame).
func (s *Session) Scopes(ctx context.Context, frameID int) ([]Scope, error) {
	frameID, err := s.stoppedFrame(ctx, frameID)
	if err != nil {
		return nil, err
	}
	if sc, ok := s.cachedScopes(frameID); ok {
		return slices.Clone(sc), nil
	}
	s.scopesFor(frameID)
	st := s.stamp()
	var body godap.ScopesResponseBody
	if err := s.request(ctx, "scopes", godap.ScopesArguments{FrameId: frameID}, &body); err != nil {
		return nil, err
	}
	out := make([]Scope, 0, len(body.Scopes))
	for _, sc := range body.Scopes {
		out = append(out, Scope{Name: sc.Name, VariablesReference: sc.VariablesReference, Expensive: sc.Expensive, Hint: sc.PresentationHint, NamedVariables: sc.NamedVariables})
	}
	s.keepScopes(st, frameID, slices.Clone(out))
	return out, nil
}

// Variables reads the children of a variables reference, capped.
func (s *Session) Variables(ctx context.Context, ref, start, limit int) ([]Variable, *Truncation, error) {
	if err := s.requireStopped(); err != nil {
		return nil, nil, err
	}
	if ref <= 0 {
		return nil, nil, toolkit.NewError(toolkit.CodeInvalidArgument, "a positive variablesReference (scope) is required", "take one from get_scopes or from a variable with children")
	}
	if limit <= 0 {
		limit = defaultVarLimit
	}
	if limit > maxVarLimit {
		limit = maxVarLimit
	}
	var vars []godap.Variable
	if start > 0 {
		var body godap.VariablesResponseBody
		if err := s.request(ctx, "variables", godap.VariablesArguments{VariablesReference: ref, Start: start, Count: limit}, &body); err != nil {
			return nil, nil, err
		}
		vars = body.Variables
	} else {
		var err error
		if vars, err = s.readVariables(ctx, ref); err != nil {
			return nil, nil, err
		}
	}
	total := len(vars)
	var tr *Truncation
	if len(vars) > limit {
		vars = vars[:limit]
		tr = &Truncation{Note: fmt.Sprintf("showing %d of %d variables; pass start=%d for more", limit, total, start+limit), Returned: limit, Total: total, NextStart: start + limit}
	}
	out := make([]Variable, 0, len(vars))
	cut := 0
	for _, v := range vars {
		vv := convertVariable(v)
		if vv.Truncated {
			cut++
		}
		out = append(out, vv)
	}
	if cut > 0 {
		note := fmt.Sprintf("%d value(s) cut to %d characters; evaluate_expression reads one in full", cut, maxValueLen)
		if tr == nil {
			tr = &Truncation{Note: note}
		} else {
			tr.Note += "; " + note
		}
	}
	return out, tr, nil
}

func convertVariable(v godap.Variable) Variable {
	val, cut := capValue(v.Value)
	return Variable{Name: v.Name, Value: val, Type: v.Type, VariablesReference: v.VariablesReference,
		EvaluateName: v.EvaluateName, IndexedVariables: v.IndexedVariables, NamedVariables: v.NamedVariables, Truncated: cut}
}

func capValue(s string) (string, bool) {
	return textcut.Clip(s, maxValueLen), len(s) > maxValueLen
}

// LocalVariables reads the local scope of a frame (0 = top), optionally
// only the named variables, without the adapter's groups and special
// names (see [IsSpecialLocal]).
func (s *Session) LocalVariables(ctx context.Context, frameID int, names []string) ([]Variable, *Truncation, Scope, error) {
	return s.Locals(ctx, frameID, names, false)
}

// Locals is LocalVariables, with the adapter's groups and special names
// ("special variables", __name__) when special is true. Named variables
// are returned whatever their names.
func (s *Session) Locals(ctx context.Context, frameID int, names []string, special bool) ([]Variable, *Truncation, Scope, error) {
	scopes, err := s.Scopes(ctx, frameID)
	if err != nil {
		return nil, nil, Scope{}, err
	}
	if len(scopes) == 0 {
		return nil, nil, Scope{}, toolkit.NewError(toolkit.CodeInvalidState, "the frame has no scopes", "try get_stack_trace and another frameId")
	}
	pick, at := pickLocals(scopes)
	vars, tr, err := s.Variables(ctx, pick.VariablesReference, 0, maxVarLimit)
	if err != nil {
		return nil, nil, pick, err
	}
	vars = s.outerLocals(ctx, scopes[at:], vars)
	if len(names) > 0 {
		want := map[string]bool{}
		for _, n := range names {
			want[n] = true
		}
		filtered := vars[:0]
		for _, v := range vars {
			if want[v.Name] {
				filtered = append(filtered, v)
			}
		}
		vars = filtered
	} else if !special {
		vars = slices.DeleteFunc(vars, func(v Variable) bool { return IsSpecialLocal(v.Name) })
	}
	if len(names) == 0 && len(vars) > defaultVarLimit {
		tr = &Truncation{Note: fmt.Sprintf("showing %d of %d locals; pass names to pick", defaultVarLimit, len(vars)), Returned: defaultVarLimit, Total: len(vars)}
		vars = vars[:defaultVarLimit]
	}
	return vars, tr, pick, nil
}

// pickLocals returns the locals scope of a frame's scopes (else the
// first). scopes is not empty.
func pickLocals(scopes []Scope) (Scope, int) {
	for i, sc := range scopes {
		n := strings.ToLower(sc.Name)
		if sc.Hint == "locals" || n == "locals" || n == "local" || strings.HasPrefix(n, "local") {
			return sc, i
		}
	}
	return scopes[0], 0
}

// EvalResult is an evaluation's answer.
type EvalResult struct {
	Result             string `json:"result"`
	Type               string `json:"type,omitempty"`
	VariablesReference int    `json:"variablesReference"`
	Truncated          bool   `json:"truncated,omitempty"`
	Note               string `json:"note,omitempty"` // what the adapter says of a value set (Traits.SetNote)
}

// EvalContext says what an evaluation is for; adapters may format the
// result for it. The empty context is EvalREPL.
type EvalContext string

// Evaluation contexts.
const (
	EvalREPL  EvalContext = "repl"  // typed by the user (the default)
	EvalWatch EvalContext = "watch" // a watched expression
	EvalHover EvalContext = "hover" // a value shown under the pointer
)

// Evaluate evaluates an expression in a frame (0 = top) of the stopped
// program.
func (s *Session) Evaluate(ctx context.Context, expr string, frameID int, evalContext EvalContext) (*EvalResult, error) {
	return s.evaluate(ctx, expr, frameID, evalContext, true)
}

// evaluateArgs are evaluate's arguments with the built-in adapters'
// sideEffects, sent only when false.

func (s *Session) evaluate(ctx context.Context, expr string, frameID int, evalContext EvalContext, sideEffects bool) (*EvalResult, error) {
	if strings.TrimSpace(expr) == "" {
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, "expression is required", "pass an expression in the program's language")
	}
	frameID, err := s.stoppedFrame(ctx, frameID)
	if err != nil {
		return nil, err
	}
	if evalContext == "" {
		evalContext = EvalREPL
	}
	var body godap.EvaluateResponseBody
	args := evaluateArgs{Expression: expr, FrameID: frameID, Context: string(evalContext)}
	if !sideEffects {
		args.SideEffects = &sideEffects
	}
	if err := s.request(ctx, "evaluate", args, &body); err != nil {
		return nil, evalError(expr, err)
	}
	val, cut := capValue(body.Result)
	return &EvalResult{Result: val, Type: body.Type, VariablesReference: body.VariablesReference, Truncated: cut}, nil
}

func evalError(expr string, err error) error {
	var re *dap.ResponseError
	if errors.As(err, &re) {
		return toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("cannot evaluate %q: %s", expr, re.Message), "check the expression against the variables in scope (get_local_variables)").Wrap(err)
	}
	return toolkit.AsToolError(err)
}

// SetVariable assigns value to name in a variables reference; with ref 0
// the name is looked up in the top frame's scopes.
func (s *Session) SetVariable(ctx context.Context, ref int, name, value string, frameID int) (*EvalResult, error) {
	if name == "" {
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, "name is required", "pass the variable's name as shown by get_variables")
	}
	if err := s.requireStopped(); err != nil {
		return nil, err
	}
	if err := s.snapshotError("change a variable"); err != nil {
		return nil, err
	}
	s.mu.Lock()
	supported := s.caps.SupportsSetVariable
	s.mu.Unlock()
	if !supported {
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, "this adapter cannot set variables", "use evaluate_expression with an assignment if the language allows it")
	}
	if ref == 0 {
		scopes, err := s.Scopes(ctx, frameID)
		if err != nil {
			return nil, err
		}
		for _, sc := range scopes {
			vars, _, err := s.Variables(ctx, sc.VariablesReference, 0, maxVarLimit)
			if err != nil {
				continue
			}
			for _, v := range vars {
				if v.Name == name {
					ref = sc.VariablesReference
					break
				}
			}
			if ref != 0 {
				break
			}
		}
		if ref == 0 {
			return nil, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("no variable %q in the frame's scopes", name), "check the name with get_local_variables")
		}
	}
	var body godap.SetVariableResponseBody
	if err := s.request(ctx, "setVariable", godap.SetVariableArguments{VariablesReference: ref, Name: name, Value: value}, &body); err != nil {
		var re *dap.ResponseError
		if !errors.As(err, &re) {
			return nil, err // a timeout or a dead adapter keeps its own code
		}
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, "cannot set "+name+": "+re.Message, "check the value's syntax and type").Wrap(err)
	}
	return &EvalResult{Result: body.Value, Type: body.Type, VariablesReference: body.VariablesReference, Note: s.Traits().SetNote}, nil
}
