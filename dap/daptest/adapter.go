// Package daptest holds a fake DAP adapter for tests of proxies and
// clients, over in-memory pipes.
//
//	a, up := daptest.NewAdapter(t, func(req *dap.Message) (any, error) { return nil, nil })
//	px := dap.NewProxy(up, layers...)
package daptest

import (
	"encoding/json"
	"net"
	"sync"
	"testing"

	"github.com/dbg-dev/dbg/dap"
)

// Answer returns the body of the response to req, or an error for a
// failed response.
type Answer func(req *dap.Message) (body any, err error)

// Adapter is a fake adapter: it records every request and answers it with
// its Answer. Its messages go out through a queue, as a real adapter's go
// through a pipe buffer, so a peer that writes while the adapter answers
// does not deadlock. Its methods are safe for concurrent use.
type Adapter struct {
	out chan *dap.Message

	mu   sync.Mutex
	seen []*dap.Message
	seq  int
}

// NewAdapter starts a fake adapter and returns the stream to put a proxy
// or a client on. A nil answer answers every request with success and no
// body. The adapter stops when the test ends.
func NewAdapter(t testing.TB, answer Answer) (*Adapter, net.Conn) {
	mine, theirs := net.Pipe()
	a := &Adapter{out: make(chan *dap.Message, 256)}
	done := make(chan struct{})
	t.Cleanup(func() { close(done); mine.Close() })
	go func() {
		for {
			select {
			case m := <-a.out:
				b, _ := json.Marshal(m)
				if dap.WriteFrame(mine, b) != nil {
					return
				}
			case <-done:
				return
			}
		}
	}()
	go func() {
		fr := dap.NewFrameReader(mine)
		for {
			body, err := fr.ReadFrame()
			if err != nil {
				return
			}
			m, err := dap.Decode(body)
			if err != nil {
				continue
			}
			a.mu.Lock()
			a.seen = append(a.seen, m)
			a.mu.Unlock()
			if m.Type != "request" {
				continue
			}
			var resp any
			if answer != nil {
				resp, err = answer(m)
			}
			a.reply(m, resp, err)
		}
	}()
	return a, theirs
}

func (a *Adapter) reply(req *dap.Message, body any, err error) {
	ok := err == nil
	m := &dap.Message{Type: "response", RequestSeq: req.Seq, Command: req.Command, Success: &ok}
	if err != nil {
		m.Message = err.Error()
		body = map[string]any{"error": map[string]any{"id": 1, "format": err.Error()}}
	}
	if body != nil {
		m.Body, _ = json.Marshal(body)
	}
	a.Send(m)
}

// Send queues a message to the peer, numbering it.
func (a *Adapter) Send(m *dap.Message) {
	a.mu.Lock()
	a.seq++
	m.Seq = a.seq
	a.mu.Unlock()
	a.out <- m
}

// Event queues an event.
func (a *Adapter) Event(name string, body any) {
	b, _ := json.Marshal(body)
	a.Send(&dap.Message{Type: "event", Event: name, Body: b})
}

// Requests returns the requests of command received so far ("" for all).
func (a *Adapter) Requests(command string) []*dap.Message {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []*dap.Message
	for _, m := range a.seen {
		if command == "" || m.Command == command {
			out = append(out, m)
		}
	}
	return out
}
