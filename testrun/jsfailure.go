package testrun

import (
	"context"

	"github.com/dbg-dev/dbg/sessions"
)

// readExpectedActual sets f's expected and actual values from the first
// of the framework's frames above the user's code where the expression
// expected evaluates (the frame that throws the assertion error).
func readExpectedActual(ctx context.Context, r *failureReader, f *Failure, expected, actual string) {
	for _, fr := range r.frames {
		if r.fw.UserFile(r.p, fr.File) {
			return
		}
		if v, err := r.s.Evaluate(ctx, expected, fr.ID, sessions.EvalWatch); err == nil {
			f.Expected = v.Result
			if v, err := r.s.Evaluate(ctx, actual, fr.ID, sessions.EvalWatch); err == nil {
				f.Actual = v.Result
			}
			return
		}
	}
}
