package sessions

import (
	"context"
	"errors"

	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/toolkit"
)

// EvaluateSafe evaluates expr like Evaluate, refusing anything that could
// change the program's state: the built-in adapters refuse it themselves
// (V8's throwOnSideEffect, the Java evaluator's check for calls and
// assignments); for other adapters the language's own check
// (adapters.Traits.SideEffectFree) refuses calls and assignments before
// the expression is sent. An adapter with neither answers UNSUPPORTED.
func (s *Session) EvaluateSafe(ctx context.Context, expr string, frameID int, evalContext EvalContext) (*EvalResult, error) {
	s.mu.Lock()
	native := s.live.SupportsSafeEvaluate || s.core != nil // nothing changes a core
	s.mu.Unlock()
	if native {
		return s.evaluate(ctx, expr, frameID, evalContext, false)
	}
	check := s.adapter.Traits().SideEffectFree
	if check == nil {
		return nil, s.unsupported("evaluate without side effects (dbg has no check for calls and assignments in this language)", "pass sideEffects: true, or read values with get_variables")
	}
	if err := check(expr); err != nil {
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, "refused without side effects: "+err.Error(), "read the value without calling or assigning, or pass sideEffects: true")
	}
	return s.evaluate(ctx, expr, frameID, evalContext, true)
}

// responseText is the adapter's own words of a failed response, or the
// error's text.
func responseText(err error) string {
	var re *dap.ResponseError
	if errors.As(err, &re) && re.Message != "" {
		return re.Message
	}
	return err.Error()
}
