package toolkit

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/dbg-dev/dbg/textcut"
)

// Envelope is the answer of every tool (docs/contract.md, "Structured errors"): on success Data holds
// the tool's result; on failure Error says what went wrong and how to fix it.
type Envelope[T any] struct {
	Success   bool       `json:"success"`
	Data      *T         `json:"data,omitempty"`
	Error     *ToolError `json:"error,omitempty"`
	RequestID string     `json:"requestId"`
	Timestamp string     `json:"timestamp"`
}

// Error codes of docs/contract.md, "Structured errors".
const (
	CodeNoProject             = "NO_PROJECT"
	CodeInvalidArgument       = "INVALID_ARGUMENT"
	CodeUnsupported           = "UNSUPPORTED"
	CodeTestNotFound          = "TEST_NOT_FOUND"
	CodeSessionNotFound       = "SESSION_NOT_FOUND"
	CodeSessionAmbiguous      = "SESSION_AMBIGUOUS"
	CodeAdapterNotFound       = "ADAPTER_NOT_FOUND"
	CodeAdapterFailed         = "ADAPTER_FAILED"
	CodeTimeout               = "TIMEOUT"
	CodeConnectionNotFound    = "CONNECTION_NOT_FOUND"
	CodeConnectionAmbiguous   = "CONNECTION_AMBIGUOUS"
	CodeNoConnection          = "NO_CONNECTION"
	CodeAttachFailed          = "ATTACH_FAILED"
	CodeInvocationFailed      = "INVOCATION_FAILED"
	CodeResultFetchFailed     = "RESULT_FETCH_FAILED"
	CodeLogsUnavailable       = "LOGS_UNAVAILABLE"
	CodeSQLHistoryUnavailable = "SQL_HISTORY_UNAVAILABLE"
	CodeRunConfigNotFound     = "RUN_CONFIGURATION_NOT_FOUND"
	CodeGitFailed             = "GIT_FAILED"
	CodeInternal              = "INTERNAL_ERROR"
	// Codes for debug-session states.
	CodeInvalidState = "INVALID_STATE"
)

// ToolError is the structured error every tool answers with (docs/contract.md, "Structured errors").
// Capabilities return it (possibly wrapped) from their handlers.
type ToolError struct {
	Code             string   `json:"code"`
	Message          string   `json:"message"`
	Hint             string   `json:"hint,omitempty"`
	AvailableOptions []string `json:"availableOptions,omitempty"`
	Retryable        bool     `json:"retryable"`
	NextAction       string   `json:"nextAction,omitempty"`
	Details          any      `json:"details,omitempty"`

	cause    error
	keepData bool
}

func (e *ToolError) Error() string {
	if e.Hint != "" {
		return fmt.Sprintf("%s: %s (%s)", e.Code, e.Message, e.Hint)
	}
	return e.Code + ": " + e.Message
}

// Unwrap returns the underlying cause, if any.
func (e *ToolError) Unwrap() error { return e.cause }

// NewError returns a ToolError with a code, a message and a hint that
// names the fix.
func NewError(code, message, hint string) *ToolError {
	return &ToolError{Code: code, Message: message, Hint: hint}
}

// WithOptions sets availableOptions.
func (e *ToolError) WithOptions(opts ...string) *ToolError {
	e.AvailableOptions = append(e.AvailableOptions, opts...)
	return e
}

// WithNext sets nextAction.
func (e *ToolError) WithNext(action string) *ToolError { e.NextAction = action; return e }

// WithDetails sets details.
func (e *ToolError) WithDetails(d any) *ToolError { e.Details = d; return e }

// Retry marks the error retryable.
func (e *ToolError) Retry() *ToolError { e.Retryable = true; return e }

// KeepData marks a business failure: the operation ran and failed (a
// thrown invocation, a refused pull, a process that died at once). The
// envelope keeps the data the handler returned beside the error, so the
// tool's own fields (its "success": false, the throwable, the output)
// reach the client while the envelope's success is false.
func (e *ToolError) KeepData() *ToolError { e.keepData = true; return e }

// KeepsData reports whether the error is a business failure marked by
// [ToolError.KeepData].
func (e *ToolError) KeepsData() bool { return e.keepData }

// Wrap records the cause.
func (e *ToolError) Wrap(err error) *ToolError { e.cause = err; return e }

// AsToolError turns any error into a ToolError: ToolErrors pass through,
// deadlines become TIMEOUT, adapter failures ADAPTER_FAILED, the rest
// INTERNAL_ERROR. The layers below the toolkit say what their errors are
// by method, so the toolkit knows none of them: Timeout() (net.Error's
// convention) for a passed deadline, PeerGone() for a peer that went away,
// Refused() for a request the peer refused.
func AsToolError(err error) *ToolError {
	var te *ToolError
	if errors.As(err, &te) {
		return te
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded), is(err, func(e interface{ Timeout() bool }) bool { return e.Timeout() }):
		return NewError(CodeTimeout, err.Error(), "the debug adapter did not answer in time; retry, or check the session with list_debug_sessions").Retry().Wrap(err)
	case is(err, func(e interface{ PeerGone() bool }) bool { return e.PeerGone() }):
		return NewError(CodeAdapterFailed, err.Error(), "the debug adapter has gone; close the session and create a new one").Wrap(err)
	}
	if re, ok := find(err, func(e interface{ Refused() bool }) bool { return e.Refused() }); ok {
		return NewError(CodeAdapterFailed, re.Error(), "the debug adapter refused the request; check the arguments").Wrap(err)
	}
	return NewError(CodeInternal, err.Error(), "").Wrap(err)
}

// is reports whether an error in err's chain has the method of E and
// answers true to it.
func is[E any](err error, ok func(E) bool) bool {
	_, found := find(err, ok)
	return found
}

// find is the first error in err's chain that has the method of E and
// answers true to it.
func find[E any](err error, ok func(E) bool) (error, bool) {
	for err != nil {
		if e, yes := err.(E); yes && ok(e) {
			return err, true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, x := range u.Unwrap() {
				if f, found := find(x, ok); found {
					return f, true
				}
			}
			return nil, false
		default:
			return nil, false
		}
	}
	return nil, false
}

// clipError returns te with its texts bounded, so that no error echoes a
// huge input back: message and hint at most 2 KiB, at most 100 options
// of at most 1 KiB each.
func clipError(te *ToolError) *ToolError {
	c := *te
	c.Message, c.Hint = clipText(c.Message, 2<<10), clipText(c.Hint, 2<<10)
	if len(c.AvailableOptions) > 100 || slices.ContainsFunc(c.AvailableOptions, func(o string) bool { return len(o) > 1<<10 }) {
		opts := make([]string, 0, min(len(c.AvailableOptions), 100))
		for _, o := range c.AvailableOptions[:min(len(c.AvailableOptions), 100)] {
			opts = append(opts, clipText(o, 1<<10))
		}
		c.AvailableOptions = opts
	}
	return &c
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return textcut.Prefix(s, n) + fmt.Sprintf("… (%d bytes in all)", len(s))
}
