package javadap

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"
)

// startSuspendedJVM starts a fixture's main class under JDWP (suspend=y)
// and connects a client.
func startSuspendedJVM(t *testing.T, cp, main string, out *outputSink) *Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	jc, err := buildCommand(ctx, &LaunchConfig{MainClass: main, Classpath: stringList{cp}})
	if err != nil {
		t.Fatal(err)
	}
	p, addr, err := startJVM(ctx, jc, nil, out)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Kill)
	c, err := DialJDWP(ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func nextEvent(t *testing.T, c *Client, kind byte) Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		set, err := c.NextEventSet(ctx)
		if err != nil {
			t.Fatalf("waiting for event %d: %v", kind, err)
		}
		for _, e := range set.Events {
			if e.Kind == kind {
				return e
			}
		}
	}
}

func TestClientAgainstJVM(t *testing.T) {
	cp := compileFixtures(t)
	var lines []string
	out := &outputSink{}
	out.setSink(func(cat, line string) { lines = append(lines, cat+":"+line) })
	c := startSuspendedJVM(t, cp, "Loop", out)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	v, err := c.Version(ctx)
	if err != nil || v.Major < 1 || v.VMVersion == "" {
		t.Fatalf("Version = %+v, %v", v, err)
	}
	if s := c.Sizes(); !s.valid() {
		t.Fatalf("sizes %+v", s)
	}
	start := nextEvent(t, c, EventVMStart)
	if start.Thread == 0 {
		t.Fatal("VM start without a thread")
	}
	if name, err := c.ThreadName(ctx, start.Thread); err != nil || name != "main" {
		t.Fatalf("main thread name %q, %v", name, err)
	}
	if _, err := c.SetEvent(ctx, EventClassPrepare, SuspendEventThread, Modifier{Kind: ModClassMatch, Pattern: "Loop"}); err != nil {
		t.Fatal(err)
	}
	if err := c.ResumeAll(ctx); err != nil {
		t.Fatal(err)
	}
	prep := nextEvent(t, c, EventClassPrepare)
	if prep.Signature != "LLoop;" {
		t.Fatalf("prepared %q", prep.Signature)
	}
	if src, err := c.SourceFile(ctx, prep.RefType); err != nil || src != "Loop.java" {
		t.Fatalf("SourceFile = %q, %v", src, err)
	}
	methods, err := c.Methods(ctx, prep.RefType)
	if err != nil {
		t.Fatal(err)
	}
	line := int32(fixtureLine(t, "Loop.java", "loop"))
	var loc *Location
	for _, m := range methods {
		lt, err := c.LineTable(ctx, prep.RefType, m.ID)
		if err != nil {
			continue
		}
		for _, e := range lt.Lines {
			if e.Line == line && loc == nil {
				loc = &Location{TypeTag: prep.RefTypeTag, Class: prep.RefType, Method: m.ID, Index: e.Index}
			}
		}
	}
	if loc == nil {
		t.Fatalf("no code at Loop.java:%d", line)
	}
	if _, err := c.SetEvent(ctx, EventBreakpoint, SuspendAll, Modifier{Kind: ModLocationOnly, Location: *loc}); err != nil {
		t.Fatal(err)
	}
	if err := c.ResumeThread(ctx, prep.Thread); err != nil {
		t.Fatal(err)
	}
	bp := nextEvent(t, c, EventBreakpoint)
	frames, err := c.Frames(ctx, bp.Thread, 0, -1)
	if err != nil || len(frames) == 0 {
		t.Fatalf("frames %v %v", frames, err)
	}
	_, vars, err := c.VariableTable(ctx, prep.RefType, bp.Location.Method)
	if err != nil {
		t.Fatal(err)
	}
	var slots []SlotRequest
	var names []string
	for _, v := range vars {
		if v.CodeIndex <= bp.Location.Index && bp.Location.Index < v.CodeIndex+uint64(v.Length) {
			slots = append(slots, SlotRequest{Slot: v.Slot, Tag: tagOfSignature(v.Signature)})
			names = append(names, v.Name)
		}
	}
	vals, err := c.FrameValues(ctx, bp.Thread, frames[0].ID, slots)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Value{}
	for i, n := range names {
		got[n] = vals[i]
	}
	if got["sum"].Long != 0 || got["i"].Tag != TagInt || got["label"].Tag != TagString {
		t.Fatalf("locals %+v", got)
	}
	if s, err := c.StringValue(ctx, got["label"].Object); err != nil || s != "total" {
		t.Fatalf("label = %q, %v", s, err)
	}
	// Write a local and see the program print it.
	if err := c.SetFrameValue(ctx, bp.Thread, frames[0].ID, slots[indexOf(names, "sum")].Slot, Value{Tag: TagInt, Long: 1000}); err != nil {
		t.Fatal(err)
	}
	if err := c.ResumeAll(ctx); err != nil {
		t.Fatal(err)
	}
	nextEvent(t, c, EventBreakpoint) // i == 1
	if err := c.ResumeAll(ctx); err != nil {
		t.Fatal(err)
	}
	nextEvent(t, c, EventBreakpoint) // i == 2
	if err := c.ResumeAll(ctx); err != nil {
		t.Fatal(err)
	}
	nextEvent(t, c, EventVMDeath)
	select {
	case <-c.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("connection did not end after VM death")
	}
	if _, err := c.Version(ctx); !errors.Is(err, ErrVMGone) {
		t.Fatalf("after death: %v", err)
	}
}

func indexOf(xs []string, x string) int {
	for i, s := range xs {
		if s == x {
			return i
		}
	}
	return -1
}

func TestDialRefused(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := DialJDWP(ctx, addr); err == nil {
		t.Fatal("dial to a closed port succeeded")
	}
}

func TestDialSilentPeer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err == nil {
			defer c.Close()
			time.Sleep(3 * time.Second) // never answers the handshake
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	start := time.Now()
	_, err = DialJDWP(ctx, ln.Addr().String())
	if err == nil || !strings.Contains(err.Error(), "another debugger") {
		t.Fatalf("dial to a silent peer: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %s", d)
	}
}
