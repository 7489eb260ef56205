package javadap

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	godap "github.com/google/go-dap"
)

// Virtual threads (JDK 21 and later) are not in JDWP's AllThreads, and a
// program can run millions of them, so the adapter lists only those it has
// seen in events: the thread of each stop and each thread that hit a
// breakpoint (a log point or an unmet condition included). At most
// maxVirtualThreads of them are listed, the most recently seen first.
const (
	maxVirtualThreads = 64
	maxSeenThreads    = 1024 // threads remembered, virtual or not
)

// platformThreadsOnly is JDWP's PlatformThreadsOnly modifier (JDK 21+):
// thread start and death events for platform threads only.
const platformThreadsOnly = 13

// seenThreads are the threads met in events, oldest first. It is safe for
// concurrent use.
type seenThreads struct {
	mu    sync.Mutex
	order []uint64
	noted bool // the cap was reported
}

func newSeenThreads() *seenThreads { return &seenThreads{} }

// see records a thread as the most recently seen.
func (t *seenThreads) see(thread uint64) {
	if t == nil || thread == 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, x := range t.order {
		if x == thread {
			t.order = append(t.order[:i], t.order[i+1:]...)
			break
		}
	}
	t.order = append(t.order, thread)
	if len(t.order) > maxSeenThreads {
		t.order = t.order[len(t.order)-maxSeenThreads:]
	}
}

// forget drops threads that ended.
func (t *seenThreads) forget(gone map[uint64]bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	kept := t.order[:0]
	for _, x := range t.order {
		if !gone[x] {
			kept = append(kept, x)
		}
	}
	t.order = kept
}

// recent returns the seen threads, most recent first.
func (t *seenThreads) recent() []uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]uint64, 0, len(t.order))
	for i := len(t.order) - 1; i >= 0; i-- {
		out = append(out, t.order[i])
	}
	return out
}

// noteCap reports whether the cap is being reported for the first time.
func (t *seenThreads) noteCap() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	first := !t.noted
	t.noted = true
	return first
}

// watchThreads asks for thread start and death events: of platform
// threads only on a JVM with virtual threads, which would otherwise send
// two events for each of them.
func (s *Server) watchThreads(ctx context.Context, vm *Client) {
	var mods []Modifier
	if v, err := vm.Version(ctx); err == nil && v.Major >= 21 {
		mods = append(mods, Modifier{Kind: platformThreadsOnly})
	}
	for _, kind := range []byte{EventThreadStart, EventThreadDeath} {
		if _, err := vm.SetEvent(ctx, kind, SuspendNone, mods...); err != nil && len(mods) > 0 {
			_, _ = vm.SetEvent(ctx, kind, SuspendNone)
		}
	}
}

// threads answers the DAP threads request: the VM's platform threads,
// then the live virtual threads seen in events (the stopped thread
// always), capped at maxVirtualThreads.
func (s *Server) threads(ctx context.Context, _ *godap.ThreadsRequest) (*threadsResponse, error) {
	resp := &threadsResponse{}
	resp.Body.Threads = []godap.Thread{}
	if s.vm == nil {
		return resp, nil
	}
	ts, err := s.vm.AllThreads(ctx)
	if err != nil {
		if errors.Is(err, ErrVMGone) {
			return resp, nil
		}
		return nil, err
	}
	out := resp.Body.Threads
	platform := map[uint64]bool{}
	for _, t := range ts {
		platform[t] = true
		name, err := s.vm.ThreadName(ctx, t)
		if err != nil {
			continue
		}
		out = append(out, godap.Thread{Id: s.dapThread(t), Name: name})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Id < out[j].Id })
	cands := s.threadSeen.recent()
	if s.stopped && s.stopThread != 0 {
		cands = append([]uint64{s.stopThread}, cands...)
	}
	listed, gone, more := map[uint64]bool{}, map[uint64]bool{}, 0
	for _, t := range cands {
		if platform[t] || listed[t] || gone[t] {
			continue
		}
		st, _, err := s.vm.ThreadStatus(ctx, t)
		if err != nil || st == 0 && !(s.stopped && t == s.stopThread) { // 0: ended
			gone[t] = true
			continue
		}
		if len(listed) >= maxVirtualThreads {
			more++
			continue
		}
		name, err := s.vm.ThreadName(ctx, t)
		if err != nil {
			gone[t] = true
			continue
		}
		listed[t] = true
		id := s.dapThread(t)
		if name == "" {
			name = fmt.Sprintf("virtual thread %d", id)
		}
		out = append(out, godap.Thread{Id: id, Name: name})
	}
	s.threadSeen.forget(gone)
	resp.Body.Threads = out
	if more > 0 {
		resp.Body.Note = fmt.Sprintf("%d more virtual threads hit breakpoints; threads lists the %d seen most recently (virtual threads that never stopped or hit a breakpoint are not listed)",
			more, maxVirtualThreads)
		if s.threadSeen.noteCap() {
			s.console(resp.Body.Note)
		}
	}
	return resp, nil
}

// threadsResponse is DAP's threads answer with a note on the virtual
// threads left out.
type threadsResponse struct {
	godap.Response
	Body struct {
		godap.ThreadsResponseBody
		Note string `json:"note,omitempty"`
	} `json:"body"`
}

// jdkBanner says which JVM the session debugs, and from which java.
func jdkBanner(ctx context.Context, vm *Client, java string) string {
	v, err := vm.Version(ctx)
	if err != nil {
		return "Java: JVM version unknown: " + err.Error()
	}
	msg := fmt.Sprintf("Java: %s %s (JDWP %d.%d)", v.VMName, v.VMVersion, v.Major, v.Minor)
	if java != "" {
		msg += " from " + java
	}
	return msg
}
