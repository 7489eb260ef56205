package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/debugtools"
	"github.com/dbg-dev/dbg/ide"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/sessions/sessiontools"
	"github.com/dbg-dev/dbg/testrun"
	"github.com/dbg-dev/dbg/toolkit"
)

// toolsetNames are the toolsets the capabilities wired in registerTools
// declare (TestToolsetNamesAreDeclared checks it), for --toolsets.
var toolsetNames = []string{toolkit.CoreToolset, testrun.Toolset, sessiontools.ObserveToolset, sessiontools.LiveToolset,
	sessiontools.MoreToolset, sessions.RemoteToolset().Name, debugtools.Toolset, ide.RunToolset, ide.GitToolset}

// policyFlags are the limits a server enforces on its clients
// (docs/contract.md, "Limits the server enforces"), and the toolsets it lists.
type policyFlags struct {
	// Toolsets are the sets listed besides core; nil: the ones the
	// project needs.
	Toolsets []string
	Profile  toolkit.Profile
	// ConfirmDestructive asks the user before destructive calls.
	ConfirmDestructive bool
	// FullAnswers keeps every field in answers (--compact=false).
	FullAnswers bool
}

// addPolicyFlags adds --toolsets, --profile and --confirm to a serving
// command.
func addPolicyFlags(cmd *cobra.Command, p *policyFlags) {
	cmd.Flags().Var(toolsetsValue{&p.Toolsets}, "toolsets",
		"toolsets to list: "+strings.Join(toolsetNames, ",")+" or all (default: core and the sets the project needs); enable_toolset lists more at run time, and unlisted tools answer calls anyway")
	cmd.Flags().Var(profileValue{&p.Profile}, "profile",
		"full, observe (no tool that alters the program or the repository; evaluations without side effects) or read-only (read-only tools only)")
	cmd.Flags().Var(confirmValue{&p.ConfirmDestructive}, "confirm",
		"destructive: ask the user (MCP elicitation) before each destructive call; clients that cannot ask are refused")
	f := cmd.Flags().VarPF(compactValue{&p.FullAnswers}, "compact", "",
		"answers leave out defaults and what an earlier answer of the session said; false: every field")
	f.NoOptDefVal = "true"
	f.DefValue = "true"
}

// policy is the toolbox policy of the flags, auditing to audit.
func (p policyFlags) policy(audit *toolkit.AuditLog) toolkit.Policy {
	return toolkit.Policy{Toolsets: p.Toolsets, Profile: p.Profile, ConfirmDestructive: p.ConfirmDestructive, Audit: audit, FullAnswers: p.FullAnswers}
}

// pidOf gives the audit a session's debuggee.
func pidOf(m *sessions.Manager) func(string) int {
	return func(id string) int {
		s, err := m.Get(id)
		if err != nil || s.ID() != id {
			return 0
		}
		return s.PID()
	}
}

type toolsetsValue struct{ sets *[]string }

func (v toolsetsValue) String() string {
	if v.sets == nil || *v.sets == nil {
		return ""
	}
	return strings.Join(*v.sets, ",")
}

func (v toolsetsValue) Set(s string) error {
	out := []string{}
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if name != toolkit.AllToolsets && !slices.Contains(toolsetNames, name) {
			return fmt.Errorf("no toolset %q: one of %s or all", name, strings.Join(toolsetNames, ", "))
		}
		out = append(out, name)
	}
	*v.sets = out
	return nil
}

func (toolsetsValue) Type() string { return "sets" }

type profileValue struct{ p *toolkit.Profile }

func (v profileValue) String() string {
	if v.p == nil || *v.p == "" {
		return string(toolkit.ProfileFull)
	}
	return string(*v.p)
}

func (v profileValue) Set(s string) error {
	p, err := toolkit.ParseProfile(s)
	if err == nil {
		*v.p = p
	}
	return err
}

func (profileValue) Type() string { return "profile" }

type confirmValue struct{ b *bool }

func (v confirmValue) String() string {
	if v.b != nil && *v.b {
		return "destructive"
	}
	return "never"
}

func (v confirmValue) Set(s string) error {
	switch s {
	case "destructive":
		*v.b = true
	case "never":
		*v.b = false
	default:
		return fmt.Errorf("--confirm %q: destructive or never", s)
	}
	return nil
}

func (confirmValue) Type() string { return "when" }

// compactValue is --compact: true (the default) leaves out of answers
// what the agent has; false keeps every field.
type compactValue struct{ full *bool }

func (v compactValue) String() string { return strconv.FormatBool(v.full == nil || !*v.full) }

func (v compactValue) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("--compact %q: true or false", s)
	}
	*v.full = !b
	return nil
}

func (compactValue) Type() string { return "bool" }

func (compactValue) IsBoolFlag() bool { return true }
