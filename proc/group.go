package proc

import (
	"context"
	"errors"
	"fmt"
	"syscall"
	"time"
)

// ErrNotAGroup is returned for a process group dbg must never signal:
// 0 and 1 (to kill(2), "my group" and "every process") and dbg's own.
var ErrNotAGroup = errors.New("refusing to signal this process group")

// SignalGroup sends sig to every process of group pgid.
func SignalGroup(pgid int, sig syscall.Signal) error {
	if pgid <= 1 || pgid == syscall.Getpgrp() {
		return fmt.Errorf("process group %d: %w", pgid, ErrNotAGroup)
	}
	return syscall.Kill(-pgid, sig)
}

// KillGroup sends SIGKILL to every process of group pgid at once.
func KillGroup(pgid int) error { return SignalGroup(pgid, syscall.SIGKILL) }

// StopOptions tune StopGroup.
type StopOptions struct {
	// Signal is the polite signal; SIGTERM when zero.
	Signal syscall.Signal
	// Grace is how long the group has to end after Signal before
	// SIGKILL; 3 seconds when zero.
	Grace time.Duration
	// Exited, when set, is closed once the caller has reaped the group's
	// leader: that ends the grace period, and the SIGKILL that follows
	// sweeps members that outlived it. When nil, the grace period ends as
	// soon as no process of the group is left.
	Exited <-chan struct{}
}

// pollEvery is how often StopGroup looks whether a group without an
// Exited channel is empty.
const pollEvery = 20 * time.Millisecond

// StopGroup ends process group pgid politely, then firmly: o.Signal, a
// grace period (cut short by ctx), then SIGKILL to the group. It returns
// without waiting for the SIGKILL to take effect, and reports whether the
// group ended (or its leader was reaped) within the grace period.
func StopGroup(ctx context.Context, pgid int, o StopOptions) bool {
	if o.Signal == 0 {
		o.Signal = syscall.SIGTERM
	}
	if o.Grace <= 0 {
		o.Grace = 3 * time.Second
	}
	if err := SignalGroup(pgid, o.Signal); errors.Is(err, ErrNotAGroup) {
		return false
	}
	ended := waitGroup(ctx, pgid, o)
	if ended && o.Exited == nil {
		return true // nothing left to sweep
	}
	_ = KillGroup(pgid)
	return ended
}

// waitGroup waits up to o.Grace for the group to end.
func waitGroup(ctx context.Context, pgid int, o StopOptions) bool {
	deadline := time.NewTimer(o.Grace)
	defer deadline.Stop()
	var tick <-chan time.Time
	if o.Exited == nil {
		t := time.NewTicker(pollEvery)
		defer t.Stop()
		tick = t.C
	}
	for {
		if o.Exited == nil && groupGone(pgid) {
			return true
		}
		select {
		case <-o.Exited:
			return true
		case <-tick:
		case <-deadline.C:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// groupGone reports whether no process of group pgid is left.
func groupGone(pgid int) bool {
	return errors.Is(syscall.Kill(-pgid, 0), syscall.ESRCH)
}

// KillAll sends SIGKILL to each pid, and to its process group when it
// leads one. dbg's own group is never signalled.
func KillAll(pids []int) {
	for _, p := range pids {
		if p <= 1 {
			continue
		}
		if pg, err := syscall.Getpgid(p); err == nil && pg == p {
			_ = KillGroup(pg)
		}
		_ = syscall.Kill(p, syscall.SIGKILL)
	}
}
