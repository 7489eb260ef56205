package cobol

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/dbg-dev/dbg/adapters/bpcond"
	"github.com/dbg-dev/dbg/dap"
)

// Breakpoint conditions and log messages in COBOL terms. LLDB would
// evaluate "WS-I = 3" or "{WS-TOTAL}" as C and fail, so for breakpoints
// in COBOL source the proxy keeps them itself: LLDB gets a plain line
// breakpoint, and at each stop there the proxy evaluates the condition
// ([ParseCond]) on the decoded data items, counts hits for the hit
// condition, prints the log message, and resumes or reports the stop.

// cobBP is a COBOL breakpoint the proxy decides about.
type cobBP struct {
	cond    *Cond  // nil: no condition
	condErr error  // the condition did not parse: never stops
	hit     string // DAP hit condition ("3", ">=2", "%2")
	log     string // log message with {WS-NAME} parts
	hits    int
}

// bpRequest is what the layer keeps of a setBreakpoints on its way to
// LLDB (the request's Note).
type bpRequest struct {
	path  string
	specs []*cobBP // per breakpoint, nil when LLDB handles it
}

// interceptBreakpoints takes conditions, hit conditions (with a
// condition) and log messages out of a setBreakpoints for COBOL source
// and returns the request to send to LLDB.
func (p *layer) interceptBreakpoints(r *dap.Request) {
	var args map[string]any
	if err := r.DecodeBody(&args); err != nil {
		return
	}
	src, _ := args["source"].(map[string]any)
	path, _ := src["path"].(string)
	if !p.isCOBOL(path) {
		return
	}
	list, _ := args["breakpoints"].([]any)
	req := bpRequest{path: filepath.Clean(path), specs: make([]*cobBP, len(list))}
	for i, raw := range list {
		bp, ok := raw.(map[string]any)
		if !ok {
			continue
		}
		cond, _ := bp["condition"].(string)
		hit, _ := bp["hitCondition"].(string)
		logMsg, _ := bp["logMessage"].(string)
		if strings.TrimSpace(cond) == "" && logMsg == "" {
			continue // LLDB counts a bare hit condition itself
		}
		spec := &cobBP{hit: hit, log: logMsg}
		if strings.TrimSpace(cond) != "" {
			spec.cond, spec.condErr = ParseCond(cond, func(name string) bool {
				_, ok := Lookup(p.prog.Fields, name)
				return ok
			})
		}
		req.specs[i] = spec
		delete(bp, "condition")
		delete(bp, "hitCondition")
		delete(bp, "logMessage")
	}
	r.Note = req
	r.Arguments, _ = json.Marshal(args)
}

// noteBreakpoints maps LLDB's breakpoint ids to the specs of a
// setBreakpoints answer, and marks breakpoints whose condition did not
// parse as unverified with the reason. It reports whether it changed m.
func (p *layer) noteBreakpoints(r *dap.Request, m *dap.Message) bool {
	req, ok := r.Note.(bpRequest)
	if !ok || !m.OK() {
		return false
	}
	var body struct {
		Breakpoints []map[string]any `json:"breakpoints"`
	}
	if err := m.DecodeBody(&body); err != nil {
		return false
	}
	changed := false
	p.mu.Lock()
	for _, id := range p.bpByPath[req.path] {
		delete(p.bpSpecs, id)
	}
	var ids []int
	for i, bp := range body.Breakpoints {
		if i >= len(req.specs) || req.specs[i] == nil {
			continue
		}
		id, ok := bp["id"].(float64)
		if !ok {
			continue
		}
		p.bpSpecs[int(id)] = req.specs[i]
		ids = append(ids, int(id))
		if err := req.specs[i].condErr; err != nil {
			bp["verified"] = false
			bp["message"] = "condition: " + err.Error()
			changed = true
		}
	}
	p.bpByPath[req.path] = ids
	p.mu.Unlock()
	if changed {
		m.Body, _ = json.Marshal(body)
	}
	return changed
}

// conditionStop decides a breakpoint stop at a COBOL breakpoint the
// proxy keeps. It returns true when it took the event over.
func (p *layer) conditionStop(m *dap.Message) bool {
	var body struct {
		Reason      string `json:"reason"`
		Description string `json:"description"`
		ThreadID    int    `json:"threadId"`
		HitIDs      []int  `json:"hitBreakpointIds"`
	}
	if err := m.DecodeBody(&body); err != nil || body.Reason != "breakpoint" {
		return false
	}
	ids := body.HitIDs
	if mm := bpNumberRE.FindStringSubmatch(body.Description); mm != nil {
		n, _ := strconv.Atoi(mm[1])
		ids = append(ids, n)
	}
	var spec *cobBP
	p.mu.Lock()
	for _, id := range ids {
		if s := p.bpSpecs[id]; s != nil {
			spec = s
			break
		}
	}
	p.mu.Unlock()
	if spec == nil {
		return false
	}
	p.link.Go(func() { p.decideStop(m, body.ThreadID, spec) })
	return true
}

// decideStop reports or resumes a stop at spec's breakpoint.
func (p *layer) decideStop(m *dap.Message, thread int, spec *cobBP) {
	ctx, cancel := context.WithTimeout(p.link.Context(), readTimeout)
	defer cancel()
	resume := func() { _, _ = p.link.Call(ctx, "continue", map[string]any{"threadId": thread}) }
	if spec.condErr != nil {
		resume()
		return
	}
	if spec.cond != nil {
		values, err := p.values(ctx, spec.cond.Names)
		ok := false
		if err == nil {
			ok, err = spec.cond.Eval(values)
		}
		if err != nil {
			p.link.Event("output", map[string]any{"category": "console", "output": fmt.Sprintf("breakpoint condition: %v\n", err)})
			p.link.Send(m) // cannot decide: show the stop
			return
		}
		if !ok {
			resume()
			return
		}
	}
	p.mu.Lock()
	spec.hits++
	hits := spec.hits
	p.mu.Unlock()
	if h, err := bpcond.ParseHit(spec.hit); err == nil && !h.Match(hits) {
		resume() // (a hit condition that does not parse always stops)
		return
	}
	if spec.log != "" {
		p.link.Event("output", map[string]any{"category": "console", "output": p.interpolate(ctx, spec.log) + "\n"})
		resume()
		return
	}
	p.link.Send(m)
}

// values reads and decodes the named data items.
func (p *layer) values(ctx context.Context, names []string) (map[string]string, error) {
	out := map[string]string{}
	recs := map[string][]byte{}
	for _, n := range names {
		f, ok := Lookup(p.prog.Fields, n)
		if !ok {
			return nil, fmt.Errorf("no data item %s", n)
		}
		data, ok := recs[f.Storage]
		if !ok {
			var err error
			if data, err = p.read(ctx, 0, f.Storage, p.record(f).Size); err != nil {
				return nil, err
			}
			recs[f.Storage] = data
		}
		out[n] = p.describe(f, 0, data).Value
	}
	return out, nil
}

// interpolate replaces each {WS-NAME} of a log message by the item's
// value; other {...} parts stay as written.
func (p *layer) interpolate(ctx context.Context, msg string) string {
	var b strings.Builder
	for _, part := range bpcond.SplitLog(msg) {
		if !part.Expr {
			b.WriteString(part.Text)
			continue
		}
		name := strings.ToUpper(strings.TrimSpace(part.Text))
		if v, err := p.values(ctx, []string{name}); err == nil {
			b.WriteString(v[name])
		} else {
			b.WriteString("{" + part.Text + "}")
		}
	}
	return b.String()
}
