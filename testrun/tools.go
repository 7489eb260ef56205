package testrun

import (
	"context"
	"fmt"
	"strings"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

// Tests is the test capability of one server. It is safe for concurrent
// use.
type Tests struct {
	m      *sessions.Manager
	status statusCache
	boot   pyBoot
}

// Toolset holds list_tests and debug_test. A server lists it by default
// when its project has tests of a framework dbg runs.
const Toolset = "tests"

// New returns the test capability over m.
func New(m *sessions.Manager) *Tests { return &Tests{m: m} }

// Register implements toolkit.Capability: list_tests, debug_test, the
// "tests" status contributor and, when the session tools are there, the
// debug-failing-test prompt.
func (x *Tests) Register(tb *toolkit.Toolbox) {
	m := x.m
	tb.DeclareToolset(toolkit.Toolset{Name: Toolset, Description: "tests: list them, debug one to its first failure",
		Wanted: func() bool {
			dir, err := m.ResolveProject("")
			return err == nil && anyDetected(dir)
		}})
	fws := toolkit.Enum("framework", anys(frameworkNames())...)
	toolkit.AddTool(tb, "list_tests",
		"The project's tests, as ids debug_test takes.",
		x.listTests, toolkit.Hints{Title: "List tests", ReadOnly: true}, toolkit.InToolset(Toolset), fws)
	toolkit.AddTool(tb, "debug_test",
		"Debug one test to its first failure in your code: message, location, source, frames with locals; or passed.",
		x.debugTest, toolkit.Hints{Title: "Debug test"}, toolkit.InToolset(Toolset), toolkit.LinkResources(), fws,
		toolkit.Enum("stopAt", "failure", "start", "breakpoints"))
	tb.Status().Register("tests", testStatus{x})
	if _, ok := tb.Lookup("get_local_variables"); ok {
		registerPrompts(tb)
	}
}

// anyDetected reports whether dir has tests of a framework dbg runs.
func anyDetected(dir string) bool {
	for _, fw := range frameworks() {
		if fw.Detect(dir) {
			return true
		}
	}
	return false
}

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// ProjectInput selects the project and its framework.
type ProjectInput struct {
	ProjectPath string `json:"projectPath,omitempty"`
	Language    string `json:"language,omitempty"`
	Framework   string `json:"framework,omitempty" jsonschema:"default: detected"`
}

// ListTestsInput is the input of list_tests.
type ListTestsInput struct {
	ProjectInput
	Package string      `json:"package,omitempty" jsonschema:"Go: default ./..."`
	Filter  string      `json:"filter,omitempty"`
	Limit   toolkit.Int `json:"limit,omitempty" jsonschema:"default 200"`
}

// ListTestsResult is the answer of list_tests.
type ListTestsResult struct {
	Project   string   `json:"project"`
	Framework string   `json:"framework"`
	Language  string   `json:"language"`
	Tests     []TestID `json:"tests"`
	Count     int      `json:"count"`
	Total     int      `json:"total"`
	Truncated bool     `json:"truncated,omitempty"`
}

const (
	defaultListLimit = 200
	maxListLimit     = 5000
)

func (x *Tests) listTests(ctx context.Context, in ListTestsInput) (ListTestsResult, error) {
	p, fw, err := x.resolve(ctx, in.ProjectInput, "", in.Package)
	if err != nil {
		return ListTestsResult{}, err
	}
	toolkit.Progress(ctx, "listing the %s tests of %s…", fw.Name, p.Dir)
	ids, err := fw.List(ctx, p, in.Package)
	err = asUnsupported(p.Dir, ids, err)
	if be, ok := err.(*BuildError); ok {
		return ListTestsResult{}, be.toolError()
	} else if te, ok := err.(*toolkit.ToolError); ok {
		return ListTestsResult{}, te
	} else if err != nil {
		return ListTestsResult{}, toolkit.NewError(toolkit.CodeAdapterFailed, err.Error(), "check that the runner is installed").Wrap(err)
	}
	limit := int(in.Limit)
	if limit <= 0 {
		limit = defaultListLimit
	}
	limit = min(limit, maxListLimit)
	res := ListTestsResult{Project: p.Dir, Framework: fw.Name, Language: fw.Language, Tests: []TestID{}}
	f := strings.ToLower(in.Filter)
	for _, t := range ids {
		if f != "" && !strings.Contains(strings.ToLower(t.ID), f) {
			continue
		}
		res.Total++
		if len(res.Tests) < limit {
			res.Tests = append(res.Tests, t)
		}
	}
	res.Count = len(res.Tests)
	res.Truncated = res.Count < res.Total
	return res, nil
}

// resolve finds the project and its framework: the one named, the one of
// the language, or the one detected (narrowed by the id's syntax when
// the project has several).
func (x *Tests) resolve(ctx context.Context, in ProjectInput, id, pkg string) (*Project, *Framework, error) {
	dir, err := x.m.ResolveProject(in.ProjectPath)
	if err != nil {
		return nil, nil, err
	}
	p := &Project{Dir: dir}
	if x.m.Warm() {
		p.boot = &x.boot
	}
	fw, err := pickFramework(dir, in.Framework, in.Language, id, pkg)
	if err != nil {
		return nil, nil, err
	}
	if a, ok := x.m.Adapters().Lookup(fw.Language); ok {
		decl := a.Traits()
		if decl.Interpreter != nil {
			p.Python = decl.Interpreter(ctx, adapters.Target{Mode: adapters.Launch, Cwd: dir}).Path
		}
		p.Agent = decl.CommandAgent
		p.RunsThrough = decl.RunsThrough
	}
	return p, fw, nil
}

func pickFramework(dir, name, language, id, pkg string) (*Framework, error) {
	if name != "" {
		if fw := frameworkNamed(name); fw != nil && fw.Unsupported != "" {
			return nil, unsupportedError(dir, fw)
		} else if fw != nil {
			return fw, nil
		}
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("framework %q is not supported", name),
			"pass one of availableOptions").WithOptions(frameworkNames()...)
	}
	var found []*Framework
	fromID := false
	for _, fw := range frameworks() {
		if language != "" && fw.Language != language {
			continue
		}
		if fw.Detect(dir) {
			found = append(found, fw)
		}
	}
	if len(found) == 0 {
		// A runner dbg recognises but does not support: named, with the
		// way to debug its tests, rather than "none found".
		if fw := unsupportedIn(dir); fw != nil && (language == "" || fw.Language == language) {
			return nil, unsupportedError(dir, fw)
		}
	}
	if len(found) == 0 && id != "" {
		// No runner's files or configuration, but an id only one
		// framework's syntax can mean (test.py::TestX::test_y).
		for _, fw := range frameworks() {
			if (language == "" || fw.Language == language) && fw.Claims(id) {
				found = append(found, fw)
				fromID = true
			}
		}
	}
	if len(found) > 1 && (id != "" || pkg != "") {
		var claimed []*Framework
		for _, fw := range found {
			if (id != "" && fw.Claims(id)) || (pkg != "" && fw.DefaultPackage != "") {
				claimed = append(claimed, fw)
			}
		}
		if len(claimed) > 0 {
			found = claimed
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		if language != "" {
			return nil, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("no %s test framework found in %s", language, dir),
				"pass framework, or projectPath of the project that has the tests").WithOptions(frameworkNames()...)
		}
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, "no test framework found in "+dir,
			"pass framework, or projectPath of the project that has the tests").WithOptions(frameworkNames()...)
	}
	var names []string
	for _, fw := range found {
		names = append(names, fw.Name)
	}
	if fromID {
		return nil, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("no test framework found in %s, and the id %q is in the syntax of several", dir, id),
			"pass framework: one of availableOptions").WithOptions(names...)
	}
	return nil, toolkit.NewError(toolkit.CodeInvalidArgument, "the project has tests of several frameworks",
		"pass framework: one of availableOptions").WithOptions(names...)
}
