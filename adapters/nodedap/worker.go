package nodedap

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
)

// workerConn is a worker thread's inspector session, relayed through the
// main session with NodeWorker.sendMessageToWorker and
// NodeWorker.receivedMessageFromWorker.
//
// Goroutines: deliver is called by the main session's event goroutine; the
// worker's events are handed to onEvent on the workerConn's own goroutine,
// in order, so that onEvent may call Call (whose answer arrives through the
// main event goroutine).
type workerConn struct {
	main    cdpConn
	session string
	onEvent func(*Message)

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan *Message
	queue   []*Message
	ended   bool
	wake    chan struct{}

	done       chan struct{}
	eventsDone chan struct{}
}

func newWorkerConn(main cdpConn, session string, onEvent func(*Message)) *workerConn {
	w := &workerConn{main: main, session: session, onEvent: onEvent, pending: map[int64]chan *Message{},
		wake: make(chan struct{}, 1), done: make(chan struct{}), eventsDone: make(chan struct{})}
	go w.eventLoop()
	go func() {
		<-main.Done()
		w.Close()
	}()
	return w
}

func (w *workerConn) Done() <-chan struct{}       { return w.done }
func (w *workerConn) EventsDone() <-chan struct{} { return w.eventsDone }

// Call sends a command to the worker and waits for its answer.
func (w *workerConn) Call(ctx context.Context, method string, params, result any) error {
	if params == nil {
		params = struct{}{}
	}
	p, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("cdp: encode %s params: %w", method, err)
	}
	ch := make(chan *Message, 1)
	w.mu.Lock()
	if w.ended {
		w.mu.Unlock()
		return fmt.Errorf("%s: %w", method, ErrClientClosed)
	}
	w.nextID++
	id := w.nextID
	w.pending[id] = ch
	w.mu.Unlock()
	defer func() {
		w.mu.Lock()
		delete(w.pending, id)
		w.mu.Unlock()
	}()
	msg, err := json.Marshal(&Message{ID: id, Method: method, Params: p})
	if err != nil {
		return err
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultCallTimeout)
		defer cancel()
	}
	if err := w.main.Call(ctx, "NodeWorker.sendMessageToWorker", map[string]any{"sessionId": w.session, "message": string(msg)}, nil); err != nil {
		return err
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return fmt.Errorf("%s: %w", method, m.Error)
		}
		if result != nil {
			if err := json.Unmarshal(m.Result, result); err != nil {
				return fmt.Errorf("cdp: decode %s result: %w", method, err)
			}
		}
		return nil
	case <-w.done:
		return fmt.Errorf("%s: %w", method, ErrClientClosed)
	case <-ctx.Done():
		return fmt.Errorf("cdp: %s: %w", method, ctx.Err())
	}
}

// deliver takes one message the worker sent.
func (w *workerConn) deliver(raw string) {
	m, err := DecodeMessage([]byte(raw))
	if err != nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if m.IsResponse() {
		if ch := w.pending[m.ID]; ch != nil {
			delete(w.pending, m.ID)
			ch <- m
		}
		return
	}
	if m.IsEvent() && !w.ended {
		w.queue = append(w.queue, m)
		select {
		case w.wake <- struct{}{}:
		default:
		}
	}
}

// Close ends the session (the worker exited, or the main session ended).
func (w *workerConn) Close() error {
	w.mu.Lock()
	if w.ended {
		w.mu.Unlock()
		return nil
	}
	w.ended = true
	w.mu.Unlock()
	close(w.done)
	select {
	case w.wake <- struct{}{}:
	default:
	}
	return nil
}

func (w *workerConn) eventLoop() {
	defer close(w.eventsDone)
	for {
		w.mu.Lock()
		batch := w.queue
		w.queue = nil
		ended := w.ended
		w.mu.Unlock()
		for _, m := range batch {
			w.onEvent(m)
		}
		if len(batch) > 0 {
			continue
		}
		if ended {
			return
		}
		<-w.wake
	}
}
