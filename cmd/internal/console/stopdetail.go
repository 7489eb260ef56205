package console

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/textcut"
)

// Bounds of the one-line summaries printed at a stop.
const (
	changedItems = 6  // changed locals named before "… N more"
	valueRunes   = 40 // runes of a value before "…"
)

// printData prints a data breakpoint's stop in one line: the watched
// expression, its old and new values, and the frame that wrote it, e.g.
// "watchpoint 2: counter 1 → 5 (in bump at watch.c:10)".
func (p *prompt) printData(d *sessions.DataChange) {
	line := "watchpoint"
	if d.BreakpointID != 0 {
		line += fmt.Sprintf(" %d", d.BreakpointID)
	}
	line += ": " + d.Expression
	switch {
	case d.Old != nil && d.New != nil:
		line += " " + clip(*d.Old) + " → " + clip(*d.New)
	case d.New != nil:
		line += " ? → " + clip(*d.New)
	case d.Old != nil:
		line += " was " + clip(*d.Old)
	}
	if d.AccessType != "" && d.AccessType != "write" {
		line += " (" + d.AccessType + ")"
	}
	if f := d.Frame; f != nil && f.File != "" {
		where := fmt.Sprintf("%s:%d", filepath.Base(f.File), f.Line)
		if f.Function != "" {
			line += " (in " + p.paint.fn(f.Function) + " at " + p.paint.loc(where) + ")"
		} else {
			line += " (at " + p.paint.loc(where) + ")"
		}
	}
	p.printf("  %s\n", line)
}

// printChanged prints, in one bounded line, which of the top frame's
// locals changed since its previous stop: "changed: count 1 → 2,
// +extra = 22, -gone". Nothing on a frame's first stop or when nothing
// changed.
func (p *prompt) printChanged(c *sessions.Changes) {
	if c == nil {
		return
	}
	var items []string
	for _, v := range c.Values {
		items = append(items, v.Name+" "+clip(v.Old)+" → "+clip(v.New))
	}
	for _, v := range c.New {
		items = append(items, "+"+v.Name+" = "+clip(v.Value))
	}
	for _, g := range c.Gone {
		items = append(items, "-"+g)
	}
	if len(items) == 0 {
		return
	}
	more := ""
	if len(items) > changedItems {
		more = fmt.Sprintf(", … %d more", len(items)-changedItems)
		items = items[:changedItems]
	}
	p.printf("  changed: %s%s\n", strings.Join(items, ", "), more)
}

// clip shortens a value to one line of at most valueRunes runes.
func clip(v string) string { return textcut.Runes(textcut.Line(v), valueRunes) }
