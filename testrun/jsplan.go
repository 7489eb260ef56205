package testrun

import (
	"path/filepath"
	"strings"

	"github.com/dbg-dev/dbg/sessions"
)

// jsPlan is the plan of a JavaScript test run: start under the
// JavaScript adapter, every exception stopping (the framework's Accept
// picks the failure among them), and with stopAt start a breakpoint on
// the first line of the test id names. command is the runner's command
// line for the answer.
func jsPlan(p *Project, id TestID, stopAt StopAt, start sessions.StartRequest, command []string) (*Plan, error) {
	file, name, _ := strings.Cut(id.ID, "::")
	parts := strings.Split(name, " > ")
	start.Cwd = p.Dir
	start.ExceptionFilters = []string{"all"}
	pl := &Plan{
		Create:  sessions.CreateRequest{Language: "javascript", Name: "test " + id.ID},
		Start:   start,
		Command: command,
	}
	if stopAt.Mode == StopStart {
		abs := filepath.Join(p.Dir, filepath.FromSlash(file))
		line, err := jsTestStart(abs, parts[len(parts)-1])
		if err != nil {
			return nil, err
		}
		pl.Breakpoints = append(pl.Breakpoints, sessions.BreakpointSpec{File: abs, Line: line})
	}
	return pl, nil
}
