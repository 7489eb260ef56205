package sessions

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/dap"
)

// Markers of the logpoint messages dbg sends: a trace probe's values (in
// the format of the records a probe condition writes), and a user's
// logpoint text. The adapter prints them as given; dbg takes them out of
// the program's output.
const (
	traceMarker = adapters.ProbeMarker
	logMarker   = "\x1edbglog\x1f"
	traceSep    = adapters.ProbeSep
)

// adapterPrefix is what an adapter puts before a logpoint's message
// (delve: "> [Go 1]: "); it goes with the message.
var adapterPrefix = regexp.MustCompile(`> \[Go \d+\]: $`)

// logMessage is the logpoint message of a log-mode probe.
func (p *traceProbe) logMessage() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s.%d", traceMarker, p.trace.id, p.index)
	for _, e := range p.spec.Expressions {
		b.WriteString(traceSep + "{" + e + "}")
	}
	return b.String()
}

// wireLogMessage is the logMessage sent for bp: a probe's own, or a
// user's marked so that its output is told apart from the program's.
func wireLogMessage(bp *Breakpoint) string {
	if bp.probe != nil || bp.LogMessage == "" {
		return bp.LogMessage
	}
	return logMarker + bp.LogMessage
}

// traceStop runs on the DAP read goroutine for every stopped event. It
// reports whether the stop belongs to stop-mode probes only; their hits
// are then read and the program continued on a background goroutine,
// and the stop never shows.
func (s *Session) traceStop(b godap.StoppedEventBody) bool {
	s.mu.Lock()
	ts := s.bps.traces
	if ts == nil || len(ts.traces) == 0 && len(ts.retired) == 0 || s.state == StateTerminated {
		s.mu.Unlock()
		return false
	}
	if r := s.adapter.StopReason(b.Reason); r != "breakpoint" && r != "function breakpoint" {
		s.mu.Unlock()
		return false
	}
	var probes []*traceProbe
	for _, aid := range b.HitBreakpointIds {
		bp := s.bps.byAdapterID(aid)
		switch {
		case bp != nil && bp.probe != nil:
			probes = append(probes, bp.probe)
		case bp == nil && ts.retired[aid]:
			// A probe removed while the program ran: nothing to count.
		default:
			s.mu.Unlock()
			return false // a user's breakpoint too: a real stop
		}
	}
	if len(b.HitBreakpointIds) == 0 && !ts.anyStopProbe() {
		s.mu.Unlock()
		return false
	}
	at := s.m.cfg.Now()
	s.mu.Unlock()
	s.background(func() { s.traceHit(b, probes, at) })
	return true
}

func (ts *traceSet) anyStopProbe() bool {
	for _, t := range ts.traces {
		for _, p := range t.probes {
			if !p.logMode && !p.done {
				return true
			}
		}
	}
	return false
}

// traceHit reads one stop-mode hit and continues the program. probes are
// the probes the adapter named; none: the stop is matched by place, and a
// stop at no probe is delivered as the real stop it is.
func (s *Session) traceHit(b godap.StoppedEventBody, probes []*traceProbe, at time.Time) {
	s.mu.Lock()
	ts := s.bps.traces
	s.mu.Unlock()
	ts.hitMu.Lock()
	defer ts.hitMu.Unlock()
	ctx, cancel := context.WithTimeout(s.life, s.m.cfg.RequestTimeout)
	defer cancel()
	c, err := s.connection()
	if err != nil {
		return
	}
	s.mu.Lock()
	depth := 1
	for _, p := range s.liveProbesLocked() {
		if len(p.stacks) < p.trace.stacks {
			depth = traceStackDepth
		}
	}
	s.mu.Unlock()
	var st godap.StackTraceResponseBody
	if resp, err := c.Request(ctx, "stackTrace", godap.StackTraceArguments{ThreadId: b.ThreadId, Levels: depth}); err == nil {
		_ = resp.DecodeBody(&st)
	}
	top := firstUserFrame(st.StackFrames)
	if len(b.HitBreakpointIds) == 0 {
		probes = s.probesAt(top)
		if len(probes) == 0 {
			s.recordStop(b)
			return
		}
	}
	frameID := 0
	if top != nil {
		frameID = top.Id
	}
	var resync []*traceProbe
	for _, p := range probes {
		s.mu.Lock()
		skip := p.done
		if skip {
			p.ignored++
		}
		s.mu.Unlock()
		if skip {
			continue
		}
		vals := evalTraceValues(ctx, c, p.spec.Expressions, frameID)
		s.mu.Lock()
		if p.record(vals, at, b.ThreadId) {
			resync = append(resync, p)
		}
		if len(p.stacks) < p.trace.stacks {
			p.stacks = append(p.stacks, traceFrames(st.StackFrames))
		}
		if len(p.stacks) >= p.trace.stacks && !p.logMode && s.toRecordModeLocked(p) {
			resync = append(resync, p)
		}
		s.mu.Unlock()
	}
	s.resyncProbes(ctx, resync)
	if _, err := c.Request(ctx, "continue", godap.ContinueArguments{ThreadId: b.ThreadId}); err != nil {
		// The program stays stopped: say so rather than hide it.
		s.recordStop(b)
	}
}

// resyncProbes sends the breakpoints of probes that changed mode or ended
// (they end by leaving the set).
func (s *Session) resyncProbes(ctx context.Context, probes []*traceProbe) {
	if len(probes) == 0 {
		return
	}
	files, funcs := map[string]bool{}, false
	s.mu.Lock()
	var gone []*traceProbe
	for _, p := range probes {
		if p.bp.File != "" {
			files[p.bp.File] = true
		} else {
			funcs = true
		}
		if p.done {
			gone = append(gone, p)
		}
	}
	s.dropProbesLocked(gone)
	s.mu.Unlock()
	_ = s.syncProbes(ctx, files, funcs)
}

// evalTraceValues reads the expressions in a frame, all at once: the
// program waits for one round trip, not one per expression.
func evalTraceValues(ctx context.Context, c *dap.Conn, exprs []string, frameID int) []traceValue {
	vals := make([]traceValue, len(exprs))
	if len(exprs) == 1 {
		vals[0] = evalTraceValue(ctx, c, exprs[0], frameID)
		return vals
	}
	var wg sync.WaitGroup
	for i, e := range exprs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			vals[i] = evalTraceValue(ctx, c, e, frameID)
		}()
	}
	wg.Wait()
	return vals
}

// evalTraceValue reads one expression in a frame.
func evalTraceValue(ctx context.Context, c *dap.Conn, expr string, frameID int) traceValue {
	resp, err := c.Request(ctx, "evaluate", godap.EvaluateArguments{Expression: expr, FrameId: frameID, Context: "watch"})
	if err != nil {
		return traceValue{err: err.Error()}
	}
	var body godap.EvaluateResponseBody
	if err := resp.DecodeBody(&body); err != nil {
		return traceValue{err: err.Error()}
	}
	v, _ := capValue(body.Result)
	return traceValue{value: v}
}

// record counts a hit of p. It reports whether the probe just reached its
// maxHits (its breakpoint must then go). Callers hold the session's mu.
func (p *traceProbe) record(vals []traceValue, at time.Time, thread int) bool {
	if p.done {
		p.ignored++
		return false
	}
	p.hits++
	if p.hits == 1 {
		p.first = at
	}
	p.last = at
	for i := range p.exprs {
		if i < len(vals) {
			p.exprs[i].add(vals[i], p.trace.distinct)
		}
	}
	t := p.trace
	hit := TraceHit{Probe: p.index, Seq: p.hits, Time: at, Thread: thread, Values: make([]string, len(vals))}
	for i, v := range vals {
		hit.Values[i] = unquote(v.value)
		if v.err != "" {
			hit.Values[i] = "<error: " + v.err + ">"
		}
	}
	if len(t.buf) >= t.bufCap {
		t.buf = append(t.buf[:0], t.buf[1:]...)
		t.dropped++
	}
	t.buf = append(t.buf, hit)
	if p.spec.MaxHits > 0 && p.hits >= p.spec.MaxHits {
		p.done = true
		p.doneNote = fmt.Sprintf("reached maxHits (%d); the probe was removed", p.spec.MaxHits)
		return true
	}
	return false
}

func traceFrames(frames []godap.StackFrame) []TraceFrame {
	out := make([]TraceFrame, 0, len(frames))
	for _, f := range frames {
		tf := TraceFrame{Function: f.Name, Line: f.Line}
		if f.Source != nil {
			tf.File = f.Source.Path
		}
		out = append(out, tf)
	}
	return out
}

// liveProbesLocked lists the probes still counting.
func (s *Session) liveProbesLocked() []*traceProbe {
	var out []*traceProbe
	if s.bps.traces == nil {
		return nil
	}
	for _, t := range s.bps.traces.traces {
		for _, p := range t.probes {
			if !p.done {
				out = append(out, p)
			}
		}
	}
	return out
}

// probesAt returns the stop-mode probes at a frame's place.
func (s *Session) probesAt(f *godap.StackFrame) []*traceProbe {
	if f == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*traceProbe
	for _, p := range s.liveProbesLocked() {
		if p.logMode {
			continue
		}
		if p.bp.File != "" && f.Source != nil && sameFile(p.bp.File, f.Source.Path) && (f.Line == p.bp.Line || f.Line == p.bp.ActualLine) {
			out = append(out, p)
		}
		if p.bp.Function != "" && strings.Contains(f.Name, p.bp.Function) {
			out = append(out, p)
		}
	}
	return out
}

// writeOutput routes one output event: probe lines to their trace, user
// logpoint lines whole to console, the rest to the output ring as sent.
// It runs on the DAP read goroutine.
func (s *Session) writeOutput(cat, text string) {
	s.mu.Lock()
	ts := s.bps.traceSet()
	pend := ts.pend[cat]
	if pend == "" && !strings.Contains(text, "\x1e") {
		s.mu.Unlock()
		s.output.Write(cat, text)
		return
	}
	text = pend + text
	delete(ts.pend, cat)
	var plain, logs strings.Builder
	now := s.m.cfg.Now()
	var ended []*traceProbe
	for text != "" {
		line, rest, complete := strings.Cut(text, "\n")
		if !complete {
			if strings.Contains(line, "\x1e") {
				if ts.pend == nil {
					ts.pend = map[string]string{}
				}
				ts.pend[cat] = line // a marked line not yet ended
			} else {
				plain.WriteString(line)
			}
			break
		}
		text = rest
		i := strings.Index(line, "\x1e")
		switch {
		case i >= 0 && strings.HasPrefix(line[i:], traceMarker):
			plain.WriteString(adapterPrefix.ReplaceAllString(line[:i], ""))
			if p := s.traceLineLocked(strings.TrimSuffix(line[i+len(traceMarker):], "\r"), now); p != nil {
				ended = append(ended, p)
			}
		case i >= 0 && strings.HasPrefix(line[i:], logMarker):
			plain.WriteString(adapterPrefix.ReplaceAllString(line[:i], ""))
			logs.WriteString(line[i+len(logMarker):] + "\n")
		default:
			plain.WriteString(line + "\n")
		}
	}
	s.mu.Unlock()
	if len(ended) > 0 {
		// maxHits reached while the program runs: the probes left the set
		// at once; the adapter hears of it soon after, and hits in between
		// are not counted.
		s.background(func() {
			ctx, cancel := context.WithTimeout(s.life, s.m.cfg.RequestTimeout)
			defer cancel()
			s.resyncProbes(ctx, ended)
		})
	}
	if plain.Len() > 0 {
		s.output.Write(cat, plain.String())
	}
	if logs.Len() > 0 {
		s.output.WriteWhole("console", logs.String())
	}
}

// traceLineLocked records one log-mode hit: "t1.2\x1fv1\x1fv2". It
// returns the probe when the hit was its last (maxHits).
func (s *Session) traceLineLocked(line string, at time.Time) *traceProbe {
	key, vals, _ := strings.Cut(line, traceSep)
	tid, idx, ok := strings.Cut(key, ".")
	if !ok {
		return nil
	}
	t := s.bps.traces.traces[tid]
	if t == nil {
		return nil
	}
	var p *traceProbe
	for _, q := range t.probes {
		if fmt.Sprint(q.index) == idx {
			p = q
		}
	}
	if p == nil {
		return nil
	}
	var readings []traceValue
	if len(p.spec.Expressions) > 0 {
		parts := strings.SplitN(vals, traceSep, len(p.spec.Expressions))
		for _, v := range parts {
			if msg, bad := strings.CutPrefix(v, traceErrorMark); bad {
				readings = append(readings, traceValue{err: msg})
				continue
			}
			readings = append(readings, traceValue{value: v})
		}
	}
	if p.record(readings, at, 0) {
		s.dropProbesLocked([]*traceProbe{p})
		return p
	}
	return nil
}
