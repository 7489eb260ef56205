package toolkit

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

type kindErr struct{ timeout, gone, refused bool }

func (e kindErr) Error() string   { return "refused: bad arguments" }
func (e kindErr) Timeout() bool   { return e.timeout }
func (e kindErr) PeerGone() bool  { return e.gone }
func (e *kindErr) Refused() bool  { return e.refused }
func (e kindErr) wrapped() error  { return fmt.Errorf("step: %w", e) }
func (e *kindErr) pointer() error { return fmt.Errorf("step: %w", e) }

// AsToolError classifies the errors of the layers below by the methods
// they declare, through any wrapping.
func TestAsToolErrorByMethod(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		code string
		msg  string
	}{
		{"deadline", fmt.Errorf("x: %w", context.DeadlineExceeded), CodeTimeout, ""},
		{"timeout", kindErr{timeout: true}.wrapped(), CodeTimeout, ""},
		{"gone", kindErr{gone: true}.wrapped(), CodeAdapterFailed, ""},
		{"refused", (&kindErr{refused: true}).pointer(), CodeAdapterFailed, "refused: bad arguments"},
		{"joined", errors.Join(errors.New("a"), kindErr{gone: true}), CodeAdapterFailed, ""},
		{"says no", kindErr{}.wrapped(), CodeInternal, ""},
		{"plain", errors.New("boom"), CodeInternal, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			te := AsToolError(tc.err)
			if te.Code != tc.code {
				t.Fatalf("code %s, want %s", te.Code, tc.code)
			}
			if tc.msg != "" && te.Message != tc.msg {
				t.Fatalf("message %q, want %q (the refusal's own text)", te.Message, tc.msg)
			}
		})
	}
}
