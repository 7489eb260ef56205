package console

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/sessions"
)

// currentFile is the file of the selected frame, or of the last stop.
func (p *prompt) currentFile() string {
	if f := p.selected(); f != nil && f.File != "" {
		return f.File
	}
	if p.stop != nil && p.stop.Location != nil {
		return p.stop.Location.File
	}
	return ""
}

func (p *prompt) cmdBreak(arg string) error  { return p.breakSpec(arg, false) }
func (p *prompt) cmdTBreak(arg string) error { return p.breakSpec(arg, true) }

func (p *prompt) breakSpec(arg string, temp bool) error {
	args, err := BreakArgs(arg, p.currentFile())
	if err != nil {
		return err
	}
	return p.setBreak(args, temp)
}

// setBreak sets a breakpoint and says where it went.
func (p *prompt) setBreak(args map[string]any, temp bool) error {
	args["sessionId"] = p.id
	var bp sessions.Breakpoint
	raw, err := p.tools.Call(p.ctx, "set_breakpoint", args, &bp)
	if err != nil {
		return err
	}
	if temp {
		p.temps[bp.ID] = true
	}
	return p.show(raw, func() { p.printf("%s\n", p.describeBreak(bp, temp)) })
}

// describeBreak is a breakpoint on one line.
func (p *prompt) describeBreak(bp sessions.Breakpoint, temp bool) string {
	kind := "breakpoint"
	if temp {
		kind = "temporary breakpoint"
	}
	where := bp.Function
	if bp.File != "" {
		line := bp.Line
		if bp.ActualLine != 0 {
			line = bp.ActualLine
		}
		where = p.paint.loc(fmt.Sprintf("%s:%d", bp.File, line))
		if bp.ActualLine != 0 && bp.ActualLine != bp.Line {
			where += fmt.Sprintf(" (moved from line %d)", bp.Line)
		}
	}
	s := fmt.Sprintf("%s %d at %s", kind, bp.ID, where)
	if bp.Condition != "" {
		s += " if " + bp.Condition
	}
	switch {
	case !bp.Verified && strings.HasPrefix(bp.Message, "pending"):
		s += " (" + bp.Message + ")"
	case !bp.Verified && bp.Message != "":
		s += " (pending: " + bp.Message + ")"
	case !bp.Verified:
		s += " (pending)"
	}
	if bp.LineText != "" {
		s += "\n    " + strings.TrimSpace(bp.LineText)
	}
	return s
}

func (p *prompt) cmdWatch(arg string) error {
	if arg == "" {
		return fmt.Errorf("usage: watch EXPR")
	}
	args := map[string]any{"sessionId": p.id, "expression": arg, "accessType": "write"}
	if f := p.selected(); f != nil {
		args["frameId"] = f.ID
	}
	raw, err := p.tools.Call(p.ctx, "set_data_breakpoint", args, nil)
	if err == nil {
		err = p.show(raw, func() { p.printf("watchpoint on %s: %s\n", arg, iostreams.CompactJSON(raw)) })
	}
	if err != nil && strings.Contains(err.Error(), "unknown tool") {
		return fmt.Errorf("watch needs the set_data_breakpoint tool, which this dbg does not have")
	}
	return err
}

func (p *prompt) cmdDelete(arg string) error {
	if arg == "" {
		return p.call("clear_breakpoints", p.sid(), nil, func() { p.printf("deleted every breakpoint\n") })
	}
	for _, f := range strings.Fields(arg) {
		n, err := strconv.Atoi(f)
		if err != nil {
			return fmt.Errorf("usage: delete [N...] (N from breakpoints)")
		}
		if err := p.call("remove_breakpoint", map[string]any{"sessionId": p.id, "breakpointId": n}, nil, func() {
			delete(p.temps, n)
			p.printf("deleted breakpoint %d\n", n)
		}); err != nil {
			return err
		}
	}
	return nil
}

func (p *prompt) cmdBreakpoints(string) error {
	var out struct{ Breakpoints []sessions.Breakpoint }
	return p.call("list_breakpoints", p.sid(), &out, func() {
		if len(out.Breakpoints) == 0 {
			p.printf("no breakpoints\n")
		}
		for _, bp := range out.Breakpoints {
			p.printf("%s\n", p.describeBreak(bp, p.temps[bp.ID]))
		}
	})
}

// dropTemps removes the temporary breakpoints the stop hit.
func (p *prompt) dropTemps(st *sessions.StopInfo) {
	if st == nil {
		return
	}
	for _, id := range st.HitBreakpoint {
		if p.temps[id] {
			delete(p.temps, id)
			_, _ = p.tools.Call(p.ctx, "remove_breakpoint", map[string]any{"sessionId": p.id, "breakpointId": id}, nil)
		}
	}
}
