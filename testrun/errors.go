package testrun

import (
	"fmt"
	"sort"
	"strings"

	"github.com/dbg-dev/dbg/textcut"
	"github.com/dbg-dev/dbg/toolkit"
)

// maxBuildMessage caps the compiler's message in an error.
const maxBuildMessage = 4 << 10

// BuildError is a project whose tests do not compile or import: Output
// is the compiler's (or the runner's) message.
type BuildError struct {
	Tool   string
	Output string
	// Usage: the runner refused its command line rather than the code.
	Usage bool
}

func (e *BuildError) Error() string {
	if e.Usage {
		return e.Tool + " refused the command: " + e.Output
	}
	return "the tests do not build: " + e.Output
}

// toolError turns a BuildError into the tool's answer: the compiler's
// message, trimmed to its relevant part.
func (e *BuildError) toolError() *toolkit.ToolError {
	msg, _ := textcut.Tail(strings.TrimSpace(e.Output), maxBuildMessage)
	if e.Usage {
		return toolkit.NewError(toolkit.CodeAdapterFailed, fmt.Sprintf("%s refused its command line: %s", e.Tool, msg),
			"check the project's runner configuration")
	}
	return toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("the tests do not compile (%s):\n%s", e.Tool, msg),
		"fix the error the compiler reports, then call debug_test again").WithDetails(map[string]any{"compilerOutput": msg})
}

// maxClosest is how many ids a TEST_NOT_FOUND error offers.
const maxClosest = 10

// notFound is the TEST_NOT_FOUND error for id, offering the closest ids.
func notFound(id string, ids []TestID, where string) *toolkit.ToolError {
	if len(ids) == 0 {
		return toolkit.NewError(toolkit.CodeTestNotFound, fmt.Sprintf("no test %q%s: the runner finds no tests in the project", id, where),
			"check the project's test files and configuration; list_tests lists what the runner finds")
	}
	return toolkit.NewError(toolkit.CodeTestNotFound, fmt.Sprintf("no test %q%s", id, where),
		"pass one of availableOptions (list_tests lists every test)").WithOptions(closest(id, ids, maxClosest)...)
}

// closest returns up to n ids nearest to id: those sharing its name
// first, then by edit distance.
func closest(id string, ids []TestID, n int) []string {
	type cand struct {
		id   string
		dist int
	}
	want := strings.ToLower(id)
	var cs []cand
	for _, t := range ids {
		c := strings.ToLower(t.ID)
		d := toolkit.EditDistance(want, c)
		// An id that holds the one asked for is nearest; one the asked id
		// holds (its parent) is as near as the letters it lacks.
		if strings.Contains(c, want) {
			d = 0
		}
		cs = append(cs, cand{t.ID, d})
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].dist < cs[j].dist })
	out := []string{}
	for i := 0; i < len(cs) && i < n; i++ {
		out = append(out, cs[i].id)
	}
	return out
}
