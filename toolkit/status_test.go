package toolkit

import (
	"context"
	"testing"
	"time"
)

type partFunc func(ctx context.Context, q StatusQuery) StatusPart

func (f partFunc) Status(ctx context.Context, q StatusQuery) StatusPart { return f(ctx, q) }

// Parts come back in name order; a slow contributor is left out and a
// panicking one reported UNKNOWN, without delaying the others.
func TestStatusRegistryCollect(t *testing.T) {
	var r StatusRegistry
	r.Register("b", partFunc(func(ctx context.Context, q StatusQuery) StatusPart {
		return StatusPart{Section: "b:" + q.Project}
	}))
	r.Register("a", partFunc(func(ctx context.Context, q StatusQuery) StatusPart { return StatusPart{Section: "a"} }))
	r.Register("c", partFunc(func(ctx context.Context, q StatusQuery) StatusPart { panic("boom") }))
	r.Register("d", partFunc(func(ctx context.Context, q StatusQuery) StatusPart {
		<-ctx.Done()
		time.Sleep(50 * time.Millisecond)
		return StatusPart{Section: "late"}
	}))
	start := time.Now()
	parts := r.Collect(context.Background(), StatusQuery{Project: "/p"}, 100*time.Millisecond)
	if time.Since(start) > time.Second {
		t.Fatalf("waited for the slow contributor")
	}
	if len(parts) != 3 || parts[0].Section != "a" || parts[1].Section != "b:/p" || parts[2].Capabilities[0].State != Unknown {
		t.Fatalf("parts %+v", parts)
	}
	var none *StatusRegistry
	if p := none.Collect(context.Background(), StatusQuery{}, time.Second); len(p) != 0 {
		t.Fatalf("nil registry: %+v", p)
	}
}

func TestProcessRegistryHooks(t *testing.T) {
	var added, removed []int
	r := NewProcessRegistry(ProcessHooks{
		Registered:   func(p OwnedProcess) { added = append(added, p.PID) },
		Unregistered: func(pid int) { removed = append(removed, pid) },
	})
	r.RegisterProcess(OwnedProcess{Name: "b", PID: 20})
	r.RegisterProcess(OwnedProcess{Name: "a", PID: 10})
	if ps := r.Processes(); len(ps) != 2 || ps[0].PID != 10 {
		t.Fatalf("processes %+v", ps)
	}
	if p, ok := r.ProcessByPID(20); !ok || p.Name != "b" {
		t.Fatalf("by pid %+v %v", p, ok)
	}
	r.UnregisterProcess(20)
	if _, ok := r.ProcessByPID(20); ok || len(added) != 2 || len(removed) != 1 || removed[0] != 20 {
		t.Fatalf("added %v removed %v", added, removed)
	}
}
