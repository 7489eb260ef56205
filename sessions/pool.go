package sessions

import (
	"context"
	"sync"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/proc"
)

// The warm pool keeps one idle adapter process per language this server
// has used (debugpy's adapter, delve, lldb-dap: the adapters that
// implement [adapters.Warm]), so that the next session of the language
// skips the adapter's start-up. It pays for itself only when a next
// session comes, so an idle process is started
//
//   - when a session of the language ends (close): the next one, the
//     usual second session of an agent, finds it, or joins its start
//     when it comes sooner than that;
//   - when a session starts while another of its language is open: the
//     language is used in parallel.
//
// A single session never runs beside an idle adapter, and an idle process
// nobody took within [Config.WarmIdle] (default [DefaultWarmIdle]) is
// stopped. One idle process per language, at most warmMaxLanguages at
// once. Each idle process is recorded in the state directory like a
// session's, so the reaper of the next server kills it after a crash,
// and Shutdown kills it.

// warmMaxLanguages bounds the idle processes of a server.
const warmMaxLanguages = 4

// warmStartTimeout bounds the start of one idle process.
const warmStartTimeout = 30 * time.Second

// DefaultWarmIdle is how long an idle adapter waits for a session before
// it is stopped.
const DefaultWarmIdle = 5 * time.Minute

type warmPool struct {
	m       *Manager
	idleFor time.Duration
	ctx     context.Context // ends at Shutdown: starts under way give up
	cancel  context.CancelFunc
	wg      sync.WaitGroup

	mu       sync.Mutex
	idle     map[string]*warmProc     // by language
	starting map[string]chan struct{} // by language: closed when the start ends
	serving  map[string]warmUse       // by session id: the sessions the pool started for
	closed   bool
}

type warmProc struct {
	key   string
	ep    *adapters.Endpoint
	timer *time.Timer // stops it after idleFor
}

// warmUse is a session whose adapter the pool started: what starts the
// next idle process of its language when it ends.
type warmUse struct {
	adapter adapters.Adapter
	target  adapters.Target
}

func newWarmPool(m *Manager, idleFor time.Duration) *warmPool {
	if idleFor <= 0 {
		idleFor = DefaultWarmIdle
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &warmPool{m: m, idleFor: idleFor, ctx: ctx, cancel: cancel,
		idle: map[string]*warmProc{}, starting: map[string]chan struct{}{}, serving: map[string]warmUse{}}
}

// warmRecord is the key of an idle process's record for the reaper.
func warmRecord(lang string) string { return "warm-" + lang }

// start starts the adapter of session s for t: the idle process of the
// language when it serves t, else a new one.
func (p *warmPool) start(ctx context.Context, s *Session, t adapters.Target) (*adapters.Endpoint, error) {
	a := s.adapter
	w, ok := a.(adapters.Warm)
	if p == nil || !ok {
		return a.Start(ctx, t)
	}
	key, ok := w.WarmKey(ctx, t)
	if !ok {
		return a.Start(ctx, t)
	}
	p.awaitStart(ctx, a.Language())
	if ep := p.take(a.Language(), key); ep != nil {
		if err := w.Adopt(ctx, ep, t); err == nil {
			// The session's record names the process before the pool's
			// record goes: a crash in between still reaps it.
			_ = p.m.writeRecord(s.id, []int{ep.Process.Pid()})
			p.m.removeRecord(warmRecord(a.Language()))
			return ep, nil
		}
		p.discard(ep)
		p.m.removeRecord(warmRecord(a.Language()))
	}
	return a.Start(ctx, t)
}

// awaitStart waits for the idle process of lang being started, if one
// is: it started before this session asked, so it is ready sooner than
// a new one.
func (p *warmPool) awaitStart(ctx context.Context, lang string) {
	p.mu.Lock()
	done := p.starting[lang]
	p.mu.Unlock()
	if done == nil {
		return
	}
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// started notes that session s runs an adapter for t, and starts the
// idle process of its language when another session of the language is
// open (the language is used in parallel).
func (p *warmPool) started(s *Session, t adapters.Target) {
	if _, ok := s.adapter.(adapters.Warm); p == nil || !ok {
		return
	}
	lang := s.adapter.Language()
	p.mu.Lock()
	parallel := false
	for id, u := range p.serving {
		parallel = parallel || (id != s.id && u.adapter.Language() == lang)
	}
	p.serving[s.id] = warmUse{adapter: s.adapter, target: t}
	p.mu.Unlock()
	if parallel {
		p.refill(s.adapter, t)
	}
}

// ended notes that session s closed, and starts the idle process of its
// language for the next session.
func (p *warmPool) ended(s *Session) {
	if p == nil {
		return
	}
	p.mu.Lock()
	u, ok := p.serving[s.id]
	delete(p.serving, s.id)
	p.mu.Unlock()
	if ok {
		p.refill(u.adapter, u.target)
	}
}

// take hands out the idle process of lang when it was started for key
// and still runs; a dead or unfit one is stopped.
func (p *warmPool) take(lang, key string) *adapters.Endpoint {
	p.mu.Lock()
	w := p.idle[lang]
	delete(p.idle, lang)
	p.mu.Unlock()
	if w == nil {
		return nil
	}
	w.timer.Stop()
	select {
	case <-w.ep.Process.Exited():
		p.discard(w.ep)
		p.m.removeRecord(warmRecord(lang))
		return nil
	default:
	}
	if w.key != key {
		p.discard(w.ep)
		p.m.removeRecord(warmRecord(lang))
		return nil
	}
	return w.ep
}

// refill starts, in the background, the idle process of a's language
// for targets like t, unless one is there or starting.
func (p *warmPool) refill(a adapters.Adapter, t adapters.Target) {
	w, ok := a.(adapters.Warm)
	if p == nil || !ok {
		return
	}
	lang := a.Language()
	p.mu.Lock()
	if p.closed || p.starting[lang] != nil || p.idle[lang] != nil || (len(p.idle)+len(p.starting) >= warmMaxLanguages) {
		p.mu.Unlock()
		return
	}
	done := make(chan struct{})
	p.starting[lang] = done
	p.wg.Add(1)
	p.mu.Unlock()
	go func() {
		defer p.wg.Done()
		ep := p.launch(a, w, t)
		p.mu.Lock()
		delete(p.starting, lang)
		close(done)
		if ep != nil && !p.closed && p.idle[lang] == nil {
			wp := ep
			wp.timer = time.AfterFunc(p.idleFor, func() { p.expire(lang, wp) })
			p.idle[lang] = wp
			ep = nil
		}
		p.mu.Unlock()
		if ep != nil {
			p.discard(ep.ep)
			p.m.removeRecord(warmRecord(lang))
		}
	}()
}

// expire stops the idle process w of lang when no session took it.
func (p *warmPool) expire(lang string, w *warmProc) {
	p.mu.Lock()
	mine := p.idle[lang] == w
	if mine {
		delete(p.idle, lang)
	}
	p.mu.Unlock()
	if mine {
		p.discard(w.ep)
		p.m.removeRecord(warmRecord(lang))
	}
}

// launch starts one idle process and records it; nil when the adapter
// cannot start one that waits (no process, or it failed).
func (p *warmPool) launch(a adapters.Adapter, w adapters.Warm, t adapters.Target) *warmProc {
	ctx, cancel := context.WithTimeout(p.ctx, warmStartTimeout)
	defer cancel()
	key, ok := w.WarmKey(ctx, t)
	if !ok {
		return nil
	}
	ep, err := a.Start(ctx, t)
	if err != nil {
		return nil
	}
	if ep.Process == nil {
		ep.Close(ctx)
		return nil
	}
	if err := p.m.writeRecord(warmRecord(a.Language()), []int{ep.Process.Pid()}); err != nil {
		p.m.warnf("an idle %s adapter: %v; it is not kept", a.Language(), err)
		ep.Close(ctx)
		return nil
	}
	return &warmProc{key: key, ep: ep}
}

// discard stops an idle process and what it started. An idle adapter
// holds no program and no state: it is killed, not asked to stop.
func (p *warmPool) discard(ep *adapters.Endpoint) {
	var kids []int
	if ep.Process != nil {
		kids = proc.Descendants(ep.Process.Pid())
		ep.Process.Kill()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ep.Close(ctx)
	proc.KillAll(kids)
}

// stopRefills makes refill start nothing more: the server shuts down.
func (p *warmPool) stopRefills() {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
}

// close stops every idle process and those being started, and removes
// their records.
func (p *warmPool) close() {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.closed = true
	idle := p.idle
	p.idle = map[string]*warmProc{}
	p.mu.Unlock()
	p.cancel()
	p.wg.Wait()
	for lang, w := range idle {
		w.timer.Stop()
		p.discard(w.ep)
		p.m.removeRecord(warmRecord(lang))
	}
}

// WarmPIDs lists the idle adapter processes the pool holds, by language.
func (m *Manager) WarmPIDs() map[string]int {
	out := map[string]int{}
	if m.pool == nil {
		return out
	}
	m.pool.mu.Lock()
	defer m.pool.mu.Unlock()
	for lang, w := range m.pool.idle {
		out[lang] = w.ep.Process.Pid()
	}
	return out
}

// Warm reports whether the server keeps processes ready for the next
// session (the warm pool is on); other capabilities that keep such
// processes follow it.
func (m *Manager) Warm() bool { return m.pool != nil }
