package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
	"github.com/dbg-dev/dbg/debugtools"
	"github.com/dbg-dev/dbg/ide"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

// newCmdStatus prints the get_debug_tools_status snapshot. runF replaces
// statusRun in tests (nil = statusRun).
func newCmdStatus(f *factory, runF func(context.Context, *queryOptions) error) *cobra.Command {
	return queryVerb(f, &cobra.Command{
		Use:   "status",
		Short: "Print what dbg knows and can do for the project, and what to do next",
		Long: `Print the snapshot of the get_debug_tools_status MCP tool: debug sessions, JVM connections and
attachable JVMs, run configurations, Git repositories, each capability's state with its reason,
and nextAction with a hint. --json prints the tool's data as is.

The command answers from its own process: debug sessions and agent connections held by a
running 'dbg mcp' are not visible here.`,
	}, statusRun, runF)
}

func statusRun(ctx context.Context, opts *queryOptions) error {
	var st statusView
	return opts.ask(ctx, "get_debug_tools_status", map[string]any{}, &st, func(*toolclient.Client) error {
		printStatus(opts.IO.Out, &st)
		return nil
	})
}

// statusView is sessions.Status with its sections left undecoded, so
// each is read with its owner's type.
type statusView struct {
	Project      string                     `json:"project"`
	Sessions     []sessions.SessionInfo     `json:"sessions"`
	Capabilities []toolkit.CapabilityState  `json:"capabilities"`
	Sections     map[string]json.RawMessage `json:"sections"`
	NextAction   string                     `json:"nextAction"`
	Hint         string                     `json:"hint"`
	ElapsedMs    float64                    `json:"elapsedMs"`
}

// printStatus renders the snapshot for a terminal.
func printStatus(out io.Writer, st *statusView) {
	fmt.Fprintf(out, "project  %s\n", st.Project)
	fmt.Fprintf(out, "next     %s: %s\n", st.NextAction, st.Hint)

	fmt.Fprintf(out, "\ndebug sessions (%d)\n", len(st.Sessions))
	if len(st.Sessions) > 0 {
		w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "  ID\tLANGUAGE\tSTATE\tPID\tWHERE")
		for _, s := range st.Sessions {
			where := s.Program
			if s.LastStop != nil && s.LastStop.Location != nil {
				where = fmt.Sprintf("%s:%d", s.LastStop.Location.File, s.LastStop.Location.Line)
			}
			pid := "-"
			if s.PID > 0 {
				pid = fmt.Sprint(s.PID)
			}
			fmt.Fprintf(w, "  %s\t%s\t%s\t%s\t%s\n", s.ID, s.Language, s.State, pid, dash(where))
		}
		_ = w.Flush()
	}

	fmt.Fprintln(out, "\ncapabilities")
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	for _, c := range st.Capabilities {
		fmt.Fprintf(w, "  %s\t%s\t%s\n", c.Name, c.State, c.Reason)
	}
	_ = w.Flush()

	names := make([]string, 0, len(st.Sections))
	for n := range st.Sections {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		raw := st.Sections[n]
		fmt.Fprintln(out)
		if !printSection(out, n, raw) {
			fmt.Fprintf(out, "%s\n  %s\n", n, iostreams.CompactJSON(raw))
		}
	}
}

// printSection renders a known section; false means it could not.
func printSection(out io.Writer, name string, raw json.RawMessage) bool {
	switch name {
	case "runConfigurations":
		var s ide.RunConfigSection
		if json.Unmarshal(raw, &s) != nil {
			return false
		}
		fmt.Fprintf(out, "run configurations (%d, %d running)\n", s.Count, s.Running)
		w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		for _, c := range s.Configurations {
			state := "-"
			switch {
			case c.Running:
				state = fmt.Sprintf("running (pid %d)", c.PID)
			case c.LastExitCode != nil:
				state = fmt.Sprintf("exited %d", *c.LastExitCode)
			case !c.Restartable:
				state = "not runnable"
			}
			fmt.Fprintf(w, "  %s\t%s\t%s\t%s\n", c.Name, c.TypeName, c.Source, state)
		}
		_ = w.Flush()
		for _, warn := range s.Warnings {
			fmt.Fprintf(out, "  warning: %s\n", warn)
		}
	case "git":
		var s ide.GitSection
		if json.Unmarshal(raw, &s) != nil {
			return false
		}
		fmt.Fprintf(out, "git repositories (%d)\n", len(s.Repositories))
		w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		for _, r := range s.Repositories {
			var extra []string
			if r.Dirty != nil && *r.Dirty {
				extra = append(extra, "dirty")
			}
			if r.Ahead != nil && r.Behind != nil {
				extra = append(extra, fmt.Sprintf("ahead %d, behind %d", *r.Ahead, *r.Behind))
			}
			if r.Error != "" {
				extra = append(extra, "error: "+r.Error)
			}
			fmt.Fprintf(w, "  %s\t%s\t%s\t%s\t%s\t%s\n", r.Root, dash(r.Branch), dash(r.Head), r.State, dash(r.Upstream), strings.Join(extra, "; "))
		}
		_ = w.Flush()
		if !s.GitCommand {
			fmt.Fprintln(out, "  the git command is not installed")
		}
	case "jvm":
		var s debugtools.StatusData
		if json.Unmarshal(raw, &s) != nil {
			return false
		}
		fmt.Fprintf(out, "jvm: %d connection(s), %d attachable JVM(s)\n", len(s.Connections), len(s.AttachableJVMs))
		w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
		for _, c := range s.Connections {
			fmt.Fprintf(w, "  connection\t%s\tpid %s\t%s\n", c.ConnectionID, orDash(c.PID), c.State)
		}
		for _, j := range s.AttachableJVMs {
			fmt.Fprintf(w, "  jvm\t%s\t%s\t%s\n", j.PID, j.DisplayName, orDash(j.ConfigurationName))
		}
		_ = w.Flush()
	default:
		return false
	}
	return true
}
