package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
)

type demoOptions struct {
	IO         *iostreams.IOStreams
	ToolClient func(ctx context.Context, project string) (*toolclient.Client, error)

	language string
	program  string
	line     int
}

// newCmdDemo runs a real debugging session on a shipped example and
// prints what an agent would see.
func newCmdDemo(f *factory, runF func(context.Context, *demoOptions) error) *cobra.Command {
	opts := &demoOptions{IO: f.io, ToolClient: f.toolClient}
	cmd := verb(&cobra.Command{
		Use:   "demo",
		Short: "Debug a shipped example end to end: stop at a breakpoint, print the stack and locals, step, run to the end",
	}, opts, demoRun, runF)
	cmd.Flags().StringVar(&opts.language, "language", "go", "language of the example")
	cmd.Flags().StringVar(&opts.program, "program", "testdata/go/loop/main.go", "program to debug")
	cmd.Flags().IntVar(&opts.line, "line", 0, "breakpoint line (default: the line marked BREAK in the program)")
	return cmd
}

// demoAnswer is the part of the session tools' answers the demo prints.
type demoAnswer struct {
	State    string `json:"state"`
	Message  string `json:"message"`
	LastStop *struct {
		Reason   string `json:"reason"`
		Location *struct {
			File     string `json:"file"`
			Line     int    `json:"line"`
			Function string `json:"function"`
			Text     string `json:"text"`
		} `json:"location"`
	} `json:"lastStop"`
}

// demoVariable is a local variable as get_local_variables answers it.
type demoVariable struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Value string `json:"value"`
}

// demoRun walks the flow an agent follows, tool by tool: create a
// session, set a breakpoint, start, read the stack and the locals, step
// over, clear the breakpoints and run to the end.
func demoRun(ctx context.Context, opts *demoOptions) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	out := opts.IO.Out
	prog, err := filepath.Abs(opts.program)
	if err != nil {
		return err
	}
	line := opts.line
	if line == 0 {
		if line = markedLine(prog, "BREAK"); line == 0 {
			return errors.New("no line marked BREAK in " + prog + "; pass --line")
		}
	}
	tc, err := opts.ToolClient(ctx, filepath.Dir(prog))
	if err != nil {
		return err
	}
	defer tc.Close()
	var created struct {
		SessionID string `json:"sessionId"`
	}
	if _, err := tc.Call(ctx, "create_debug_session", map[string]any{"language": opts.language, "name": "demo"}, &created); err != nil {
		return err
	}
	id := created.SessionID
	sid := map[string]any{"sessionId": id}
	// The session ends with the command, even when it fails half-way.
	defer func() { _, _ = tc.Call(context.WithoutCancel(ctx), "close_debug_session", sid, nil) }()
	var bp struct {
		ID       int    `json:"id"`
		LineText string `json:"lineText"`
	}
	if _, err := tc.Call(ctx, "set_breakpoint", map[string]any{"sessionId": id, "file": prog, "line": line}, &bp); err != nil {
		return err
	}
	fmt.Fprintf(out, "session %s (%s): breakpoint %d at %s:%d  %s\n", id, opts.language, bp.ID, filepath.Base(prog), line, bp.LineText)
	var res demoAnswer
	if _, err := tc.Call(ctx, "start_debugging", map[string]any{"sessionId": id, "scriptPath": prog, "waitMs": 60000}, &res); err != nil {
		return err
	}
	if res.State != "paused" || res.LastStop == nil || res.LastStop.Location == nil {
		return fmt.Errorf("the program did not stop: %s", res.Message)
	}
	loc := res.LastStop.Location
	fmt.Fprintf(out, "\nstopped (%s) at %s:%d in %s\n", res.LastStop.Reason, loc.File, loc.Line, loc.Function)
	var st struct {
		StackFrames []struct {
			Name string `json:"name"`
			File string `json:"file"`
			Line int    `json:"line"`
		} `json:"stackFrames"`
	}
	if _, err := tc.Call(ctx, "get_stack_trace", map[string]any{"sessionId": id, "levels": 10, "includeInternals": true}, &st); err != nil {
		return err
	}
	fmt.Fprintln(out, "\nstack:")
	for i, f := range st.StackFrames {
		if f.File == "" {
			continue
		}
		fmt.Fprintf(out, "  #%d %s at %s:%d\n", i, f.Name, filepath.Base(f.File), f.Line)
	}
	if err := demoLocals(ctx, out, tc, id); err != nil {
		return err
	}
	var step demoAnswer
	if _, err := tc.Call(ctx, "step_over", map[string]any{"sessionId": id, "waitMs": 10000}, &step); err != nil {
		return err
	}
	if step.LastStop != nil && step.LastStop.Location != nil {
		fmt.Fprintf(out, "\nstep_over → line %d: %s\n", step.LastStop.Location.Line, step.LastStop.Location.Text)
	}
	if err := demoLocals(ctx, out, tc, id); err != nil {
		return err
	}
	if _, err := tc.Call(ctx, "clear_breakpoints", sid, nil); err != nil {
		return err
	}
	if _, err := tc.Call(ctx, "continue_execution", sid, nil); err != nil {
		return err
	}
	var end demoAnswer
	if _, err := tc.Call(ctx, "wait_for_stop", map[string]any{"sessionId": id, "timeoutMs": 60000}, &end); err != nil {
		return err
	}
	var output struct {
		Text string `json:"text"`
	}
	if _, err := tc.Call(ctx, "get_output", map[string]any{"sessionId": id, "category": "stdout", "limit": 100000}, &output); err != nil {
		return err
	}
	fmt.Fprintf(out, "\n%s\nprogram output:\n%s", end.Message, output.Text)
	return nil
}

// demoLocals prints the locals of the top frame.
func demoLocals(ctx context.Context, out io.Writer, tc *toolclient.Client, id string) error {
	var lv struct {
		Variables []demoVariable `json:"variables"`
	}
	if _, err := tc.Call(ctx, "get_local_variables", map[string]any{"sessionId": id}, &lv); err != nil {
		return err
	}
	fmt.Fprintln(out, "locals:")
	for _, v := range lv.Variables {
		fmt.Fprintf(out, "  %s %s = %s\n", v.Name, v.Type, v.Value)
	}
	return nil
}

// markedLine finds the first line containing marker.
func markedLine(path, marker string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	line := 1
	for i := 0; i+len(marker) <= len(b); i++ {
		if b[i] == '\n' {
			line++
		}
		if string(b[i:i+len(marker)]) == marker {
			return line
		}
	}
	return 0
}
