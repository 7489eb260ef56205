package sessiontools

import (
	"encoding/json"
	"time"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

// How answers are formatted (docs/contract.md, "What an agent can afford
// and trust"). sessions builds a stop's answer once (sessions.Stop: the
// stop, its source lines, changed); the tools here only format it. By
// default answers are compact: they leave out fields equal to their
// defaults (a variablesReference of 0, an evaluateName equal to the name,
// column 1, empty change lists), fields an earlier answer of the session
// gave (the language, the resources after create, the interpreter after
// the first answer that had it), and messages that repeat the location or
// the reason. A stop answer stays whole: the location, 5 source lines,
// changed and the reason. The server's --compact=false keeps every field,
// as the types below encode them by themselves.

// compactSourceContext is how many lines around the stop a compact stop
// answer shows on each side: 5 lines in all.
const compactSourceContext = 2

// stopOut is the answer of a call that runs the program or waits for it.
type stopOut struct {
	sessions.Stop
	compact bool
}

// allOut is the answer of continue_execution and pause_execution: one
// session's, or every session's with all.
type allOut struct {
	*stopOut
	Sessions []stopOut `json:"sessions,omitempty"`
}

func (o allOut) MarshalJSON() ([]byte, error) {
	if o.stopOut != nil {
		return o.stopOut.MarshalJSON()
	}
	return toolkit.Marshal(struct {
		Sessions []stopOut `json:"sessions,omitempty"`
	}{o.Sessions})
}

// newStopOut formats r.
func newStopOut(r *sessions.Stop, compact bool) stopOut { return stopOut{Stop: *r, compact: compact} }

func (o stopOut) MarshalJSON() ([]byte, error) {
	if !o.compact {
		return toolkit.Marshal(o.Stop)
	}
	type plain sessions.Stop
	p := plain(o.Stop)
	if p.LastStop != nil && p.Message == sessions.StopMessage(p.LastStop) || p.Pending && p.Message == sessions.RunningMessage {
		p.Message = "" // a copy of the location, or of pending's meaning
	}
	stop, source := compactStop(o.LastStop, o.Source)
	return toolkit.Marshal(struct {
		plain
		LastStop    *compactStopInfo `json:"lastStop,omitempty"`
		Source      *compactSource   `json:"source,omitempty"`
		Changed     any              `json:"changed,omitempty"`
		ChangedNote string           `json:"changedNote,omitempty"`
	}{p, stop, source, compactChanges(o.Changed), compactNote(o.Changed, o.ChangedNote)})
}

// compactStopInfo is a stop without its time (the envelope's timestamp
// tells it).
type compactStopInfo struct {
	sessions.StopInfo
	Time *time.Time `json:"time,omitempty"`
}

// compactStop is a stop and its source in the compact form: no time, the
// location without column 1 and without the text the source shows, 5
// source lines as texts after the first's number.
func compactStop(ls *sessions.StopInfo, source []sessions.SourceLine) (*compactStopInfo, *compactSource) {
	if ls == nil {
		return nil, nil
	}
	c := &compactStopInfo{StopInfo: *ls}
	l := ls.Location
	if l == nil {
		return c, nil
	}
	loc := compactLocation(*l)
	src := around(source, l.Line, compactSourceContext)
	if src != nil {
		loc.Text = "" // the source shows it
	}
	c.Location = &loc
	return c, src
}

// compactLocation leaves out column 1 (or 0): the line's start.
func compactLocation(l sessions.Location) sessions.Location {
	if l.Column <= 1 {
		l.Column = 0
	}
	return l
}

// compactSource is a stop's source lines in the compact form: the number
// of the first and the texts (the location's line is the current one).
type compactSource struct {
	First int      `json:"first"`
	Lines []string `json:"lines"`
}

// around keeps the lines of source within n lines of line, as a
// compactSource (nil when none is left).
func around(source []sessions.SourceLine, line, n int) *compactSource {
	var out *compactSource
	for _, l := range source {
		if l.Line < line-n || l.Line > line+n {
			continue
		}
		if out == nil {
			out = &compactSource{First: l.Line}
		}
		out.Lines = append(out.Lines, l.Text)
	}
	return out
}

// compactChanges is changed without its empty lists; a first stop's is
// null, and no changes (none asked for) leave it out.
func compactChanges(c *sessions.Changes) any {
	switch {
	case c == nil:
		return nil
	case c.First():
		return json.RawMessage("null")
	}
	return struct {
		Values     []sessions.ValueChange `json:"values,omitempty"`
		New        []sessions.NamedValue  `json:"new,omitempty"`
		Gone       []string               `json:"gone,omitempty"`
		Unchanged  int                    `json:"unchanged"`
		Truncation *sessions.Truncation   `json:"truncation,omitempty"`
	}{c.Values, c.New, c.Gone, c.Unchanged, c.Truncation}
}

// compactNote is the changed note, unless it only says that this is the
// frame's first stop (changed: null says it).
func compactNote(c *sessions.Changes, note string) string {
	if c.First() && note == sessions.FirstStopNote {
		return ""
	}
	return note
}

func (o sessionOut) MarshalJSON() ([]byte, error) {
	type plain sessionOut
	if !o.compact {
		return toolkit.Marshal(plain(o))
	}
	p := plain(o)
	if p.Name == p.SessionID {
		p.Name = ""
	}
	switch {
	case p.State == sessions.StateCreated:
		p.Message = "" // the tool's description says what comes next
	case !o.created:
		p.Mode = "" // the agent launched or attached
		if o.named {
			p.SessionID = "" // the agent named it
		}
	}
	if p.LastStop != nil && p.Message == "stopped: "+p.LastStop.Reason {
		p.Message = "" // the reason says it
	}
	stop, source := compactStop(p.LastStop, p.Source)
	return toolkit.Marshal(struct {
		plain
		SessionID   string           `json:"sessionId,omitempty"`
		Name        string           `json:"name,omitempty"`
		Language    string           `json:"language,omitempty"`
		LastStop    *compactStopInfo `json:"lastStop,omitempty"`
		Source      *compactSource   `json:"source,omitempty"`
		Changed     any              `json:"changed,omitempty"`
		ChangedNote string           `json:"changedNote,omitempty"`
	}{p, p.SessionID, p.Name, p.Language, stop, source, compactChanges(p.Changed), compactNote(p.Changed, p.ChangedNote)})
}

// compactVariable is a variable without its defaults: no
// variablesReference of 0 (nothing to expand), no evaluateName equal to
// the name.
type compactVariable struct {
	sessions.Variable
	VariablesReference int    `json:"variablesReference,omitempty"`
	EvaluateName       string `json:"evaluateName,omitempty"`
}

// compactVariables formats vars compactly.
func compactVariables(vars []sessions.Variable) []compactVariable {
	out := make([]compactVariable, len(vars))
	for i, v := range vars {
		out[i] = compactVariable{Variable: v, VariablesReference: v.VariablesReference, EvaluateName: v.EvaluateName}
		if v.EvaluateName == v.Name {
			out[i].EvaluateName = ""
		}
	}
	return out
}

func (o localsOut) MarshalJSON() ([]byte, error) {
	type plain localsOut
	if !o.compact {
		return toolkit.Marshal(plain(o))
	}
	var loc *sessions.Location
	if o.Location != nil && !o.atStop {
		l := compactLocation(*o.Location)
		loc = &l
	}
	return toolkit.Marshal(struct {
		plain
		Variables []compactVariable  `json:"variables"`
		Location  *sessions.Location `json:"location,omitempty"`
	}{plain(o), compactVariables(o.Variables), loc})
}

func (o variablesOut) MarshalJSON() ([]byte, error) {
	type plain variablesOut
	if !o.compact {
		return toolkit.Marshal(plain(o))
	}
	return toolkit.Marshal(struct {
		plain
		Variables []compactVariable `json:"variables"`
	}{plain(o), compactVariables(o.Variables)})
}

// evalOut is an evaluation's answer; compact, without a
// variablesReference of 0.
type evalOut struct {
	sessions.EvalResult
	compact bool
}

func (o evalOut) MarshalJSON() ([]byte, error) {
	if !o.compact {
		return toolkit.Marshal(o.EvalResult)
	}
	return toolkit.Marshal(struct {
		sessions.EvalResult
		VariablesReference int `json:"variablesReference,omitempty"`
	}{o.EvalResult, o.VariablesReference})
}

func (o stackOut) MarshalJSON() ([]byte, error) {
	type plain stackOut
	if !o.compact {
		return toolkit.Marshal(plain(o))
	}
	frames := make([]sessions.Frame, len(o.StackFrames))
	for i, f := range o.StackFrames {
		if f.Column <= 1 {
			f.Column = 0
		}
		frames[i] = f
	}
	p := plain(o)
	p.StackFrames = frames
	if p.TotalFrames == len(frames) {
		p.TotalFrames = 0
	}
	return toolkit.Marshal(p)
}

func (o breakpointOut) MarshalJSON() ([]byte, error) {
	if !o.compact {
		type plain breakpointOut
		return toolkit.Marshal(plain(o))
	}
	bp := o.Breakpoint // without the session: the agent named it
	if !bp.Verified && bp.Message == sessions.PendingMessage {
		bp.Message = "pending"
	}
	return toolkit.Marshal(bp)
}

func (o okOut) MarshalJSON() ([]byte, error) {
	type plain okOut
	p := plain(o)
	if o.compact {
		p.SessionID = "" // the agent named it
	}
	return toolkit.Marshal(p)
}
