package testrun

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

// goFailFunction is where every failure of a Go test passes: t.Error,
// t.Fatal and a panic in the test (the testing package marks it failed
// before it re-panics) all call it.
const goFailFunction = "testing.(*common).Fail"

// goFramework runs `go test` under delve (its test mode). A breakpoint on
// testing.(*common).Fail, first hit only (a subtest's failure also fails
// its parents), catches the failure; the answer points at the first frame
// in the user's code.
func goFramework() *Framework {
	return &Framework{
		Name:     "go",
		Language: "go",
		Detect:   func(dir string) bool { return exists(dir, "go.mod") },
		List:     listGo,
		Plan:     planGo,
		Message:  goMessage,
		UserFile: func(p *Project, file string) bool { return under(file, p.Dir) },
		Claims:   func(id string) bool { top, _, _ := strings.Cut(id, "/"); return goTestName.MatchString(top) },
		Settle:   goSettle,

		Subtests:       goSubtestRan,
		DefaultPackage: ".",
	}
}

var goTestName = regexp.MustCompile(`^(Test|Fuzz)[\p{L}\p{N}_]*$`)

// listGo runs `go test -list .` on pkg (default ./...).
func listGo(ctx context.Context, p *Project, pkg string) ([]TestID, error) {
	if pkg == "" {
		pkg = "./..."
	}
	res, err := run(ctx, p.Dir, p.Env, []string{"go", "test", "-list", ".", pkg})
	if err != nil {
		return nil, fmt.Errorf("go test -list: %w", err)
	}
	mod := adapters.GoModulePath(p.Dir)
	var ids, pending []TestID
	for _, line := range strings.Split(res.Output, "\n") {
		switch {
		case goTestName.MatchString(line):
			pending = append(pending, TestID{ID: line})
		case strings.HasPrefix(line, "ok  \t"):
			f := strings.Split(line, "\t")
			rel := goRelPackage(mod, strings.TrimSpace(f[1]))
			for _, t := range pending {
				t.Package = rel
				ids = append(ids, t)
			}
			pending = nil
		}
	}
	if res.ExitCode != 0 {
		if strings.Contains(res.Output, "no Go files in") && !strings.Contains(pkg, "...") {
			return nil, toolkit.NewError(toolkit.CodeInvalidArgument, fmt.Sprintf("package %s has no Go files", pkg),
				"pass package, the directory of the test's package (./cart); list_tests lists every package's tests")
		}
		return withSubtests(p.Dir, ids), &BuildError{Tool: "go test", Output: res.Output}
	}
	return withSubtests(p.Dir, ids), nil
}

// goRelPackage turns an import path of module mod into "./dir".
func goRelPackage(mod, importPath string) string {
	if importPath == mod {
		return "."
	}
	if rest, ok := strings.CutPrefix(importPath, mod+"/"); ok && mod != "" {
		return "./" + rest
	}
	return importPath
}

// goRunPattern anchors each level of a test name for -test.run.
func goRunPattern(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

func planGo(_ context.Context, p *Project, id TestID, stopAt StopAt) (*Plan, error) {
	pkg := id.Package
	if pkg == "" {
		pkg = "."
	}
	dir := filepath.Join(p.Dir, filepath.FromSlash(pkg))
	args := []string{"-test.run", goRunPattern(id.ID), "-test.v"}
	pl := &Plan{
		Create: sessions.CreateRequest{Language: "go", Name: "test " + id.ID},
		Start: sessions.StartRequest{ScriptPath: dir, Args: args, Cwd: dir, Env: p.Env,
			DAPLaunchArgs: map[string]any{"mode": "test"}, BreakOnExceptions: "uncaught"},
		Functions: []string{goFailFunction},
		Command:   []string{"go", "test", pkg, "-count=1", "-run", goRunPattern(id.ID), "-v"},
	}
	if stopAt.Mode == StopStart {
		top, _, _ := strings.Cut(id.ID, "/")
		ip := adapters.GoModulePath(p.Dir)
		if pkg != "." {
			ip += "/" + strings.TrimPrefix(pkg, "./")
		}
		pl.Breakpoints = append(pl.Breakpoints, sessions.BreakpointSpec{Function: ip + "." + top})
	}
	return pl, nil
}

// goMessage is the panic's value when the test panicked, else the last
// message the test logged before failing ("cart_test.go:9: got 5, want 6").
func goMessage(ctx context.Context, r *failureReader) Failure {
	// The testing package's deferred handler holds the recovered value.
	for _, f := range r.frames {
		if f.Name == "testing.tRunner.func1" {
			if v, err := r.s.Evaluate(ctx, "err", f.ID, sessions.EvalWatch); err == nil && !strings.Contains(v.Result, "unreadable") {
				return Failure{Message: "panic: " + goPanicValue(v.Result)}
			}
		}
	}
	return Failure{Message: goLastLog(r.output(ctx, r.fw.Name, goLogged))}
}

// goPanicValue drops delve's interface wrapping: `interface {}(string) "x"`
// is "x".
func goPanicValue(v string) string {
	if strings.HasPrefix(v, "interface {}(") {
		if i := strings.Index(v, ") "); i > 0 {
			return v[i+2:]
		}
	}
	return v
}

var goLogLine = regexp.MustCompile(`^\s+[\w.-]+\.go:\d+: `)

// goLogged reports whether the output holds a message the test logged.
func goLogged(out string) bool { return goLastLog(out) != "" }

// goLastLog is the last logged message of the output (with its
// continuation lines).
func goLastLog(out string) string {
	lines := strings.Split(out, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if goLogLine.MatchString(lines[i]) {
			msg := []string{strings.TrimSpace(lines[i])}
			for _, l := range lines[i+1:] {
				if !strings.HasPrefix(l, "        ") {
					break
				}
				msg = append(msg, strings.TrimSpace(l))
			}
			return strings.Join(msg, "\n")
		}
	}
	return ""
}

// goSettle steps out of testing's frames back into the test when the
// failure came from t.Error or t.Fail, which return to it; t.Fatal and a
// panic never return, so those stops stay where they are and the answer
// points at the user's frame.
func goSettle(ctx context.Context, r *failureReader) error {
	k := -1
	for i, f := range r.frames {
		if f.File != "" && r.fw.UserFile(r.p, f.File) {
			k = i
			break
		}
		if strings.Contains(f.Name, "FailNow") || strings.Contains(f.Name, "tRunner") || strings.HasPrefix(f.Name, "runtime.") {
			return nil
		}
	}
	if k <= 0 || k > 3 {
		return nil
	}
	for ; k > 0; k-- {
		if _, err := r.s.Step(ctx, sessions.StepOut, r.stop.ThreadID, 3*time.Second); err != nil {
			return err
		}
	}
	return nil
}
