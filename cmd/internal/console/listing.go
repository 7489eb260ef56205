package console

import (
	"fmt"
	"strings"

	"github.com/dbg-dev/dbg/sessions"
)

func (p *prompt) cmdList(arg string) error {
	file, line := p.currentFile(), 0
	if f := p.selected(); f != nil && f.File != "" {
		line = f.Line
	} else if p.stop != nil && p.stop.Location != nil {
		line = p.stop.Location.Line
	}
	if arg != "" {
		var ok bool
		if file, line, ok = FileLine(arg, file); !ok {
			return fmt.Errorf("usage: list [LINE | FILE:LINE]")
		}
	}
	if file == "" || line == 0 {
		return fmt.Errorf("no current source line; pass FILE:LINE")
	}
	mark := 0
	if f := p.selected(); f != nil && f.File == file {
		mark = f.Line
	} else if p.stop != nil && p.stop.Location != nil && p.stop.Location.File == file {
		mark = p.stop.Location.Line
	}
	return p.listAround(file, line, 5, mark)
}

// listAround prints ctx lines either side of line in file, mark marked.
func (p *prompt) listAround(file string, line, ctx, mark int) error {
	var out struct {
		File  string                `json:"file"`
		Lines []sessions.SourceLine `json:"lines"`
	}
	return p.call("get_source_context", map[string]any{"sessionId": p.id, "file": file, "line": line, "linesContext": ctx}, &out, func() {
		p.printSource(out.Lines, mark)
	})
}

func (p *prompt) cmdOutput(string) error {
	var out struct {
		Text      string `json:"text"`
		NextSince int64  `json:"nextSince"`
	}
	a := p.sid()
	if p.since > 0 {
		a["since"] = p.since
	}
	return p.call("get_output", a, &out, func() {
		p.since = out.NextSince
		if out.Text == "" {
			p.printf("no new output\n")
			return
		}
		p.printf("%s", out.Text)
		if !strings.HasSuffix(out.Text, "\n") {
			p.printf("\n")
		}
	})
}
