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

// takeHitConditions removes the hit conditions (and the log messages the
// layer keeps, takeLogMessages) of a setBreakpoints request, keeping them
// (one per breakpoint, zero for none) in its Note, a *bpNote. A hit
// condition that does not parse is left to lldb.
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
	note := &bpNote{hits: want}
	if s.takeLogMessages(args, note) {
		changed = true
	}
	r.Note = note
	if changed {
		r.Arguments, _ = json.Marshal(args)
	}
}

// noteHitConditions maps the answer of a setBreakpoints to the kept hit
// conditions. A breakpoint whose condition is unchanged keeps its count.
func (s *lldb) noteHitConditions(r *dap.Request, m *dap.Message) {
	note, _ := r.Note.(*bpNote)
	if note == nil {
		return
	}
	want := note.hits
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
		if i < len(note.logs) && note.logs[i] != "" {
			s.logMsgs[bp.ID] = note.logs[i]
		} else {
			delete(s.logMsgs, bp.ID)
		}
	}
}

// countHit counts a breakpoint stop. It returns the breakpoints it hit
// and those of them whose hit condition passes (all without one); ids is
// empty for any other stop.
func (s *lldb) countHit(m *dap.Message) (threadID int, ids, passing []int) {
	var body struct {
		Reason      string `json:"reason"`
		ThreadID    int    `json:"threadId"`
		Description string `json:"description"`
		HitIDs      []int  `json:"hitBreakpointIds"`
	}
	if m.DecodeBody(&body) != nil || body.Reason != "breakpoint" {
		return 0, nil, nil
	}
	ids = body.HitIDs
	if len(ids) == 0 {
		if mm := bpNumberRE.FindStringSubmatch(body.Description); mm != nil {
			n, _ := strconv.Atoi(mm[1])
			ids = []int{n}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		c, ok := s.hits[id]
		if !ok {
			passing = append(passing, id)
			continue
		}
		c.hits++
		if c.hit.Match(c.hits) {
			passing = append(passing, id)
		}
	}
	return body.ThreadID, ids, passing
}
