package ide

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/dbg-dev/dbg/toolkit"
)

// A compound (VS Code's launch.json "compounds", IntelliJ's Compound run
// configuration) is debugged as one group of sessions: each member is
// created and started at the same time, the breakpoints given go to the
// members of their file's language, and the group is named in every
// member's summary. With stopAll, closing one member closes the group.

// debugCompound debugs every member of compound c.
func (x *IDE) debugCompound(ctx context.Context, dir string, c RunConfiguration, in DebugInput) (DebugResult, error) {
	if len(c.Members) == 0 {
		return DebugResult{}, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("compound %q names no configuration", c.Name), "add configurations to the compound")
	}
	members := make([]RunConfiguration, len(c.Members))
	for i, name := range c.Members {
		m, err := x.find(dir, name, c.Source)
		if err != nil {
			return DebugResult{}, toolkit.NewError(toolkit.CodeRunConfigNotFound, fmt.Sprintf("compound %q names %q, which is not a configuration here", c.Name, name),
				"fix the compound's configurations").WithOptions(c.Members...)
		}
		if m.Kind == KindCompound {
			return DebugResult{}, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("compound %q holds the compound %q", c.Name, name), "list plain configurations in a compound")
		}
		members[i] = m
	}
	results := make([]DebugResult, len(members))
	errs := make([]error, len(members))
	var wg sync.WaitGroup
	for i, m := range members {
		wg.Add(1)
		go func() {
			defer wg.Done()
			one := in
			one.Breakpoints = x.breakpointsFor(dir, m, in.Breakpoints)
			results[i], errs[i] = x.debugOne(ctx, dir, m, one)
		}()
	}
	wg.Wait()
	var ids []string
	for _, r := range results {
		if r.SessionID != "" {
			ids = append(ids, r.SessionID)
		}
	}
	for i, err := range errs {
		if err != nil {
			for _, id := range ids {
				x.closeSession(id)
			}
			return DebugResult{}, fmt.Errorf("compound %q: member %q: %w", c.Name, members[i].Name, err)
		}
	}
	x.m.AddGroup(c.Name, ids, c.StopAll)
	res := DebugResult{Group: c.Name, DebugSessionResult: DebugSessionResult{ConfigurationName: c.Name, Mode: DebugSession,
		NextAction: toolkit.NextSetBreakpoint,
		Hint:       fmt.Sprintf("%d sessions run as group %q: wait_for_stop with sessionIds %v waits on them all", len(ids), c.Name, ids)}}
	for _, r := range results {
		res.Members = append(res.Members, r.DebugSessionResult)
	}
	return res, nil
}

// breakpointsFor are the breakpoints of bps in files of m's language:
// those a session of m can bind.
func (x *IDE) breakpointsFor(dir string, m RunConfiguration, bps []BreakpointInput) []BreakpointInput {
	lang, _ := debugLanguage(m)
	var out []BreakpointInput
	for _, bp := range bps {
		file := bp.File
		if file != "" && !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		if a, ok := x.m.Adapters().ForFile(file); ok && a.Language() == lang {
			out = append(out, bp)
		}
	}
	return out
}

// coreFileOf is the core file a launch.json entry opens (vscode-go's
// "mode": "core" with coreFilePath), or "".
func coreFileOf(c RunConfiguration) string {
	if c.Source != sourceLaunch || str(c.Launch, "mode") != "core" {
		return ""
	}
	return absIn(c.Cwd, str(c.Launch, "coreFilePath"))
}
