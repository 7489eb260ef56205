package native

import (
	"encoding/json"
	"strconv"

	"github.com/dbg-dev/dbg/adapters/bpcond"
	"github.com/dbg-dev/dbg/dap"
)

// Hit conditions. lldb reads a hit condition as an ignore count (stop on
// the 3rd hit and every one after) and ignores any other form, so the
// layer takes hit conditions out of setBreakpoints, counts the stops of
// each breakpoint itself and resumes those its condition rules out
// ([bpcond.Hit]).

// hitCount is a breakpoint's hit condition and its hits so far.
type hitCount struct {
	hit  bpcond.Hit
	hits int
}

// takeHitConditions removes the hit conditions of a setBreakpoints
// request, keeping them (one per breakpoint, zero for none) as its Note.
// A hit condition that does not parse is left to lldb.
func (s *lldb) takeHitConditions(r *dap.Request) {
	var args map[string]any
	if err := json.Unmarshal(r.Arguments, &args); err != nil {
		return
	}
	list, _ := args["breakpoints"].([]any)
	want := make([]bpcond.Hit, len(list))
	changed := false
	for i, b := range list {
		bp, _ := b.(map[string]any)
		hc, _ := bp["hitCondition"].(string)
		if h, err := bpcond.ParseHit(hc); err == nil && !h.IsZero() {
			want[i] = h
			delete(bp, "hitCondition")
			changed = true
		}
	}
	r.Note = want
	if changed {
		r.Arguments, _ = json.Marshal(args)
	}
}

// noteHitConditions maps the answer of a setBreakpoints to the kept hit
// conditions. A breakpoint whose condition is unchanged keeps its count.
func (s *lldb) noteHitConditions(r *dap.Request, m *dap.Message) {
	want, _ := r.Note.([]bpcond.Hit)
	var body struct {
		Breakpoints []struct {
			ID int `json:"id"`
		} `json:"breakpoints"`
	}
	if m.DecodeBody(&body) != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, bp := range body.Breakpoints {
		if i >= len(want) || bp.ID == 0 {
			continue
		}
		if !want[i].IsZero() {
			if c, ok := s.hits[bp.ID]; !ok || c.hit != want[i] {
				s.hits[bp.ID] = &hitCount{hit: want[i]}
			}
		} else {
			delete(s.hits, bp.ID)
		}
	}
}

// skipHit counts a breakpoint stop and reports whether it must not stop:
// every breakpoint it hit has a hit condition and none passes.
func (s *lldb) skipHit(m *dap.Message) (threadID int, skip bool) {
	var body struct {
		Reason      string `json:"reason"`
		ThreadID    int    `json:"threadId"`
		Description string `json:"description"`
		HitIDs      []int  `json:"hitBreakpointIds"`
	}
	if m.DecodeBody(&body) != nil || body.Reason != "breakpoint" {
		return 0, false
	}
	ids := body.HitIDs
	if len(ids) == 0 {
		if mm := bpNumberRE.FindStringSubmatch(body.Description); mm != nil {
			n, _ := strconv.Atoi(mm[1])
			ids = []int{n}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(ids) == 0 || len(s.hits) == 0 {
		return 0, false
	}
	skip = true
	for _, id := range ids {
		c, ok := s.hits[id]
		if !ok {
			skip = false
			continue
		}
		c.hits++
		if c.hit.Match(c.hits) {
			skip = false
		}
	}
	return body.ThreadID, skip
}
