package testrun

import (
	"context"
	"os"
	"path/filepath"

	"github.com/dbg-dev/dbg/sessions"
)

// Framework is one test ecosystem: everything debug_test and list_tests
// need to know about it. Adding an ecosystem is one entry in frameworks.
type Framework struct {
	// Name is the framework's name as debug_test takes it ("pytest").
	Name string
	// Language is the debug session's language.
	Language string
	// Detect reports whether the project at dir uses the framework.
	Detect func(dir string) bool
	// List discovers the project's tests with the runner's own discovery.
	// A project whose tests do not build answers a *BuildError.
	List func(ctx context.Context, p *Project, pkg string) ([]TestID, error)
	// Plan builds the debug session that runs one test: the runner's
	// command line under the language's adapter, and how the first failure
	// in the user's code stops it.
	Plan func(ctx context.Context, p *Project, id TestID, stopAt StopAt) (*Plan, error)
	// Message reads the failure's message at the stop.
	Message func(ctx context.Context, r *failureReader) Failure
	// PlanAfterList: Plan needs what discovery found (the binary that
	// holds the test), so discovery runs first; otherwise it runs while
	// the test starts.
	PlanAfterList bool
	// Claims reports whether a test id is in this framework's syntax; it
	// picks the framework of a project that has several.
	Claims func(id string) bool
	// Settle, when set, moves a failure stop out of the framework's frames
	// into the user's where the program can still run there.
	Settle func(ctx context.Context, r *failureReader) error
	// Accept, when set, tells whether an exception stop is the test's
	// failure; the run continues past those it refuses.
	Accept func(r *failureReader) bool
	// Internal, when set, reports the locals the framework adds to the
	// user's frames, which the answer leaves out.
	Internal func(name string) bool
	// UserFile reports whether a source file is the user's code rather
	// than the framework's, the standard library's or a dependency's.
	UserFile func(p *Project, file string) bool
	// Subtests, when set, is for a framework whose tests make subtests
	// at run time (Go's TestX/sub), which discovery cannot list: an id
	// naming one runs through its parent's listing, and after a run that
	// ended without stopping Subtests reads the output to tell whether
	// the subtest ran, and which tests did.
	Subtests func(id, out string) (ran bool, tests []TestID)
	// DefaultPackage, for a framework whose tests are in packages (Go's),
	// is the package discovery looks at when none is named ("."); a
	// package named picks this framework among the project's.
	DefaultPackage string
}

// TestID is one test as list_tests lists it and debug_test takes it.
type TestID struct {
	ID      string `json:"id"`
	Package string `json:"package,omitempty"`
	File    string `json:"file,omitempty"`
	// binary is the test binary that holds the test (cargo).
	binary string
	// junit is how the JUnit Platform selects and runs the test.
	junit *junitRun
	// subtestsComplete: every subtest of this Go test is listed.
	subtestsComplete bool
}

// Plan is how one test runs under the debugger.
type Plan struct {
	Create sessions.CreateRequest
	Start  sessions.StartRequest
	// Functions are function breakpoints set before the start: the
	// framework's failure entry points.
	Functions []string
	// Breakpoints are set before the start: where stopAt "start" stops.
	Breakpoints []sessions.BreakpointSpec
	// Command is the runner's command line, for the answer.
	Command []string
}

// StopAt is where a debug_test run stops.
type StopAt struct {
	Mode        string // StopFailure or StopStart
	Breakpoints []sessions.BreakpointSpec
}

// Where a run stops.
const (
	StopFailure = "failure"
	StopStart   = "start"
)

// Project is the project a tool works on, with what its frameworks found
// out about it.
type Project struct {
	Dir string
	Env map[string]string
	// Python is the interpreter of the project (pytest), the one the
	// framework's adapter picks (adapters.Traits.Interpreter).
	Python string
	// Agent is where a build tool's command line takes the framework's
	// debug agent (adapters.Traits.CommandAgent: JUnit's ${jdwpAgent}).
	Agent string
}

// frameworks is the table of every supported ecosystem, in detection
// order.
func frameworks() []*Framework {
	return []*Framework{pytestFramework(), goFramework(), nodeTestFramework(), jestFramework(), vitestFramework(), cargoFramework(), rspecFramework(), minitestFramework(), junitFramework()}
}

// frameworkNamed returns the framework called name.
func frameworkNamed(name string) *Framework {
	for _, f := range frameworks() {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// frameworkNames lists the supported framework names.
func frameworkNames() []string {
	var out []string
	for _, f := range frameworks() {
		out = append(out, f.Name)
	}
	return out
}

// exists reports whether dir/rel exists.
func exists(dir, rel string) bool {
	_, err := os.Stat(filepath.Join(dir, rel))
	return err == nil
}

// under reports whether file lies under dir.
func under(file, dir string) bool {
	rel, err := filepath.Rel(dir, file)
	return err == nil && rel != ".." && !filepath.IsAbs(rel) && (len(rel) < 3 || rel[:3] != "../")
}
