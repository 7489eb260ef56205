package javadap

import (
	"context"
	"sync"
)

// queue is an unbounded FIFO; Push never blocks. Safe for concurrent use.
type queue[T any] struct {
	mu     sync.Mutex
	items  []T
	notify chan struct{}
	closed bool
}

func newQueue[T any]() *queue[T] { return &queue[T]{notify: make(chan struct{}, 1)} }

func (q *queue[T]) Push(v T) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
	select {
	case q.notify <- struct{}{}:
	default:
	}
}

// Close makes Pop return false once the queue is drained.
func (q *queue[T]) Close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	select {
	case q.notify <- struct{}{}:
	default:
	}
}

// Pop waits for the next item; false when closed and drained or ctx ends.
func (q *queue[T]) Pop(ctx context.Context) (T, bool) {
	for {
		q.mu.Lock()
		if len(q.items) > 0 {
			v := q.items[0]
			q.items = q.items[1:]
			q.mu.Unlock()
			return v, true
		}
		closed := q.closed
		q.mu.Unlock()
		var zero T
		if closed {
			return zero, false
		}
		select {
		case <-q.notify:
		case <-ctx.Done():
			return zero, false
		}
	}
}
