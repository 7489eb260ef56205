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
// skips the adapter's start-up. A process is started only after a session
// of its language started, never at server start; one idle process per
// language, at most warmMaxLanguages at once. Each idle process is
// recorded in the state directory like a session's, so the reaper of
// the next server kills it after a crash, and Shutdown kills it.

// warmMaxLanguages bounds the idle processes of a server.
const warmMaxLanguages = 4

// warmStartTimeout bounds the start of one idle process.
const warmStartTimeout = 30 * time.Second

type warmPool struct {
	m      *Manager
	ctx    context.Context // ends at Shutdown: starts under way give up
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	idle     map[string]*warmProc // by language
	starting map[string]bool
	closed   bool
}

type warmProc struct {
	key string
	ep  *adapters.Endpoint
}

func newWarmPool(m *Manager) *warmPool {
	ctx, cancel := context.WithCancel(context.Background())
	return &warmPool{m: m, ctx: ctx, cancel: cancel, idle: map[string]*warmProc{}, starting: map[string]bool{}}
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

// refill starts, in the background, the idle process of s's language for
// targets like t, unless one is there or starting.
func (p *warmPool) refill(s *Session, t adapters.Target) {
	a := s.adapter
	w, ok := a.(adapters.Warm)
	if p == nil || !ok {
		return
	}
	lang := a.Language()
	p.mu.Lock()
	if p.closed || p.starting[lang] || p.idle[lang] != nil || (len(p.idle)+len(p.starting) >= warmMaxLanguages) {
		p.mu.Unlock()
		return
	}
	p.starting[lang] = true
	p.wg.Add(1)
	p.mu.Unlock()
	go func() {
		defer p.wg.Done()
		ep := p.launch(a, w, t)
		p.mu.Lock()
		delete(p.starting, lang)
		if ep != nil && !p.closed && p.idle[lang] == nil {
			p.idle[lang] = &warmProc{key: ep.key, ep: ep.ep}
			ep = nil
		}
		p.mu.Unlock()
		if ep != nil {
			p.discard(ep.ep)
			p.m.removeRecord(warmRecord(lang))
		}
	}()
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
