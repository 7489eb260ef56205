package proc

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"
)

// groupMembers lists the live processes of group pgid.
func groupMembers(pgid int) []int {
	var out []int
	for _, p := range PIDs() {
		if st, err := ReadStat(p); err == nil && st.PGID == pgid && st.State != 'Z' {
			out = append(out, p)
		}
	}
	return out
}

func TestStopGroupPolitely(t *testing.T) {
	cmd, reaped := started(t, "sleep 30 & sleep 30 & wait")
	pg := cmd.Process.Pid
	waitFor(t, "three members", func() bool { return len(groupMembers(pg)) == 3 })
	start := time.Now()
	if !StopGroup(context.Background(), pg, StopOptions{Grace: 10 * time.Second, Exited: reaped}) {
		t.Fatal("a group that takes SIGTERM did not end politely")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("polite stop took %v", d)
	}
	waitFor(t, "the group to be gone", func() bool { return len(groupMembers(pg)) == 0 })
}

func TestStopGroupFirmly(t *testing.T) {
	// The shell and its sleep ignore SIGTERM (an ignored signal stays
	// ignored across exec).
	cmd, reaped := started(t, `trap "" TERM; sleep 30 & wait`)
	pg := cmd.Process.Pid
	waitFor(t, "two members", func() bool { return len(groupMembers(pg)) == 2 })
	start := time.Now()
	if StopGroup(context.Background(), pg, StopOptions{Grace: 300 * time.Millisecond, Exited: reaped}) {
		t.Fatal("a group that ignores SIGTERM ended politely")
	}
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Errorf("SIGKILL came after %v, before the grace period", d)
	}
	select {
	case <-reaped:
	case <-time.After(5 * time.Second):
		t.Fatal("SIGKILL did not end the leader")
	}
	waitFor(t, "the group to be gone", func() bool { return len(groupMembers(pg)) == 0 })
}

func TestStopGroupPollsWithoutExited(t *testing.T) {
	cmd, _ := started(t, "sleep 30 & wait")
	pg := cmd.Process.Pid
	waitFor(t, "two members", func() bool { return len(groupMembers(pg)) == 2 })
	// The test's reaper goroutine reaps the leader; the group empties.
	if !StopGroup(context.Background(), pg, StopOptions{Grace: 5 * time.Second}) {
		t.Fatal("polling never saw the group end")
	}
}

func TestStopGroupContextCutsTheGrace(t *testing.T) {
	cmd, reaped := started(t, `trap "" TERM; sleep 30`)
	pg := cmd.Process.Pid
	waitFor(t, "the shell", func() bool { return len(groupMembers(pg)) >= 1 })
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	StopGroup(ctx, pg, StopOptions{Grace: time.Minute, Exited: reaped})
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("StopGroup waited %v past its context", d)
	}
	select {
	case <-reaped:
	case <-time.After(5 * time.Second):
		t.Fatal("the group survived")
	}
}

func TestKillGroupAndKillAll(t *testing.T) {
	cmd, reaped := started(t, "sleep 30 & wait")
	pg := cmd.Process.Pid
	waitFor(t, "two members", func() bool { return len(groupMembers(pg)) == 2 })
	if err := KillGroup(pg); err != nil {
		t.Fatal(err)
	}
	<-reaped
	waitFor(t, "the group to be gone", func() bool { return len(groupMembers(pg)) == 0 })

	// KillAll kills a leader's whole group, and single processes.
	cmd, reaped = started(t, "sleep 30 & wait")
	waitFor(t, "two members", func() bool { return len(groupMembers(cmd.Process.Pid)) == 2 })
	KillAll([]int{cmd.Process.Pid, missingPID, 0, 1})
	<-reaped
	waitFor(t, "the group to be gone", func() bool { return len(groupMembers(cmd.Process.Pid)) == 0 })
}

func TestNeverSignalsTheseGroups(t *testing.T) {
	for _, pg := range []int{0, 1, -5, syscall.Getpgrp()} {
		if err := SignalGroup(pg, 0); !errors.Is(err, ErrNotAGroup) {
			t.Errorf("SignalGroup(%d) = %v, want ErrNotAGroup", pg, err)
		}
		if StopGroup(context.Background(), pg, StopOptions{Grace: time.Millisecond}) {
			t.Errorf("StopGroup(%d) claims a stop", pg)
		}
	}
}
