package dap

import (
	"encoding/json"

	godap "github.com/google/go-dap"
)

// dbg's additions to DAP, spoken by its built-in adapters: capabilities
// and arguments of its own next to DAP's, and the hotReload request.

// Capabilities are what a built-in adapter answers to initialize: DAP's
// capabilities and dbg's own requests.
type Capabilities struct {
	godap.Capabilities
	// SupportsHotReload: the adapter answers the "hotReload" request.
	SupportsHotReload bool `json:"supportsHotReload,omitempty"`
	// SupportsSafeEvaluate: the adapter honours evaluate's
	// "sideEffects": false.
	SupportsSafeEvaluate bool `json:"supportsSafeEvaluate,omitempty"`
}

// InitializeResponse is the answer to initialize with [Capabilities].
type InitializeResponse struct {
	godap.Response
	Body Capabilities `json:"body"`
}

// requestCapabilities are the capabilities that announce a request: an
// adapter that routes the request has them ([Router.Capabilities]).
var requestCapabilities = map[string]func(*Capabilities) *bool{
	"configurationDone":      func(c *Capabilities) *bool { return &c.SupportsConfigurationDoneRequest },
	"setFunctionBreakpoints": func(c *Capabilities) *bool { return &c.SupportsFunctionBreakpoints },
	"dataBreakpointInfo":     func(c *Capabilities) *bool { return &c.SupportsDataBreakpoints },
	"setVariable":            func(c *Capabilities) *bool { return &c.SupportsSetVariable },
	"restartFrame":           func(c *Capabilities) *bool { return &c.SupportsRestartFrame },
	"exceptionInfo":          func(c *Capabilities) *bool { return &c.SupportsExceptionInfoRequest },
	"terminate":              func(c *Capabilities) *bool { return &c.SupportsTerminateRequest },
	"hotReload":              func(c *Capabilities) *bool { return &c.SupportsHotReload },
}

// EvaluateRequest is DAP's evaluate with dbg's "sideEffects": false,
// which refuses (or stops) an expression that would change the program.
type EvaluateRequest struct {
	godap.Request
	Arguments struct {
		godap.EvaluateArguments
		SideEffects *bool `json:"sideEffects"`
	} `json:"arguments"`
}

// NoSideEffects reports whether the request asks for an evaluation
// without side effects.
func (r *EvaluateRequest) NoSideEffects() bool {
	return r.Arguments.SideEffects != nil && !*r.Arguments.SideEffects
}

// DisconnectRequest is DAP's disconnect that tells an absent
// terminateDebuggee (the adapter's default: end a launched program, leave
// an attached one) from false.
type DisconnectRequest struct {
	godap.Request
	Arguments struct {
		godap.DisconnectArguments
		TerminateDebuggee *bool `json:"terminateDebuggee"`
	} `json:"arguments"`
}

// Terminate reports whether the debuggee ends with the session; launched
// is the default.
func (r *DisconnectRequest) Terminate(launched bool) bool {
	if t := r.Arguments.TerminateDebuggee; t != nil {
		return *t
	}
	return launched
}

// HotReloadRequest is dbg's "hotReload": put edited sources into the
// stopped program.
type HotReloadRequest struct {
	godap.Request
	Arguments struct {
		// Files are the edited sources; none: every source changed since
		// Since.
		Files []string `json:"files"`
		// RestartFrames restarts a frame that runs replaced code, so that
		// it runs the new code.
		RestartFrames bool `json:"restartFrames"`
		// ThreadId is the stopped thread whose frames restart.
		ThreadId int `json:"threadId"`
		// Since is when the session started, in Unix milliseconds.
		Since int64 `json:"since"`
	} `json:"arguments"`
}

// HotReloadResponse says what a hot reload replaced and refused.
type HotReloadResponse struct {
	godap.Response
	Body HotReloadResponseBody `json:"body"`
}

// HotReloadResponseBody is the body of [HotReloadResponse].
type HotReloadResponseBody struct {
	Replaced []ReloadUnit `json:"replaced"`
	Refused  []ReloadUnit `json:"refused"`
	Message  string       `json:"message"`
	// StackChanged: frames were dropped or restarted.
	StackChanged bool `json:"stackChanged,omitempty"`
	// RestartedFrame is the frame restarted to run the new code; Resumed,
	// that the program runs to its start, where it stops again.
	RestartedFrame string `json:"restartedFrame,omitempty"`
	Resumed        bool   `json:"resumed,omitempty"`
}

// ReloadUnit is a class or script a hot reload replaced or refused.
type ReloadUnit struct {
	Name   string `json:"name"`
	File   string `json:"file,omitempty"`
	Reason string `json:"reason,omitempty"` // why it was refused
}

// MarshalJSON writes no units as empty lists.
func (b HotReloadResponseBody) MarshalJSON() ([]byte, error) {
	type plain HotReloadResponseBody
	p := plain(b)
	if p.Replaced == nil {
		p.Replaced = []ReloadUnit{}
	}
	if p.Refused == nil {
		p.Refused = []ReloadUnit{}
	}
	return json.Marshal(p)
}
