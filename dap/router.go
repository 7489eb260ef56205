package dap

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	godap "github.com/google/go-dap"
)

// Router is the request dispatch of dbg's built-in adapters: one handler
// per command, on go-dap's typed requests and responses. It implements
// [Handler].
//
// For each request it decodes the message into the request type its
// handler takes, calls the handler with a context that ends at the
// router's deadline, and answers exactly once: with the response the
// handler returns (a nil response is an empty success), or with an error
// response whose text is the handler's error. A request whose arguments
// do not decode, a command nobody handles and a handler that panics get
// an error response as well; the adapter goes on serving.
//
// Handlers run where Handle is called: [Serve] calls it on its read
// goroutine, one request at a time, in arrival order. A handler must
// return once its context ends; work that must follow its answer (an
// "initialized" event after launch, a step that starts once it is
// acknowledged) is registered with [AfterResponse].
type Router struct {
	name    string
	timeout time.Duration
	routes  map[string]route
}

// route decodes one request, serves it and returns the typed response.
type route func(ctx context.Context, req *Message) (godap.ResponseMessage, error)

// NewRouter returns a router with no routes. name names the adapter in
// the answer to a command it does not handle ("the built-in Java
// adapter"); timeout is the deadline of every request.
func NewRouter(name string, timeout time.Duration) *Router {
	return &Router{name: name, timeout: timeout, routes: map[string]route{}}
}

// On routes command to f. Req and Resp are go-dap's request and response
// types for command, or the adapter's own where go-dap leaves room:
// launch and attach arguments (which DAP leaves to the adapter), a
// request type whose arguments embed go-dap's (to read fields of dbg's
// own), a response type whose body embeds go-dap's, and commands go-dap
// does not know. Any other pairing is a programming error, and On panics.
func On[Req, Resp any, PReq interface {
	*Req
	godap.RequestMessage
}, PResp interface {
	*Resp
	godap.ResponseMessage
}](r *Router, command string, f func(ctx context.Context, req PReq) (PResp, error)) {
	args := checkRoute(command, PReq(nil), PResp(nil))
	r.routes[command] = func(ctx context.Context, m *Message) (godap.ResponseMessage, error) {
		req := new(Req)
		if err := decodeRequest(m, PReq(req), reflect.ValueOf(req).Elem(), args); err != nil {
			return nil, err
		}
		resp, err := f(ctx, req)
		if err != nil {
			return nil, err
		}
		if resp == nil {
			resp = new(Resp)
		}
		return resp, nil
	}
}

// Capabilities returns c with the capability of every request r routes
// that has one set (configurationDone, setVariable, hotReload...): an
// adapter declares the rest.
func (r *Router) Capabilities(c Capabilities) Capabilities {
	for command, capability := range requestCapabilities {
		if _, ok := r.routes[command]; ok {
			*capability(&c) = true
		}
	}
	return c
}

// OnSteps routes DAP's step requests, next, stepIn and stepOut, to step,
// which gets the request's command and thread.
func OnSteps(r *Router, step func(ctx context.Context, command string, thread int) error) {
	On(r, "next", func(ctx context.Context, req *godap.NextRequest) (*godap.NextResponse, error) {
		return nil, step(ctx, req.Command, req.Arguments.ThreadId)
	})
	On(r, "stepIn", func(ctx context.Context, req *godap.StepInRequest) (*godap.StepInResponse, error) {
		return nil, step(ctx, req.Command, req.Arguments.ThreadId)
	})
	On(r, "stepOut", func(ctx context.Context, req *godap.StepOutRequest) (*godap.StepOutResponse, error) {
		return nil, step(ctx, req.Command, req.Arguments.ThreadId)
	})
}

// SourceBreakpoints checks that a setBreakpoints names its source's path,
// and fills its breakpoints from the lines of a client of DAP's first
// versions.
func SourceBreakpoints(a *godap.SetBreakpointsArguments) error {
	if a.Source.Path == "" {
		return errors.New("setBreakpoints needs source.path")
	}
	if len(a.Breakpoints) == 0 {
		for _, l := range a.Lines {
			a.Breakpoints = append(a.Breakpoints, godap.SourceBreakpoint{Line: l})
		}
	}
	return nil
}

// Handle implements [Handler]: it serves req and answers it.
func (r *Router) Handle(ctx context.Context, s *ServerConn, req *Message) {
	rt, ok := r.routes[req.Command]
	if !ok {
		s.RespondError(req, fmt.Sprintf("%s does not support the %q request", r.name, req.Command))
		return
	}
	tctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	ctx = &requestContext{Context: tctx}
	defer func() {
		if p := recover(); p != nil {
			if !s.answered(req) {
				s.RespondError(req, internalError(req.Command, p))
				return
			}
			s.Event("output", godap.OutputEventBody{Category: "console", Output: internalError(req.Command, p)})
		}
	}()
	resp, err := rt(ctx, req)
	if err != nil {
		s.RespondError(req, r.errorText(ctx, req, err))
		return
	}
	s.reply(req, resp)
	for _, f := range ctx.(*requestContext).after {
		f()
	}
}

// errorText is the text of the error response to req: the handler's
// error, said as a timeout when the request's deadline ended it.
func (r *Router) errorText(ctx context.Context, req *Message, err error) string {
	if errors.Is(err, context.DeadlineExceeded) && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Sprintf("%s did not finish within %v: %v", req.Command, r.timeout, err)
	}
	return err.Error()
}

// requestContext is the context of one request: its deadline, and the
// work its handler registered with AfterResponse.
type requestContext struct {
	context.Context
	after []func()
}

type afterKey struct{}

func (c *requestContext) Value(key any) any {
	if key == (afterKey{}) {
		return c
	}
	return c.Context.Value(key)
}

// AfterResponse registers f to run once the answer to the request ctx
// belongs to has been sent, on the same goroutine, before the next
// request is served; it does not run when the handler fails. Outside a
// [Router]'s handler f runs at once.
func AfterResponse(ctx context.Context, f func()) {
	if c, ok := ctx.Value(afterKey{}).(*requestContext); ok {
		c.after = append(c.after, f)
		return
	}
	f()
}

// decodeRequest fills req, the typed request of m's command, from m: the
// envelope, and the arguments into v's field at args (none when the
// request has no arguments).
func decodeRequest(m *Message, req godap.RequestMessage, v reflect.Value, args []int) error {
	r := req.GetRequest()
	r.Seq, r.Type, r.Command = m.Seq, m.Type, m.Command
	if args == nil || len(m.Arguments) == 0 {
		return nil
	}
	if err := json.Unmarshal(m.Arguments, v.FieldByIndex(args).Addr().Interface()); err != nil {
		return argumentsError(m.Command, err)
	}
	return nil
}

// argumentsError says which argument of command is wrong, and what it
// must be.
func argumentsError(command string, err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return fmt.Errorf("bad %s arguments: %w", command, err)
	}
	var path []string // the JSON path: embedded structs' names (in upper case, as no DAP field is) left out
	for _, name := range strings.Split("arguments."+te.Field, ".") {
		if name != "" && (name[0] < 'A' || name[0] > 'Z') {
			path = append(path, name)
		}
	}
	t := te.Type
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	want := map[reflect.Kind]string{reflect.String: "a string", reflect.Bool: "true or false", reflect.Slice: "an array",
		reflect.Array: "an array", reflect.Map: "an object", reflect.Struct: "an object", reflect.Interface: "a value"}[t.Kind()]
	if want == "" {
		want = "a number"
	}
	got, _, _ := strings.Cut(te.Value, " ") // "number 1.5"
	switch got {
	case "bool":
		got = "true or false"
	case "object", "array":
		got = "an " + got
	default:
		got = "a " + got
	}
	return fmt.Errorf("bad %s arguments: %s must be %s, not %s", command, strings.Join(path, "."), want, got)
}
