package sessions

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	godap "github.com/google/go-dap"

	"github.com/dbg-dev/dbg/adapters/bpcond"
	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/toolkit"
)

// DataBreakpointSpec is a data breakpoint (watchpoint) to set.
type DataBreakpointSpec struct {
	Expression         string
	Name               string // with VariablesReference, instead of Expression
	FrameID            int
	VariablesReference int
	AccessType         string // write (default), read, readWrite
	Condition          string
	HitCondition       string
}

// DataChange is what a data breakpoint's stop says: the watched
// expression, its value before and after the access, and the frame that
// made it.
type DataChange struct {
	BreakpointID int       `json:"breakpointId,omitempty"`
	Expression   string    `json:"expression"`
	AccessType   string    `json:"accessType,omitempty"`
	Old          *string   `json:"old,omitempty"` // absent when not known
	New          *string   `json:"new,omitempty"`
	Frame        *Location `json:"frame,omitempty"` // the writing (or reading) frame
}

// DataValues is what an adapter may add to a "data breakpoint" stopped
// event as "dbgData" when it knows the values (a JDWP modification event
// carries the value to be written); without it dbg reads the new value
// at the stop and takes the old one from the previous reading.
type DataValues struct {
	Expression string  `json:"expression,omitempty"`
	Old        *string `json:"old,omitempty"`
	New        *string `json:"new,omitempty"`
}

// DataStopReason is the stop reason of a data breakpoint.
const DataStopReason = "data breakpoint"

// dataSet holds a session's data breakpoints. Guarded by the session's mu.
type dataSet struct {
	items []*dataBreakpoint
}

type dataBreakpoint struct {
	bp     Breakpoint
	dataID string
	last   *string    // the value last read
	at     *heldFrame // the frame the expression was set in, when known
}

func (d *dataSet) list() []Breakpoint {
	var out []Breakpoint
	for _, db := range d.items {
		out = append(out, db.bp)
	}
	return out
}

// SetDataBreakpoint sets a data breakpoint through the adapter's
// dataBreakpointInfo and setDataBreakpoints. The session must be paused:
// the expression is resolved in a frame.
func (s *Session) SetDataBreakpoint(ctx context.Context, spec DataBreakpointSpec) (Breakpoint, error) {
	if err := s.snapshotError("stop at a watchpoint"); err != nil {
		return Breakpoint{}, err
	}
	if spec.AccessType == "" {
		spec.AccessType = "write"
	}
	// What the adapter can do comes first: no argument makes an
	// adapter that cannot watch able to.
	s.mu.Lock()
	supported, started := s.caps.SupportsDataBreakpoints, s.conn != nil
	s.mu.Unlock()
	if !started {
		return Breakpoint{}, toolkit.NewError(toolkit.CodeInvalidState, "session "+s.id+" has not started", "start it and stop where the variable is in scope, then set the data breakpoint")
	}
	if !supported {
		return Breakpoint{}, toolkit.NewError(toolkit.CodeUnsupported, "data breakpoints are not supported here: "+s.noDataBreakpointsWhy(),
			"use a conditional breakpoint or a trace (add_trace) on the lines that write it")
	}
	switch spec.AccessType {
	case "write", "read", "readWrite":
	default:
		return Breakpoint{}, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("accessType %q is not write, read or readWrite", toolkit.Clip(spec.AccessType)), "pass write, read or readWrite").WithOptions("write", "read", "readWrite")
	}
	// A name without variablesReference is an expression of the frame.
	expr := strings.TrimSpace(spec.Expression)
	if expr == "" {
		expr = strings.TrimSpace(spec.Name)
	}
	if expr == "" {
		return Breakpoint{}, toolkit.NewError(toolkit.CodeInvalidArgument, "expression or name is required", "pass expression (a global, obj.field, Class.field) or name, alone or with variablesReference")
	}
	if _, err := bpcond.ParseHit(spec.HitCondition); err != nil {
		return Breakpoint{}, toolkit.NewError(toolkit.CodeInvalidArgument, err.Error(), "use N, >= N, > N, < N, <= N or % N").Wrap(err)
	}
	if err := s.requireStopped(); err != nil {
		return Breakpoint{}, err
	}
	frameID := spec.FrameID
	if frameID == 0 && spec.VariablesReference == 0 {
		var err error
		if frameID, err = s.topFrameID(ctx, 0); err != nil {
			return Breakpoint{}, err
		}
	}
	var info godap.DataBreakpointInfoResponseBody
	args := godap.DataBreakpointInfoArguments{Name: expr, FrameId: frameID, VariablesReference: spec.VariablesReference}
	if spec.VariablesReference > 0 {
		args.Name, args.FrameId = strings.TrimSpace(spec.Name), 0
		if args.Name == "" {
			args.Name = expr
		}
	}
	if err := s.request(ctx, "dataBreakpointInfo", args, &info); err != nil {
		return Breakpoint{}, evalError(expr, err)
	}
	dataID := dataIDString(info.DataId)
	if dataID == "" {
		msg := info.Description
		if msg == "" {
			msg = "the adapter cannot watch it"
		}
		return Breakpoint{}, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("cannot watch %q: %s", toolkit.Clip(expr), msg), "watch a variable or field in scope of the current frame")
	}
	if len(info.AccessTypes) > 0 && !hasAccessType(info.AccessTypes, spec.AccessType) {
		var opts []string
		for _, a := range info.AccessTypes {
			opts = append(opts, string(a))
		}
		return Breakpoint{}, toolkit.NewError(toolkit.CodeUnsupported, fmt.Sprintf("the adapter watches %q only for %s", toolkit.Clip(expr), strings.Join(opts, ", ")), "pass one of those accessTypes").WithOptions(opts...)
	}
	db := &dataBreakpoint{dataID: dataID, bp: Breakpoint{Kind: "data", Expression: expr, AccessType: spec.AccessType,
		Condition: spec.Condition, HitCondition: spec.HitCondition}}
	if spec.VariablesReference == 0 {
		if r, err := s.Evaluate(ctx, expr, frameID, EvalWatch); err == nil {
			v := r.Result
			db.last = &v
		}
		db.at = s.frameOf(ctx, frameID)
	}
	s.mu.Lock()
	s.bps.next++
	db.bp.ID = s.bps.next
	s.bps.data.items = append(s.bps.data.items, db)
	s.mu.Unlock()
	if err := s.syncData(ctx); err != nil {
		s.mu.Lock()
		s.bps.data.remove(db.bp.ID)
		s.mu.Unlock()
		return Breakpoint{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return db.bp, nil
}

func hasAccessType(list []godap.DataBreakpointAccessType, want string) bool {
	for _, a := range list {
		if string(a) == want {
			return true
		}
	}
	return false
}

// dataIDString reads a dataId: a string, or null when none.
func dataIDString(v any) string {
	switch id := v.(type) {
	case string:
		return id
	case nil:
		return ""
	default:
		b, _ := json.Marshal(id)
		return string(b)
	}
}

// syncData sends every data breakpoint (setDataBreakpoints replaces the
// whole set) and records the adapter's answer.
func (s *Session) syncData(ctx context.Context) error {
	defer s.syncLock("data")()
	s.mu.Lock()
	list := append([]*dataBreakpoint(nil), s.bps.data.items...)
	s.mu.Unlock()
	dbs := []godap.DataBreakpoint{}
	for _, db := range list {
		dbs = append(dbs, godap.DataBreakpoint{DataId: db.dataID, AccessType: godap.DataBreakpointAccessType(db.bp.AccessType),
			Condition: db.bp.Condition, HitCondition: db.bp.HitCondition})
	}
	var body godap.SetDataBreakpointsResponseBody
	if err := s.request(ctx, "setDataBreakpoints", godap.SetDataBreakpointsArguments{Breakpoints: dbs}, &body); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, db := range list {
		if i < len(body.Breakpoints) {
			ab := body.Breakpoints[i]
			db.bp.adapterID, db.bp.Verified, db.bp.Message = ab.Id, ab.Verified, ab.Message
			if !ab.Verified && db.bp.Message == "" {
				db.bp.Message = "not verified by the adapter"
			}
		}
	}
	return nil
}

func (d *dataSet) remove(id int) bool {
	for i, db := range d.items {
		if db.bp.ID == id {
			d.items = append(d.items[:i:i], d.items[i+1:]...)
			return true
		}
	}
	return false
}

// removeDataBreakpoint removes the data breakpoint id; it reports whether
// id named one.
func (s *Session) removeDataBreakpoint(ctx context.Context, id int) (bool, error) {
	s.mu.Lock()
	found := s.bps.data.remove(id)
	live := s.conn != nil && s.state != StateTerminated
	s.mu.Unlock()
	if !found || !live {
		return found, nil
	}
	return true, s.syncData(ctx)
}

// dataStop reports whether a stopped event is a data breakpoint's; its
// values are then read on a background goroutine before the stop is
// recorded, so the stop answer carries them.
func (s *Session) dataStop(b godap.StoppedEventBody, m *dap.Message) bool {
	if s.adapter.StopReason(b.Reason) != DataStopReason && b.Reason != DataStopReason {
		return false
	}
	var extra struct {
		Data *DataValues `json:"dbgData"`
	}
	_ = m.DecodeBody(&extra)
	s.background(func() { s.recordDataStop(b, extra.Data) })
	return true
}

// recordDataStop fills in what changed and records the stop.
func (s *Session) recordDataStop(b godap.StoppedEventBody, given *DataValues) {
	ctx, cancel := context.WithTimeout(s.life, s.m.cfg.RequestTimeout)
	defer cancel()
	b.Reason = DataStopReason
	s.mu.Lock()
	var db *dataBreakpoint
	for _, d := range s.bps.data.items {
		for _, aid := range b.HitBreakpointIds {
			if d.bp.adapterID == aid {
				db = d
			}
		}
	}
	if db == nil && len(s.bps.data.items) == 1 {
		db = s.bps.data.items[0]
	}
	s.mu.Unlock()
	ch := &DataChange{}
	var st godap.StackTraceResponseBody
	if err := s.request(ctx, "stackTrace", godap.StackTraceArguments{ThreadId: b.ThreadId, Levels: 20}, &st); err == nil {
		if f := firstUserFrame(st.StackFrames); f != nil {
			ch.Frame = s.frameLocation(*f)
			if db != nil && (given == nil || given.New == nil) && db.bp.AccessType == "write" {
				ch.New = s.readWatched(ctx, db, f.Id)
			}
		}
	}
	s.mu.Lock()
	if db != nil {
		ch.BreakpointID, ch.Expression, ch.AccessType = db.bp.ID, db.bp.Expression, db.bp.AccessType
		ch.Old = db.last
		if given != nil {
			if given.Old != nil {
				ch.Old = given.Old
			}
			if given.New != nil {
				ch.New = given.New
			}
		}
		if ch.New != nil {
			db.last = ch.New
		}
	} else if given != nil {
		ch.Expression, ch.Old, ch.New = given.Expression, given.Old, given.New
	}
	s.mu.Unlock()
	if b.Description == "" || strings.HasPrefix(b.Description, "watchpoint") {
		b.Description = ch.summary()
	}
	s.recordStopWith(b, ch)
}

// summary is "expr: old → new" with what is known.
func (c *DataChange) summary() string {
	show := func(v *string) string {
		if v == nil {
			return "?"
		}
		return *v
	}
	if c.New == nil && c.Old == nil {
		return "data breakpoint on " + c.Expression
	}
	return fmt.Sprintf("%s: %s → %s", c.Expression, show(c.Old), show(c.New))
}
