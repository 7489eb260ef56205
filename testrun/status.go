package testrun

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/dbg-dev/dbg/toolkit"
)

// FrameworkStatus is one framework's line in the status report.
type FrameworkStatus struct {
	Name     string `json:"name"`
	Language string `json:"language"`
	Found    bool   `json:"found"`
}

// testStatus reports the project's test frameworks: the "tests"
// capability, and a "tests" section listing each framework.
type testStatus struct{ x *Tests }

func (t testStatus) Status(_ context.Context, q toolkit.StatusQuery) toolkit.StatusPart {
	return t.x.status.get(q.Project, t.x.m.Now(), func() toolkit.StatusPart { return detectStatus(q.Project) })
}

// detectStatus detects every framework in project.
func detectStatus(project string) toolkit.StatusPart {
	var list []FrameworkStatus
	var found []string
	for _, fw := range frameworks() {
		ok := project != "" && fw.Detect(project)
		list = append(list, FrameworkStatus{Name: fw.Name, Language: fw.Language, Found: ok})
		if ok {
			found = append(found, fw.Name)
		}
	}
	c := toolkit.CapabilityState{Name: "tests", State: toolkit.NotConfigured,
		Reason: "no test framework found in the project (supported: " + strings.Join(frameworkNames(), ", ") + ")"}
	if fw := unsupportedIn(project); project != "" && fw != nil {
		c.Reason = "the project's tests run with " + fw.Name + ", which debug_test does not support; debug a test file as a program with start_debugging"
	}
	part := toolkit.StatusPart{Section: "tests", Data: map[string]any{"frameworks": list}}
	if len(found) > 0 {
		c = toolkit.CapabilityState{Name: "tests", State: toolkit.Available,
			Reason: "tests found: " + strings.Join(found, ", ") + "; list_tests, then debug_test"}
		// Ahead of the sessions' "create a session" when none is open:
		// debug_test is the session's start in a project with tests.
		part.Suggestions = []toolkit.Suggestion{{Action: toolkit.NextCreateDebugSession, Priority: 15,
			Hint: "tests found (" + strings.Join(found, ", ") + "): list_tests, then debug_test {test} runs one to its first failure in a debug session"}}
	}
	part.Capabilities = []toolkit.CapabilityState{c}
	return part
}

// statusTTL is how long a project's detected frameworks are reused: the
// detection walks the project's files, too slow for every status call.
const statusTTL = 30 * time.Second

// statusCache keeps each project's status part for statusTTL.
type statusCache struct {
	mu      sync.Mutex
	entries map[string]statusEntry
}

type statusEntry struct {
	part toolkit.StatusPart
	at   time.Time
}

func (c *statusCache) get(project string, now time.Time, compute func() toolkit.StatusPart) toolkit.StatusPart {
	c.mu.Lock()
	e, ok := c.entries[project]
	c.mu.Unlock()
	if ok && now.Sub(e.at) < statusTTL {
		return e.part
	}
	part := compute()
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[string]statusEntry{}
	}
	c.entries[project] = statusEntry{part: part, at: now}
	c.mu.Unlock()
	return part
}
