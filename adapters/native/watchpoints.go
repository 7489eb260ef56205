package native

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/adapters/bpcond"
	"github.com/dbg-dev/dbg/dap"
)

// Data breakpoints. lldb-vscode 16 has no dataBreakpointInfo or
// setDataBreakpoints, but lldb watches memory: the layer answers both
// requests itself through lldb's commands (the adapter's "`" escape in
// evaluate), and reports a watchpoint's stop (lldb: reason "breakpoint",
// description "watchpoint N") as reason "data breakpoint".
//
//   - dataBreakpointInfo runs `watchpoint set variable` on the name in the
//     stopped frame to learn the address and size it watches, and
//     deletes it again: the dataId is "addr/size/name", so the watch does
//     not depend on the frame it was set from;
//   - setDataBreakpoints deletes the layer's watchpoints and sets one per
//     entry with `watchpoint set expression -w TYPE -s SIZE -- ADDR`,
//     with `watchpoint modify -c` for a condition; hit conditions are
//     counted by the layer, like those of breakpoints.

// watchState is the layer's data breakpoints; guarded by mu.
type watchState struct {
	mu   sync.Mutex
	byNo map[int]*lldbWatch // LLDB watchpoint number → watch
	next int                // the DAP ids the layer gives
}

type lldbWatch struct {
	id, number int
	name       string
	hit        bpcond.Hit
	hits       int
}

// watchCreatedRE reads `watchpoint set` output: "Watchpoint created:
// Watchpoint 1: addr = 0x7ffe3d1c size = 4 state = enabled type = w".
var watchCreatedRE = regexp.MustCompile(`Watchpoint (\d+): addr = (0x[0-9a-fA-F]+) size = (\d+)`)

// watchStopRE reads a watchpoint's stop description: "watchpoint 1".
var watchStopRE = regexp.MustCompile(`(?i)^\W*watchpoint (\d+)`)

// variablePathRE is a name lldb's `watchpoint set variable` reads: a
// variable with fields and indexes (p.x, a[2], s->n).
var variablePathRE = regexp.MustCompile(`^[A-Za-z_$][\w$]*((\.|->)[A-Za-z_$][\w$]*|\[\d+\])*$`)

func (s *lldb) watchState() *watchState {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.watches == nil {
		s.watches = &watchState{byNo: map[int]*lldbWatch{}}
	}
	return s.watches
}

// dataBreakpoints answers dataBreakpointInfo and setDataBreakpoints
// from the layer. It runs on the client's goroutine (a Request hook),
// which may wait for Calls.
func (s *lldb) dataBreakpoints(r *dap.Request) dap.Verdict {
	ctx, cancel := context.WithTimeout(s.link.Context(), dap.DefaultTimeout)
	defer cancel()
	if r.Command == "dataBreakpointInfo" {
		r.Respond(s.dataBreakpointInfo(ctx, r))
		return dap.Hold
	}
	r.Respond(s.setDataBreakpoints(ctx, r))
	return dap.Hold
}

func (s *lldb) dataBreakpointInfo(ctx context.Context, r *dap.Request) (any, error) {
	var a struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(r.Arguments, &a); err != nil {
		return nil, err
	}
	name := strings.TrimSpace(a.Name)
	refuse := func(why string) (any, error) { return map[string]any{"dataId": nil, "description": why}, nil }
	if !variablePathRE.MatchString(name) {
		return refuse(fmt.Sprintf("%q is not a variable, field or element lldb can watch", name))
	}
	out, err := s.command(ctx, "watchpoint set variable -w write -- "+name)
	if err != nil {
		return nil, err
	}
	m := watchCreatedRE.FindStringSubmatch(out)
	if m == nil {
		return refuse(strings.TrimSpace(firstLine(out)))
	}
	_, _ = s.command(ctx, "watchpoint delete "+m[1])
	return map[string]any{"dataId": m[2] + "/" + m[3] + "/" + name, "description": name,
		"accessTypes": []string{"write", "read", "readWrite"}, "canPersist": false}, nil
}

func (s *lldb) setDataBreakpoints(ctx context.Context, r *dap.Request) (any, error) {
	var a godap.SetDataBreakpointsArguments
	if err := json.Unmarshal(r.Arguments, &a); err != nil {
		return nil, err
	}
	ws := s.watchState()
	ws.mu.Lock()
	old := ws.byNo
	ws.byNo = map[int]*lldbWatch{}
	ws.mu.Unlock()
	for n := range old {
		_, _ = s.command(ctx, fmt.Sprintf("watchpoint delete %d", n))
	}
	out := []map[string]any{}
	for _, b := range a.Breakpoints {
		ws.mu.Lock()
		ws.next++
		id := ws.next
		ws.mu.Unlock()
		w, err := s.setWatch(ctx, id, b.DataId, string(b.AccessType), b.Condition, b.HitCondition)
		if err != nil {
			out = append(out, map[string]any{"id": id, "verified": false, "message": err.Error()})
			continue
		}
		ws.mu.Lock()
		ws.byNo[w.number] = w
		ws.mu.Unlock()
		out = append(out, map[string]any{"id": id, "verified": true, "description": w.name})
	}
	return map[string]any{"breakpoints": out}, nil
}

// setWatch sets one LLDB watchpoint.
func (s *lldb) setWatch(ctx context.Context, id int, dataID, access, cond, hitCond string) (*lldbWatch, error) {
	parts := strings.SplitN(dataID, "/", 3)
	if len(parts) != 3 {
		return nil, fmt.Errorf("unknown dataId %q", dataID)
	}
	hit, err := bpcond.ParseHit(hitCond)
	if err != nil {
		return nil, err
	}
	kind := map[string]string{"": "write", "write": "write", "read": "read", "readWrite": "read_write"}[access]
	if kind == "" {
		return nil, fmt.Errorf("unknown accessType %q", access)
	}
	out, err := s.command(ctx, fmt.Sprintf("watchpoint set expression -w %s -s %s -- %s", kind, parts[1], parts[0]))
	if err != nil {
		return nil, err
	}
	m := watchCreatedRE.FindStringSubmatch(out)
	if m == nil {
		return nil, errors.New("lldb: " + strings.TrimSpace(firstLine(out)))
	}
	n, _ := strconv.Atoi(m[1])
	if cond != "" {
		if _, err := s.command(ctx, fmt.Sprintf("watchpoint modify -c '%s' %d", strings.ReplaceAll(cond, "'", `'\''`), n)); err != nil {
			return nil, err
		}
	}
	return &lldbWatch{id: id, number: n, name: parts[2], hit: hit}, nil
}

// announceDataBreakpoints adds supportsDataBreakpoints to the
// capabilities of an initialize answer.
func announceDataBreakpoints(m *dap.Message) {
	var caps map[string]any
	if len(m.Body) > 0 && m.DecodeBody(&caps) != nil {
		return
	}
	if caps == nil {
		caps = map[string]any{}
	}
	caps["supportsDataBreakpoints"] = true
	m.Body, _ = json.Marshal(caps)
}

// watchStop turns a watchpoint's stop into a "data breakpoint" one,
// naming the watch. It reports whether the stop is a watchpoint's, and
// whether the watch's hit condition rules it out (the layer then resumes
// the thread).
func (s *lldb) watchStop(m *dap.Message) (watch, skip bool, threadID int) {
	var peek struct {
		Description string `json:"description"`
	}
	if m.DecodeBody(&peek) == nil && !watchStopRE.MatchString(peek.Description) {
		return false, false, 0 // no watchpoint's stop: the body needs no map
	}
	var body map[string]any
	if m.DecodeBody(&body) != nil {
		return false, false, 0
	}
	d, _ := body["description"].(string)
	mm := watchStopRE.FindStringSubmatch(d)
	if mm == nil {
		return false, false, 0
	}
	n, _ := strconv.Atoi(mm[1])
	ws := s.watchState()
	ws.mu.Lock()
	w := ws.byNo[n]
	if w != nil {
		w.hits++
	}
	ws.mu.Unlock()
	tid, _ := body["threadId"].(float64)
	if w != nil && !w.hit.Match(w.hits) {
		return true, true, int(tid)
	}
	body["reason"] = "data breakpoint"
	if w != nil {
		body["hitBreakpointIds"] = []int{w.id}
		body["description"] = "data breakpoint on " + w.name
	}
	m.Body, _ = json.Marshal(body)
	return true, false, 0
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
