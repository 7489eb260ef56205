package testrun

import (
	"context"
	"strings"

	"github.com/dbg-dev/dbg/sessions/toolkit"
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
	var list []FrameworkStatus
	var found []string
	for _, fw := range frameworks() {
		ok := q.Project != "" && fw.Detect(q.Project)
		list = append(list, FrameworkStatus{Name: fw.Name, Language: fw.Language, Found: ok})
		if ok {
			found = append(found, fw.Name)
		}
	}
	c := toolkit.CapabilityState{Name: "tests", State: toolkit.NotConfigured,
		Reason: "no test framework found in the project (supported: " + strings.Join(frameworkNames(), ", ") + ")"}
	if len(found) > 0 {
		c = toolkit.CapabilityState{Name: "tests", State: toolkit.Available,
			Reason: "tests found: " + strings.Join(found, ", ") + "; list_tests, then debug_test"}
	}
	return toolkit.StatusPart{Section: "tests", Data: map[string]any{"frameworks": list}, Capabilities: []toolkit.CapabilityState{c}}
}
