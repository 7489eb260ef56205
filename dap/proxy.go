package dap

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"sync"
)

// Proxy is an in-process DAP proxy between a client (the end returned by
// [Proxy.Client], given to a [Conn]) and a real adapter. It owns the pipe,
// the two copy loops, the sequence numbers on both sides and the pairing
// of every request with its response. What it changes is decided by its
// layers ([Layer]): each layer may answer or rewrite a request, rewrite,
// drop or delay an event or a response, send events of its own toward the
// client, and make requests of its own ([Link.Call]).
//
// # Layers
//
// Layers are ordered from the client (index 0) to the adapter. A request
// from the client passes through the layers' Request hooks in that order,
// then goes to the adapter. Its response comes back through the Response
// hooks of the same layers in reverse order. Events from the adapter pass
// through the Event hooks from the innermost layer out. A message a layer
// makes itself starts next to it: its Calls pass only the layers inside it
// (their answer comes back to the caller, not to the client), its events
// and answers pass only the layers outside it. So an adapter's fixes
// compose with a language's fixes on top in one proxy, without a second
// pipe.
//
// # Sequence numbers
//
// Toward the adapter the proxy numbers every request itself; toward the
// client it numbers every message itself. Responses carry the request_seq
// the other side expects, so neither side sees the other's numbers, and
// messages the layers add never collide with forwarded ones.
//
// # Goroutines
//
// NewProxy starts two goroutines: one reads the client, one reads the
// adapter. Hooks run on them, as [Hooks] documents; layers may start more
// with [Link.Go]. Writes to each side are serialised by a mutex per side
// and block until that side reads. Close may be called from any goroutine:
// it closes both streams, which breaks any stuck write, and fails pending
// Calls with ErrClosed. Wait waits for every goroutine.
type Proxy struct {
	up     io.ReadWriteCloser
	down   net.Conn // the proxy's end of the client's pipe
	client net.Conn // the client's end
	hooks  []Hooks

	upMu sync.Mutex // serialises frame writes to the adapter

	downMu  sync.Mutex // serialises frame writes to the client; guards downSeq
	downSeq int

	mu      sync.Mutex // guards the fields below and every Request's state
	upSeq   int
	pending map[int]*exchange // adapter-side seq → request awaiting its response
	reverse map[int]int       // client-side seq of an adapter's reverse request → adapter's seq
	closed  bool

	done   chan struct{}
	ctx    context.Context // ends at Close
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// exchange is one request, from its sender through the layers and back.
type exchange struct {
	origin    int             // index of the layer whose Call sent it; -1: the client
	clientSeq int             // the client's seq of it
	seq       int             // the adapter-side seq, once sent
	reply     chan callResult // a Call's answer; nil: the answer is dropped
	views     []*Request      // per layer, the request as it saw it
}

type callResult struct {
	resp *Message
	err  error
}

// NewProxy starts a proxy in front of the adapter stream up, with layers
// ordered from the client to the adapter.
func NewProxy(up io.ReadWriteCloser, layers ...Layer) *Proxy {
	client, down := net.Pipe()
	p := &Proxy{up: up, down: down, client: client, pending: map[int]*exchange{}, reverse: map[int]int{},
		done: make(chan struct{})}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	p.hooks = make([]Hooks, len(layers))
	for i, l := range layers {
		p.hooks[i] = l(&Link{p: p, i: i})
	}
	p.wg.Add(2)
	go p.fromClient()
	go p.fromAdapter()
	return p
}

// Client returns the client's end of the proxy.
func (p *Proxy) Client() net.Conn { return p.client }

// Done is closed when the proxy has closed.
func (p *Proxy) Done() <-chan struct{} { return p.done }

// Close closes both streams and fails pending Calls with ErrClosed. It is
// safe to call more than once.
func (p *Proxy) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	pending := p.pending
	p.pending = map[int]*exchange{}
	p.mu.Unlock()
	close(p.done)
	p.cancel()
	err := p.up.Close()
	_ = p.down.Close()
	for _, ex := range pending {
		ex.complete(callResult{err: ErrClosed})
	}
	return err
}

// Wait waits for the proxy's goroutines, those of its layers included.
// Call it after Close.
func (p *Proxy) Wait() { p.wg.Wait() }

// Stop closes the proxy and waits for its goroutines.
func (p *Proxy) Stop() {
	_ = p.Close()
	p.Wait()
}

// readMessages decodes the messages of r and hands them to handle until
// the stream ends; frames that are not DAP messages are skipped.
func readMessages(r io.Reader, handle func(m *Message)) {
	fr := NewFrameReader(r)
	for {
		body, err := fr.ReadFrame()
		if err != nil {
			return
		}
		if m, err := Decode(body); err == nil {
			handle(m)
		}
	}
}

func (p *Proxy) fromClient() {
	defer p.wg.Done()
	defer p.Close()
	readMessages(p.down, p.clientMessage)
}

func (p *Proxy) clientMessage(m *Message) {
	switch m.Type {
	case "request":
		ex := &exchange{origin: -1, clientSeq: m.Seq, views: make([]*Request, len(p.hooks))}
		p.inward(ex, 0, m)
	case "response": // to an adapter's reverse request
		p.mu.Lock()
		seq, ok := p.reverse[m.RequestSeq]
		delete(p.reverse, m.RequestSeq)
		p.upSeq++
		m.Seq = p.upSeq
		p.mu.Unlock()
		if ok {
			m.RequestSeq = seq
			_ = p.writeUp(m)
		}
	}
}

func (p *Proxy) fromAdapter() {
	defer p.wg.Done()
	defer p.Close()
	readMessages(p.up, p.adapterMessage)
	select {
	case <-p.done:
		return
	default:
	}
	for i := len(p.hooks) - 1; i >= 0; i-- {
		if h := p.hooks[i].Ended; h != nil {
			h()
		}
	}
}

func (p *Proxy) adapterMessage(m *Message) {
	switch m.Type {
	case "response":
		p.mu.Lock()
		ex := p.pending[m.RequestSeq]
		delete(p.pending, m.RequestSeq)
		p.mu.Unlock()
		if ex != nil {
			p.outward(ex, len(p.hooks)-1, m)
		}
	case "event":
		p.emit(len(p.hooks)-1, m)
	case "request":
		p.writeDown(m, m.Seq)
	}
}

// inward passes a request through the layers from index from toward the
// adapter.
func (p *Proxy) inward(ex *exchange, from int, m *Message) {
	for i := from; i < len(p.hooks); i++ {
		r := &Request{Message: m, p: p, ex: ex, layer: i}
		p.mu.Lock()
		ex.views[i] = r
		p.mu.Unlock()
		if h := p.hooks[i].Request; h != nil && h(r) == Hold {
			return
		}
		r.setState(reqOpen, reqForwarded, "passed on")
		c := *r.Message
		m = &c
	}
	p.sendUp(ex, m)
}

// outward passes a response through the layers from index from toward
// the request's sender.
func (p *Proxy) outward(ex *exchange, from int, resp *Message) {
	for i := from; i > ex.origin; i-- {
		p.mu.Lock()
		r := ex.views[i]
		p.mu.Unlock()
		if h := p.hooks[i].Response; h != nil && h(r, resp) == Hold {
			return
		}
		r.setState(reqForwarded, reqAnswered, "answered")
		c := *resp
		resp = &c
	}
	if ex.origin < 0 {
		resp.RequestSeq = ex.clientSeq
		p.writeDown(resp, 0)
		return
	}
	ex.complete(callResult{resp: resp})
}

// emit passes an event through the layers from index from toward the
// client.
func (p *Proxy) emit(from int, ev *Message) {
	for i := from; i >= 0; i-- {
		if h := p.hooks[i].Event; h != nil && h(ev) == Hold {
			return
		}
		c := *ev
		ev = &c
	}
	p.writeDown(ev, 0)
}

func (p *Proxy) sendUp(ex *exchange, m *Message) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		ex.complete(callResult{err: ErrClosed})
		return
	}
	p.upSeq++
	ex.seq = p.upSeq
	p.pending[ex.seq] = ex
	out := *m
	out.Seq, out.Type = ex.seq, "request"
	p.mu.Unlock()
	if err := p.writeUp(&out); err != nil {
		p.mu.Lock()
		delete(p.pending, ex.seq)
		p.mu.Unlock()
		ex.complete(callResult{err: fmt.Errorf("%w: send %s: %v", ErrClosed, m.Command, err)})
	}
}

func (p *Proxy) writeUp(m *Message) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	p.upMu.Lock()
	defer p.upMu.Unlock()
	return WriteFrame(p.up, b)
}

// writeDown numbers m and sends it to the client. reverseOf, when not 0,
// is the adapter's seq of a reverse request, remembered so that the
// client's answer finds its way back.
func (p *Proxy) writeDown(m *Message, reverseOf int) {
	p.downMu.Lock()
	defer p.downMu.Unlock()
	p.downSeq++
	m.Seq = p.downSeq
	if reverseOf != 0 {
		p.mu.Lock()
		p.reverse[m.Seq] = reverseOf
		p.mu.Unlock()
	}
	b, err := json.Marshal(m)
	if err != nil {
		return
	}
	_ = WriteFrame(p.down, b) // a client that went away ends fromClient
}

// complete hands a Call its answer; other senders' answers are dropped.
func (ex *exchange) complete(r callResult) {
	if ex.reply == nil {
		return
	}
	select {
	case ex.reply <- r:
	default: // answered already (the proxy closed as the answer came)
	}
}

func (p *Proxy) newExchange(origin int, reply chan callResult) *exchange {
	return &exchange{origin: origin, reply: reply, views: make([]*Request, len(p.hooks))}
}

func (p *Proxy) isClosed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

// forget drops a Call whose caller stopped waiting; a late answer is
// dropped.
func (p *Proxy) forget(ex *exchange) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pending[ex.seq] == ex {
		delete(p.pending, ex.seq)
	}
}
