package dap

import (
	"context"
	"fmt"
)

// Verdict is a hook's decision about a message.
type Verdict int

const (
	// Pass sends the message, as the hook may have rewritten it, on its way.
	Pass Verdict = iota
	// Hold keeps the message in the layer. A held request must be
	// answered ([Request.Respond], [Request.Reply]) or passed on
	// ([Request.Forward]) later, exactly once; a held response is sent on
	// with [Request.Reply] or never; a held event is sent with
	// [Link.Send] or dropped.
	Hold
)

// Hooks are one layer's behaviour. A nil hook passes everything.
//
// Concurrency: Request runs on the goroutine that sends the request: the
// client reader for the client's requests, or the goroutine of an outer
// layer's Call or Forward. It may block, and may make Calls (their answers
// arrive on the adapter reader), but while it blocks later requests from
// the same source wait. Response and Event run on the adapter reader (or
// on the goroutine of an inner layer's Reply or Send); they must not wait
// for a Call, whose answer that goroutine would deliver: they start a
// goroutine with [Link.Go] for that. Post, Event and Send may be used from
// any hook. Ended runs on the adapter reader once the adapter's stream has
// ended (not when the proxy was closed first); it may block until
// [Link.Done], and the proxy closes when it returns.
//
// Hooks may rewrite the message they are given in place (replace its
// Arguments or Body rather than editing their bytes): each layer gets its
// own copy of the envelope.
type Hooks struct {
	Request  func(r *Request) Verdict
	Response func(r *Request, resp *Message) Verdict
	Event    func(ev *Message) Verdict
	Ended    func()
}

// Layer builds a layer's hooks. It is called once by NewProxy, before any
// message moves, with the layer's link.
type Layer func(l *Link) Hooks

// Link is a layer's handle on its proxy. Its methods are safe for
// concurrent use.
type Link struct {
	p *Proxy
	i int // the layer's index
}

// Request is a request on its way to the adapter as one layer sees it:
// the embedded Message is the layer's own copy, which its Request hook
// may rewrite. Its Response hook gets the same Request back with the
// answer.
type Request struct {
	*Message
	// Note is the layer's own, kept with the request until its answer
	// (for example what the Request hook took out of the arguments).
	Note any

	p     *Proxy
	ex    *exchange
	layer int
	state reqState // guarded by p.mu
}

type reqState int

const (
	reqOpen      reqState = iota // with its layer
	reqForwarded                 // passed on; the answer comes back
	reqAnswered                  // its answer went on toward the sender
)

// setState moves r from one state to the next; any other move is a bug
// in a layer, which fails loudly.
func (r *Request) setState(from, to reqState, what string) {
	r.p.mu.Lock()
	defer r.p.mu.Unlock()
	if r.state != from && !(to == reqAnswered && r.state == reqOpen) {
		panic(fmt.Sprintf("dap: proxy layer %d: request %s %s twice", r.layer, r.Command, what))
	}
	r.state = to
}

// Forward passes a held request on toward the adapter.
func (r *Request) Forward() {
	r.setState(reqOpen, reqForwarded, "passed on")
	c := *r.Message
	r.p.inward(r.ex, r.layer+1, &c)
}

// Reply sends resp as the answer to r toward its sender: a response the
// layer held, or one it made.
func (r *Request) Reply(resp *Message) {
	r.setState(reqForwarded, reqAnswered, "answered")
	resp.Type = "response"
	if resp.Command == "" {
		resp.Command = r.Command
	}
	if resp.Success == nil {
		resp.Success = boolPtr(true)
	}
	r.p.outward(r.ex, r.layer-1, resp)
}

// Respond answers r from the layer: with body, or with err as a failed
// response whose text is shown to the user.
func (r *Request) Respond(body any, err error) {
	resp := &Message{Type: "response", Command: r.Command, Success: boolPtr(err == nil)}
	if err != nil {
		resp.Message = err.Error()
		body = errorBody(err.Error())
	}
	if body != nil {
		resp.Body = mustMarshal(body)
	}
	r.Reply(resp)
}

// Call sends a request of the layer's own through the layers inside it to
// the adapter, and waits for the answer, at most until ctx ends (or
// DefaultTimeout when ctx has no deadline). A response with success=false
// is a *ResponseError; a closed proxy gives ErrClosed.
func (l *Link) Call(ctx context.Context, command string, args any) (*Message, error) {
	m, err := newRequest(command, args)
	if err != nil {
		return nil, err
	}
	ex := l.p.newExchange(l.i, make(chan callResult, 1))
	if l.p.isClosed() {
		return nil, ErrClosed
	}
	l.p.inward(ex, l.i+1, m)
	ctx, cancel := withDefaultDeadline(ctx, DefaultTimeout)
	defer cancel()
	select {
	case r := <-ex.reply:
		if r.err != nil {
			return nil, r.err
		}
		if !r.resp.OK() {
			return r.resp, newResponseError(command, r.resp)
		}
		return r.resp, nil
	case <-ctx.Done():
		l.p.forget(ex)
		return nil, deadlineError(ctx, command)
	case <-l.p.done:
		return nil, ErrClosed
	}
}

// Post sends a request of the layer's own, like Call, without waiting;
// its answer is dropped.
func (l *Link) Post(command string, args any) error {
	m, err := newRequest(command, args)
	if err != nil {
		return err
	}
	if l.p.isClosed() {
		return ErrClosed
	}
	l.p.inward(l.p.newExchange(l.i, nil), l.i+1, m)
	return nil
}

// Event sends an event of the layer's own toward the client, through the
// layers outside it.
func (l *Link) Event(name string, body any) {
	ev := &Message{Type: "event", Event: name}
	if body != nil {
		ev.Body = mustMarshal(body)
	}
	l.p.emit(l.i-1, ev)
}

// Send sends an event the layer held (or made) toward the client,
// through the layers outside it.
func (l *Link) Send(ev *Message) {
	ev.Type = "event"
	l.p.emit(l.i-1, ev)
}

// Go runs f on a goroutine of the proxy's, which Wait waits for. After
// Close it does nothing.
func (l *Link) Go(f func()) {
	p := l.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		f()
	}()
}

// Done is closed when the proxy has closed.
func (l *Link) Done() <-chan struct{} { return l.p.done }

// Context returns a context that ends when the proxy closes, the parent
// of the layer's own Calls.
func (l *Link) Context() context.Context { return l.p.ctx }

// Close closes the proxy.
func (l *Link) Close() { _ = l.p.Close() }
