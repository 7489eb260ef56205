package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/sessions"
)

type demoOptions struct {
	language string
	program  string
	line     int
}

// newDemoCmd runs a real debugging session on a shipped example and prints
// what an agent would see.
func newDemoCmd(e *env) *cobra.Command {
	opts := &demoOptions{}
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Debug a shipped example end to end: stop at a breakpoint, print the stack and locals, step, run to the end",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runDemo(cmd, e, opts)
		},
	}
	cmd.Flags().StringVar(&opts.language, "language", "go", "language of the example")
	cmd.Flags().StringVar(&opts.program, "program", "testdata/go/loop/main.go", "program to debug")
	cmd.Flags().IntVar(&opts.line, "line", 0, "breakpoint line (default: the line marked BREAK in the program)")
	return cmd
}

func runDemo(cmd *cobra.Command, e *env, opts *demoOptions) error {
	ctx, cancel := context.WithTimeout(cmd.Context(), 3*time.Minute)
	defer cancel()
	out := cmd.OutOrStdout()
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
	m := e.newManager(filepath.Dir(prog))
	defer m.Shutdown(context.Background())
	s, _, err := m.Create(ctx, sessions.CreateRequest{Language: opts.language, Name: "demo"})
	if err != nil {
		return err
	}
	bp, err := s.SetBreakpoint(ctx, sessions.BreakpointSpec{File: prog, Line: line})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "session %s (%s): breakpoint %d at %s:%d  %s\n", s.ID(), opts.language, bp.ID, filepath.Base(prog), line, bp.LineText)
	res, err := s.Launch(ctx, sessions.StartRequest{ScriptPath: prog, Wait: time.Minute})
	if err != nil {
		return err
	}
	if res.State != sessions.StatePaused {
		return fmt.Errorf("the program did not stop: %s", res.Message)
	}
	loc := res.LastStop.Location
	fmt.Fprintf(out, "\nstopped (%s) at %s:%d in %s\n", res.LastStop.Reason, loc.File, loc.Line, loc.Function)
	frames, _, err := s.StackTrace(ctx, 0, 0, 10)
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "\nstack:")
	for i, f := range frames {
		if f.File == "" {
			continue
		}
		fmt.Fprintf(out, "  #%d %s at %s:%d\n", i, f.Name, filepath.Base(f.File), f.Line)
	}
	if err := printLocals(ctx, out, s); err != nil {
		return err
	}
	step, err := s.Step(ctx, sessions.StepOver, 0, 10*time.Second)
	if err != nil {
		return err
	}
	if step.LastStop != nil && step.LastStop.Location != nil {
		fmt.Fprintf(out, "\nstep_over → line %d: %s\n", step.LastStop.Location.Line, step.LastStop.Location.Text)
	}
	if err := printLocals(ctx, out, s); err != nil {
		return err
	}
	if _, err := s.ClearBreakpoints(ctx, ""); err != nil {
		return err
	}
	if _, err := s.Continue(ctx, 0, 0); err != nil {
		return err
	}
	end, err := s.WaitForStop(ctx, time.Minute)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\n%s\nprogram output:\n%s", end.Message, s.Output().Text("stdout"))
	return nil
}

func printLocals(ctx context.Context, out interface{ Write([]byte) (int, error) }, s *sessions.Session) error {
	vars, _, _, err := s.LocalVariables(ctx, 0, nil)
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "locals:")
	for _, v := range vars {
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
