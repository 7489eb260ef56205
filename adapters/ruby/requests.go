package ruby

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/dap"
	godap "github.com/google/go-dap"
)

// rubyKnownCommands are the requests rdbg 1.4 serves (plus setVariable,
// which the layer answers); it drops the connection on any other.
var rubyKnownCommands = map[string]bool{
	"initialize": true, "launch": true, "attach": true, "setBreakpoints": true,
	"setFunctionBreakpoints": true, "setExceptionBreakpoints": true, "configurationDone": true,
	"disconnect": true, "continue": true, "next": true, "stepIn": true, "stepOut": true,
	"terminate": true, "pause": true, "reverseContinue": true, "stepBack": true, "threads": true,
	"stackTrace": true, "scopes": true, "variables": true, "evaluate": true, "source": true,
	"completions": true, "setVariable": true,
}

// request forwards the session's requests to rdbg, noting what the
// answers and later events need, and answers those old rdbg gets wrong.
func (x *Proxy) request(r *dap.Request) dap.Verdict {
	if !rubyKnownCommands[r.Command] {
		x.answerUnknown(r)
		return dap.Hold
	}
	x.mu.Lock()
	late := x.disconnecting
	if r.Command == "disconnect" {
		x.disconnecting = true
	}
	x.mu.Unlock()
	if late {
		// Old rdbg's reader dies on a message that comes after the
		// disconnect (server_dap.rb: "undefined method `pop' for nil"),
		// and the program stops with it: a request the session sends
		// meanwhile (a stop's stack read) is answered here.
		r.Respond(nil, errors.New("the session is disconnecting"))
		return dap.Hold
	}
	switch r.Command {
	case "setExceptionBreakpoints":
		var a struct {
			Filters       []string `json:"filters"`
			FilterOptions []struct {
				FilterID string `json:"filterId"`
			} `json:"filterOptions"`
		}
		_ = r.DecodeBody(&a)
		want := map[string]bool{}
		for _, f := range a.Filters {
			want[f] = true
		}
		for _, f := range a.FilterOptions {
			want[f.FilterID] = true
		}
		x.mu.Lock()
		x.excWant = want
		x.mu.Unlock()
	case "setVariable":
		// Old rdbg has no setVariable: assign in the scope's frame.
		var a godap.SetVariableArguments
		_ = r.DecodeBody(&a)
		x.link.Go(func() { x.setVariable(r, a.VariablesReference, a.Name, a.Value) })
		return dap.Hold
	case "setBreakpoints":
		x.takeBreakpoints(r)
	case "setFunctionBreakpoints":
		var a struct {
			Breakpoints []json.RawMessage `json:"breakpoints"`
		}
		_ = r.DecodeBody(&a)
		r.Note = len(a.Breakpoints)
	case "attach":
		x.mu.Lock()
		x.attach = true
		x.mu.Unlock()
		// rdbg already pauses the program when a client connects;
		// its "attach" would signal a second pause that can land
		// after a continue or a disconnect (and crash old rdbg).
		r.Respond(nil, nil)
		return dap.Hold
	case "continue", "next", "stepIn", "stepOut", "reverseContinue", "stepBack":
		x.mu.Lock()
		x.scopeFrame = map[int]int{}
		x.pauseSent = false
		x.stepping = r.Command != "continue" && r.Command != "reverseContinue"
		x.stopped = 0
		x.mu.Unlock()
	case "pause":
		x.mu.Lock()
		x.pauseSent = false
		early := x.connectStop
		if early {
			x.keepConnectStop = true
		}
		x.mu.Unlock()
		if early {
			// rdbg's own pause of the connection is on its way: it
			// is this pause's stop; a second signal would stop the
			// program again after the next continue.
			r.Respond(nil, nil)
			return dap.Hold
		}
	case "disconnect":
		x.mu.Lock()
		attach := x.attach
		x.mu.Unlock()
		if attach {
			// The pause signal of "attach" may not have been handled
			// yet; if it lands after the disconnect, old rdbg dies
			// writing its stop to the closed socket. Wait for it.
			t := time.NewTimer(3 * time.Second)
			select {
			case <-x.stoppedCh:
			case <-t.C:
			case <-x.link.Done():
			}
			t.Stop()
			var a godap.DisconnectArguments
			_ = r.DecodeBody(&a)
			x.mu.Lock()
			held := x.held
			x.mu.Unlock()
			if held && !a.TerminateDebuggee {
				x.link.Go(func() {
					x.dropBreakpoints()
					r.Forward()
				})
				return dap.Hold
			}
		}
	case "configurationDone":
		x.mu.Lock()
		entry := x.stopOnEntry && !x.attach
		attach := x.attach
		x.mu.Unlock()
		if attach {
			// rdbg has paused the attached program with a signal at
			// "attach". Its configurationDone would queue a "p"
			// command that fails inside the signal handler and
			// report a second pause; answer it here instead.
			r.Respond(nil, nil)
			return dap.Hold
		}
		if entry {
			// rdbg waits at the first line until configurationDone
			// continues it; stay there and say so.
			r.Respond(nil, nil)
			x.link.Event("stopped", map[string]any{"reason": "entry", "threadId": 1, "allThreadsStopped": true})
			return dap.Hold
		}
	}
	return dap.Pass
}

// response completes rdbg's bare answers.
func (x *Proxy) response(r *dap.Request, m *dap.Message) dap.Verdict {
	switch {
	case r.Command == "evaluate" && m.OK():
		var a struct {
			Expression string `json:"expression"`
		}
		_ = r.DecodeBody(&a)
		var body struct {
			Result string `json:"result"`
			Type   string `json:"type"`
		}
		if err := m.DecodeBody(&body); err == nil && rubyEvalFailed(a.Expression, body.Result, body.Type) {
			f := false
			m.Success = &f
			m.Message = body.Result
			m.Body = mustJSON(map[string]any{"error": map[string]any{"id": 1, "format": body.Result, "showUser": true}})
		}
	case r.Command == "scopes" && m.OK():
		var a struct {
			FrameID int `json:"frameId"`
		}
		_ = r.DecodeBody(&a)
		var body struct {
			Scopes []struct {
				Ref int `json:"variablesReference"`
			} `json:"scopes"`
		}
		if err := m.DecodeBody(&body); err == nil {
			x.mu.Lock()
			for _, sc := range body.Scopes {
				x.scopeFrame[sc.Ref] = a.FrameID
			}
			x.mu.Unlock()
		}
	case r.Command == "initialize" && m.OK():
		var caps map[string]any
		if err := m.DecodeBody(&caps); err == nil && caps != nil {
			caps["supportsHitConditionalBreakpoints"] = true
			caps["supportsLogPoints"] = true
			caps["supportsSetVariable"] = true
			m.Body = mustJSON(caps)
		}
	case r.Command == "setBreakpoints" && m.OK():
		lines, _ := r.Note.([]int)
		out := make([]map[string]any, len(lines))
		for i, l := range lines {
			out[i] = map[string]any{"verified": true, "line": l}
		}
		m.Body = mustJSON(map[string]any{"breakpoints": out})
	case r.Command == "setFunctionBreakpoints":
		n, _ := r.Note.(int)
		out := make([]map[string]any, n)
		for i := range out {
			out[i] = map[string]any{"verified": false, "message": "function breakpoints are not supported by this rdbg"}
		}
		m.Body = mustJSON(map[string]any{"breakpoints": out})
		m.Success = boolPtr(true)
	case r.Command == "launch":
		x.mu.Lock()
		proc, script := x.proc, x.script
		x.mu.Unlock()
		if proc != nil {
			// rdbg runs the script in its own process: the debuggee's
			// pid is rdbg's. Tell the session after the answer.
			r.Reply(m)
			x.link.Event("process", map[string]any{"name": script, "systemProcessId": proc.Pid(), "isLocalProcess": true, "startMethod": "launch"})
			return dap.Hold
		}
	}
	return dap.Pass
}

// answerUnknown answers a request rdbg does not know: exceptionInfo from
// the last exception stop, an error for the others.
func (x *Proxy) answerUnknown(r *dap.Request) {
	if r.Command == "exceptionInfo" {
		x.mu.Lock()
		text := x.lastException
		x.mu.Unlock()
		if text != "" {
			r.Respond(map[string]any{"exceptionId": rubyExceptionClass(text), "description": text, "breakMode": "always"}, nil)
			return
		}
	}
	r.Respond(nil, fmt.Errorf("%s is not supported by this rdbg", r.Command))
}

// rubyErrorTypeRE matches the class names of Ruby exceptions.
var rubyErrorTypeRE = regexp.MustCompile(`^(?:[A-Z]\w*::)*[A-Z]\w*(?:Error|Exception)$`)

// rubyEvalFailed tells an evaluation that raised from one whose value is
// an exception: rdbg answers both alike, with the exception as the
// result. A bare variable name whose value is an exception is a value;
// anything else that produced an exception (including a NameError about
// the name itself) failed.
func rubyEvalFailed(expr, result, typ string) bool {
	if !rubyErrorTypeRE.MatchString(typ) || !strings.HasPrefix(result, "#<"+typ) {
		return false
	}
	expr = strings.TrimSpace(expr)
	if rubyVarNameRE.MatchString(expr) {
		return (typ == "NameError" || typ == "NoMethodError") &&
			(strings.Contains(result, "`"+expr+"'") || strings.Contains(result, "'"+expr+"'"))
	}
	return true
}

// rubyExceptionClass finds the class in rdbg's exception text
// ("#<RuntimeError: boom> is raised.").
func rubyExceptionClass(text string) string {
	if strings.HasPrefix(text, "#<") {
		if end := strings.IndexAny(text, ":>"); end > 2 {
			return text[2:end]
		}
	}
	return "Exception"
}

// rubyVarNameRE accepts the variable names setVariable assigns: locals,
// @instance and $global variables.
var rubyVarNameRE = regexp.MustCompile(`^(?:[a-z_]|@{1,2}[A-Za-z_]|\$[A-Za-z_])[A-Za-z0-9_]*$`)

// setVariable answers a setVariable by evaluating "name = (value)" in
// the frame of the scope. It runs on its own goroutine.
func (x *Proxy) setVariable(r *dap.Request, ref int, name, value string) {
	x.mu.Lock()
	frame, ok := x.scopeFrame[ref]
	x.mu.Unlock()
	switch {
	case !ok:
		r.Respond(nil, errors.New("only variables of a scope (locals, globals) can be set in Ruby sessions; assign members with evaluate"))
		return
	case !rubyVarNameRE.MatchString(name):
		r.Respond(nil, fmt.Errorf("%q is not a variable name", name))
		return
	case strings.TrimSpace(value) == "":
		r.Respond(nil, errors.New("no value"))
		return
	}
	ctx, cancel := context.WithTimeout(x.link.Context(), 10*time.Second)
	defer cancel()
	resp, err := x.link.Call(ctx, "evaluate", map[string]any{"expression": name + " = (" + value + ")", "frameId": frame, "context": "repl"})
	if err != nil {
		r.Respond(nil, callError(err))
		return
	}
	var body map[string]any
	_ = resp.DecodeBody(&body)
	r.Respond(map[string]any{"value": body["result"], "type": body["type"], "variablesReference": body["variablesReference"]}, nil)
}

// callError is the text of a failed Call as the session sees it: rdbg's
// own message for a failed response.
func callError(err error) error {
	var re *dap.ResponseError
	if errors.As(err, &re) {
		return errors.New(re.Message)
	}
	return err
}

// takeBreakpoints keeps the conditions, hit conditions and log messages
// of a setBreakpoints and sends rdbg plain line breakpoints (rdbg keeps
// the first condition a line ever had); the layer decides at each stop.
// The requested lines are the request's Note.
func (x *Proxy) takeBreakpoints(r *dap.Request) {
	var a struct {
		Source struct {
			Path string `json:"path"`
		} `json:"source"`
		Breakpoints []struct {
			Line         int    `json:"line"`
			Condition    string `json:"condition"`
			HitCondition string `json:"hitCondition"`
			LogMessage   string `json:"logMessage"`
		} `json:"breakpoints"`
	}
	_ = r.DecodeBody(&a)
	lines := make([]int, 0, len(a.Breakpoints))
	plain := make([]map[string]any, 0, len(a.Breakpoints))
	want := map[int]*rubyBP{}
	for _, b := range a.Breakpoints {
		lines = append(lines, b.Line)
		plain = append(plain, map[string]any{"line": b.Line})
		want[b.Line] = &rubyBP{cond: b.Condition, hit: b.HitCondition, log: b.LogMessage}
	}
	x.mu.Lock()
	path := filepath.Clean(a.Source.Path)
	for line, old := range x.bps[path] {
		if nb := want[line]; nb != nil && nb.cond == old.cond && nb.hit == old.hit {
			nb.hits = old.hits // an unchanged breakpoint keeps its count
		}
	}
	x.bps[path] = want
	x.held = x.held || len(plain) > 0
	x.mu.Unlock()
	r.Note = lines
	r.Arguments = mustJSON(map[string]any{"source": map[string]any{"path": a.Source.Path}, "breakpoints": plain})
}

// exitCode is the exit status in a process's wait error (0 when none).
func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return 0
}

func boolPtr(b bool) *bool { return &b }
