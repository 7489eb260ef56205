package javadap

import (
	"context"
	"fmt"
	"strings"

	godap "github.com/google/go-dap"
)

// exceptionStop is what exceptionInfo reports for a thread.
type exceptionStop struct {
	typeName, message string
	uncaught          bool
	obj               uint64
}

func (s *Server) setExceptionBreakpoints(ctx context.Context, req *godap.SetExceptionBreakpointsRequest) (*godap.SetExceptionBreakpointsResponse, error) {
	a := &req.Arguments
	if s.vm == nil {
		return nil, fmt.Errorf("setExceptionBreakpoints before launch or attach")
	}
	caught, uncaught := false, false
	classes := map[string][]string{}
	add := func(id, cond string) error {
		switch id {
		case "caught":
			caught = true
		case "uncaught":
			uncaught = true
		case "all":
			caught, uncaught = true, true
		default:
			return fmt.Errorf("unknown exception filter %q (caught, uncaught)", id)
		}
		for _, c := range strings.Split(cond, ",") {
			if c = strings.TrimSpace(c); c != "" {
				classes[id] = append(classes[id], c)
			}
		}
		return nil
	}
	for _, f := range a.Filters {
		if err := add(f, ""); err != nil {
			return nil, err
		}
	}
	for _, o := range a.FilterOptions {
		if err := add(o.FilterId, o.Condition); err != nil {
			return nil, err
		}
	}
	s.bpMu.Lock()
	defer s.bpMu.Unlock()
	if s.bps.excReq != 0 {
		_ = s.vm.ClearEvent(ctx, EventException, s.bps.excReq)
		s.bps.excReq = 0
	}
	s.bps.excCaught, s.bps.excUncaugh, s.bps.excClasses = caught, uncaught, classes
	if caught || uncaught {
		id, err := s.vm.SetEvent(ctx, EventException, SuspendAll, Modifier{Kind: ModExceptionOnly, Caught: caught, Uncaught: uncaught})
		if err != nil {
			return nil, err
		}
		s.bps.excReq = id
	}
	out := make([]godap.Breakpoint, len(a.Filters)+len(a.FilterOptions))
	for i := range out {
		out[i].Verified = true
	}
	return &godap.SetExceptionBreakpointsResponse{Body: godap.SetExceptionBreakpointsResponseBody{Breakpoints: out}}, nil
}

// exceptionHit decides whether an exception event stops. Runs on the stop
// loop with mu held.
func (s *Server) exceptionHit(ctx context.Context, e Event) *stopInfo {
	uncaught := e.CatchLocation.Class == 0
	s.bpMu.Lock()
	want := (uncaught && s.bps.excUncaugh) || (!uncaught && s.bps.excCaught)
	filter := "caught"
	if uncaught {
		filter = "uncaught"
	}
	names := s.bps.excClasses[filter]
	s.bpMu.Unlock()
	if !want || e.Exception.Object == 0 {
		return nil
	}
	_, rt, err := s.vm.ObjectType(ctx, e.Exception.Object)
	if err != nil {
		return nil
	}
	if len(names) > 0 {
		match := false
		for _, sig := range s.classes.supertypes(ctx, rt) {
			for _, n := range names {
				if classMatches(n, sig) {
					match = true
				}
			}
		}
		if !match {
			return nil
		}
	}
	if s.justMyCode && !uncaught {
		throwSig, _ := s.classes.signature(ctx, e.Location.Class)
		catchSig, _ := s.classes.signature(ctx, e.CatchLocation.Class)
		if isJDKClass(throwSig) && isJDKClass(catchSig) {
			return nil
		}
		if len(s.library) > 0 && !s.userFrameOnStack(ctx, e.Thread) {
			return nil
		}
	}
	sig, _ := s.classes.signature(ctx, rt)
	ex := &exceptionStop{typeName: javaTypeName(sig), uncaught: uncaught, obj: e.Exception.Object}
	if v, err := s.invoke(ctx, e.Thread, Value{Tag: TagObject, Object: e.Exception.Object}, "getMessage", nil); err == nil && v.Object != 0 {
		ex.message, _ = s.vm.StringValue(ctx, v.Object)
	}
	s.exceptions[e.Thread] = ex
	kind := "Exception"
	if uncaught {
		kind = "Uncaught exception"
	}
	desc := fmt.Sprintf("%s: %s", kind, ex.typeName)
	text := ex.typeName
	if ex.message != "" {
		text += ": " + ex.message
	}
	return &stopInfo{reason: "exception", thread: e.Thread, description: desc, text: text}
}

func (s *Server) exceptionInfo(_ context.Context, req *godap.ExceptionInfoRequest) (*godap.ExceptionInfoResponse, error) {
	t, err := s.thread(req.Arguments.ThreadId)
	if err != nil {
		return nil, err
	}
	ex := s.exceptions[t]
	if ex == nil {
		return nil, fmt.Errorf("thread %d is not stopped on an exception", req.Arguments.ThreadId)
	}
	mode := godap.ExceptionBreakMode("always")
	if ex.uncaught {
		mode = "unhandled"
	}
	return &godap.ExceptionInfoResponse{Body: godap.ExceptionInfoResponseBody{ExceptionId: ex.typeName, Description: ex.message, BreakMode: mode,
		Details: &godap.ExceptionDetails{TypeName: ex.typeName, Message: ex.message, FullTypeName: ex.typeName}}}, nil
}
