package sessions

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/dbg-dev/dbg/toolkit"
)

// A hit condition means one thing in every language, so one that no
// adapter would read the same way is refused before any adapter sees it.
func TestSetBreakpointRefusesMalformedHitCondition(t *testing.T) {
	t.Parallel()
	m := newTestManager(t)
	ctx := context.Background()
	s, _, err := m.Create(ctx, CreateRequest{Language: "mock"})
	if err != nil {
		t.Fatal(err)
	}
	prog := testdata(t, "mock/loop.mock")
	for _, hc := range []string{"x", "!= 3", "% 0", "3 times"} {
		_, err := s.SetBreakpoint(ctx, BreakpointSpec{File: prog, Line: 10, HitCondition: hc})
		var te *toolkit.ToolError
		if !errors.As(err, &te) || te.Code != toolkit.CodeInvalidArgument || !strings.Contains(te.Hint, ">= N") {
			t.Errorf("hitCondition %q: %v, want INVALID_ARGUMENT naming the forms", hc, err)
		}
	}
	if bps := s.Breakpoints(); len(bps) != 0 {
		t.Errorf("refused breakpoints were kept: %+v", bps)
	}
	for _, hc := range []string{"3", ">= 3", "%2", ""} {
		if _, err := s.SetBreakpoint(ctx, BreakpointSpec{File: prog, Line: 10, HitCondition: hc}); err != nil {
			t.Errorf("hitCondition %q refused: %v", hc, err)
		}
	}
}
