package ide

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/dbg-dev/dbg/toolkit"
)

// Priority of START_RUN_CONFIGURATION among status suggestions: above
// CREATE_DEBUG_SESSION (10), since a project with a saved configuration
// and nothing running is best started first; below anything about a
// live session or JVM (20 and up).
const startRunConfigPriority = 15

// runConfigStatus is the "runConfigurations" status contributor.
type runConfigStatus struct{ x *IDE }

// RunConfigSection is the runConfigurations section of the status.
type RunConfigSection struct {
	Count          int                `json:"count"`
	Running        int                `json:"running"`
	Compounds      int                `json:"compounds,omitempty"` // debugged as one group each
	Configurations []RunConfigSummary `json:"configurations"`
	Warnings       []string           `json:"warnings,omitempty"`
}

// RunConfigSummary is one configuration in the status.
type RunConfigSummary struct {
	Name        string `json:"name"`
	TypeName    string `json:"typeName"`
	Source      string `json:"source"`
	Restartable bool   `json:"restartable"`
	Running     bool   `json:"running"`
	PID         int    `json:"pid,omitempty"`
	// LastExitCode is set when dbg's last run of it has ended.
	LastExitCode *int `json:"lastExitCode,omitempty"`
	// Members and StopAll: a compound's configurations.
	Members []string `json:"members,omitempty"`
	StopAll bool     `json:"stopAll,omitempty"`
}

// Status reports the project's configurations and which run. It reads
// the configuration files only when they changed.
func (s runConfigStatus) Status(ctx context.Context, q toolkit.StatusQuery) toolkit.StatusPart {
	res := s.x.configs.load(q.Project)
	procs := s.x.runner.Processes()
	sec := RunConfigSection{Count: len(res.Configurations), Configurations: []RunConfigSummary{}, Warnings: res.Warnings}
	restartable, crashed := "", ""
	for _, c := range res.Configurations {
		sum := RunConfigSummary{Name: c.Name, TypeName: c.TypeName, Source: c.Source, Restartable: c.Runnable(), Members: c.Members, StopAll: c.StopAll}
		if c.Kind == KindCompound {
			sec.Compounds++
		}
		for _, p := range procs {
			if p.Name != c.Name || p.Source != c.Source {
				continue
			}
			if p.Running {
				sum.Running, sum.PID, sum.LastExitCode = true, p.PID, nil
			} else if !sum.Running {
				sum.PID, sum.LastExitCode = p.PID, p.ExitCode
				if *p.ExitCode != 0 && crashed == "" {
					crashed = fmt.Sprintf("%q exited with code %d (pid %d); read_target_application_logs(pid: \"%d\") shows why, then restart_run_configuration", c.Name, *p.ExitCode, p.PID, p.PID)
				}
			}
		}
		if sum.Running {
			sec.Running++
		}
		if sum.Restartable && restartable == "" {
			restartable = c.Name
		}
		sec.Configurations = append(sec.Configurations, sum)
	}
	part := toolkit.StatusPart{Section: "runConfigurations", Data: sec}
	switch {
	case sec.Count == 0:
		reason := "no saved run configuration in .idea/runConfigurations, .run, .idea/workspace.xml or .vscode/launch.json"
		if len(res.Warnings) > 0 {
			reason += " (unreadable: " + res.Warnings[0] + ")"
		}
		part.Capabilities = []toolkit.CapabilityState{{Name: "runConfigurations", State: toolkit.NotConfigured, Reason: reason}}
	default:
		part.Capabilities = []toolkit.CapabilityState{{Name: "runConfigurations", State: toolkit.Available,
			Reason: fmt.Sprintf("%d saved configuration(s), %d running", sec.Count, sec.Running)}}
		switch {
		case sec.Running == 0 && crashed != "":
			part.Suggestions = []toolkit.Suggestion{{Action: toolkit.NextStartRunConfiguration, Priority: startRunConfigPriority, Hint: crashed}}
		case sec.Running == 0 && restartable != "":
			part.Suggestions = []toolkit.Suggestion{{Action: toolkit.NextStartRunConfiguration, Priority: startRunConfigPriority,
				Hint: fmt.Sprintf("no run configuration is running; start one with restart_run_configuration(configurationName: %q)", restartable)}}
		}
	}
	return part
}

// gitStatus is the "git" status contributor.
type gitStatus struct{ x *IDE }

// GitSection is the git section of the status.
type GitSection struct {
	Repositories []GitSummary       `json:"repositories"`
	GitCommand   bool               `json:"gitCommand"`
	Session      *SessionGitSummary `json:"session,omitempty"`
}

// GitSummary is one repository in the status.
type GitSummary struct {
	Root     string `json:"root"`
	Kind     string `json:"kind"`
	State    string `json:"state"`
	Branch   string `json:"branch,omitempty"`
	Head     string `json:"head,omitempty"`
	Upstream string `json:"upstream,omitempty"`
	Dirty    *bool  `json:"dirty,omitempty"`
	Ahead    *int   `json:"ahead,omitempty"`
	Behind   *int   `json:"behind,omitempty"`
	Error    string `json:"error,omitempty"`
}

// SessionGitSummary is the repository a session's program lives in.
type SessionGitSummary struct {
	RepositoryRoot string `json:"repositoryRoot"`
	Commit         string `json:"commit,omitempty"`
	Branch         string `json:"branch,omitempty"`
	Dirty          *bool  `json:"dirty,omitempty"`
}

func summarize(r Repository) GitSummary {
	return GitSummary{Root: r.Root, Kind: r.Kind, State: r.State, Branch: r.Branch, Head: short(r.Head), Upstream: r.Upstream,
		Dirty: r.Dirty, Ahead: r.Ahead, Behind: r.Behind, Error: r.Error}
}

// Status reports the project's repositories from the cache, and the
// repository of the session's program when the query names a session.
func (s gitStatus) Status(ctx context.Context, q toolkit.StatusQuery) toolkit.StatusPart {
	reps := s.x.status.repositories(ctx, q.Project)
	_, gitErr := s.x.git.cmd.lookPath()
	sec := GitSection{Repositories: []GitSummary{}, GitCommand: gitErr == nil}
	for _, r := range reps {
		sec.Repositories = append(sec.Repositories, summarize(r))
	}
	if q.Session != nil {
		for _, p := range []string{q.Session.Program, q.Session.Cwd} {
			if p == "" || !filepath.IsAbs(p) {
				continue
			}
			if loc, ok := repositoryAt(p); ok {
				r := s.x.status.repository(ctx, loc)
				sec.Session = &SessionGitSummary{RepositoryRoot: r.Root, Commit: r.Head, Branch: r.Branch, Dirty: r.Dirty}
				break
			}
		}
	}
	part := toolkit.StatusPart{Section: "git", Data: sec}
	switch {
	case len(reps) == 0:
		part.Capabilities = []toolkit.CapabilityState{{Name: "git", State: toolkit.NotConfigured, Reason: "the project is not in a Git repository"}}
	case gitErr != nil:
		part.Capabilities = []toolkit.CapabilityState{{Name: "git", State: toolkit.Available,
			Reason: fmt.Sprintf("%d repository(ies); the git command is not installed: fetch and fast-forward pulls go through go-git, rebase and merge pulls and push are unavailable", len(reps))}}
	default:
		part.Capabilities = []toolkit.CapabilityState{{Name: "git", State: toolkit.Available, Reason: fmt.Sprintf("%d repository(ies)", len(reps))}}
	}
	return part
}
