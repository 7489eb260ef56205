package javadap

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	godap "github.com/google/go-dap"
)

// stopInfo is why the program stops.
type stopInfo struct {
	reason, description, text string
	thread                    uint64
	hitIDs                    []int
}

// pump reads JDWP events until the connection ends. It handles
// class-prepare and thread events itself and queues the rest for stopLoop.
func (s *Server) pump(vm *Client) {
	ctx := s.ctx
	defer s.stopQ.Close()
	defer s.recoverPanic("event pump")
	for {
		set, err := vm.NextEventSet(ctx)
		if err != nil {
			return
		}
		var rest []Event
		var prepared uint64
		vmStart := false
		if t := vm.Invoking(); t != 0 && duringInvocation(set, t) {
			// A breakpoint, step or exception inside a method the debugger
			// is running (toString, a condition): let the method finish.
			s.console("a breakpoint or exception was hit while evaluating an expression; it was skipped")
			if set.SuspendPolicy == SuspendAll {
				_ = vm.ResumeAll(ctx)
			} else if set.SuspendPolicy == SuspendEventThread {
				_ = vm.ResumeThread(ctx, t)
			}
			continue
		}
		for _, e := range set.Events {
			switch e.Kind {
			case EventVMStart:
				select {
				case <-s.vmStarted:
				default:
					close(s.vmStarted)
				}
				vmStart = true
				s.tmu.Lock()
				s.mainThread = e.Thread
				s.tmu.Unlock()
				s.dapThread(e.Thread)
			case EventThreadStart:
				s.conn.Event("thread", godap.ThreadEventBody{Reason: "started", ThreadId: s.dapThread(e.Thread)})
			case EventThreadDeath:
				s.conn.Event("thread", godap.ThreadEventBody{Reason: "exited", ThreadId: s.dapThread(e.Thread)})
			case EventClassPrepare:
				s.classPrepared(ctx, e)
				prepared = e.Thread
			default:
				rest = append(rest, e)
			}
		}
		switch {
		case len(rest) > 0:
			s.stopQ.Push(&EventSet{SuspendPolicy: set.SuspendPolicy, Events: rest})
		case vmStart:
			// The VM stays suspended until configurationDone.
		case set.SuspendPolicy == SuspendEventThread && prepared != 0:
			_ = vm.ResumeThread(ctx, prepared)
		case set.SuspendPolicy == SuspendAll:
			_ = vm.ResumeAll(ctx)
		}
	}
}

// duringInvocation reports whether a set holds a stopping event of the
// thread that runs a debugger invocation.
func duringInvocation(set *EventSet, thread uint64) bool {
	for _, e := range set.Events {
		switch e.Kind {
		case EventBreakpoint, EventSingleStep, EventException:
			if e.Thread == thread {
				return true
			}
		}
	}
	return false
}

// stopLoop decides, one event set at a time, whether the program stops.
func (s *Server) stopLoop() {
	defer s.recoverPanic("stop loop")
	for {
		set, ok := s.stopQ.Pop(s.ctx)
		if !ok {
			return
		}
		s.handleLocked(set)
	}
}

func (s *Server) handleLocked(set *EventSet) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	ctx, cancel := context.WithTimeout(s.ctx, 60*time.Second)
	defer cancel()
	s.handleStopSet(ctx, set)
}

func (s *Server) handleStopSet(ctx context.Context, set *EventSet) {
	var stop *stopInfo
	var thread uint64
	clear(s.frameIDs) // the VM ran since they were read
	for _, e := range set.Events {
		thread = e.Thread
		var r *stopInfo
		switch e.Kind {
		case EventBreakpoint:
			s.threadSeen.see(e.Thread)
			r = s.breakpointHit(ctx, e)
		case EventSingleStep:
			r = s.stepEvent(ctx, e)
		case EventException:
			r = s.exceptionHit(ctx, e)
		case EventFieldAccess, EventFieldModify:
			r = s.watchHit(ctx, e)
		case EventVMDeath:
			return
		}
		if r != nil && (stop == nil || stop.reason == "step") {
			stop = r
		}
	}
	if stop != nil {
		s.clearStep(ctx)
		s.suspends++
		s.markStopped(ctx, stop.thread, stop.reason, stop.description, stop.text, stop.hitIDs)
		return
	}
	switch set.SuspendPolicy {
	case SuspendAll:
		_ = s.vm.ResumeAll(ctx)
	case SuspendEventThread:
		_ = s.vm.ResumeThread(ctx, thread)
	}
}

// recoverPanic turns a panic of an adapter goroutine into a console
// message and ends the session instead of the process.
func (s *Server) recoverPanic(where string) {
	if r := recover(); r != nil {
		s.console(fmt.Sprintf("internal error in the Java adapter's %s: %v\n%s", where, r, debug.Stack()))
		go s.Close()
	}
}

// markStopped records a stop and tells the client. Called with mu held.
func (s *Server) markStopped(ctx context.Context, thread uint64, reason, description, text string, hitIDs []int) {
	s.stopped = true
	s.stopThread = thread
	s.threadSeen.see(thread)
	s.refs.reset()
	clear(s.frameIDs)
	body := map[string]any{"reason": reason, "threadId": s.dapThread(thread), "allThreadsStopped": true}
	if description != "" {
		body["description"] = description
	}
	if text != "" {
		body["text"] = text
	}
	if len(hitIDs) > 0 {
		body["hitBreakpointIds"] = hitIDs
	}
	if d := s.takeWatchData(reason); d != nil {
		body["dbgData"] = d // the values a data breakpoint saw
	}
	s.conn.Event("stopped", body)
}

// resumeVM undoes every suspension the adapter holds. Called with mu held.
func (s *Server) resumeVM(ctx context.Context) error {
	s.stopped = false
	s.refs.reset()
	s.unpinAll(ctx)
	clear(s.frameIDs)
	s.exceptions = map[uint64]*exceptionStop{}
	n := s.suspends
	if n < 1 {
		n = 1
	}
	s.suspends = 0
	for i := 0; i < n; i++ {
		if err := s.vm.ResumeAll(ctx); err != nil {
			return err
		}
	}
	return nil
}

// jdkPatterns are the classes justMyCode steps over.
var jdkPatterns = []string{"java.*", "javax.*", "jdk.*", "sun.*", "com.sun.*", "org.jcp.*"}

func isJDKClass(sig string) bool {
	name := javaTypeName(sig)
	for _, p := range jdkPatterns {
		if strings.HasPrefix(name, strings.TrimSuffix(p, "*")) {
			return true
		}
	}
	return false
}
