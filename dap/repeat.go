package dap

import (
	"context"
	"time"
)

// RepeatUntil sends a request again, every interval and at most n times,
// until stop is closed or ctx ends. It is for requests an adapter may
// drop without an answer that says so: a pause that reaches LLDB before
// an attached program runs, or node while it is still leaving a pause.
// send returning an error ends the repeats. It blocks; run it on a
// goroutine.
func RepeatUntil(ctx context.Context, stop <-chan struct{}, every time.Duration, n int, send func() error) {
	for i := 0; i < n; i++ {
		t := time.NewTimer(every)
		select {
		case <-stop:
			t.Stop()
			return
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		if send() != nil {
			return
		}
	}
}
