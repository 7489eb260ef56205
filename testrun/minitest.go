package testrun

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/dbg-dev/dbg/sessions"
)

// minitestList loads test files with minitest but without its autorun,
// and prints every test as Class#method.
const minitestList = `require "minitest"; ARGV.each { |f| require File.expand_path(f) }; ` +
	`Minitest::Runnable.runnables.each { |r| r.runnable_methods.sort.each { |m| puts "#{r.name}##{m}" } }; $stdout.flush; exit!(0)`

// minitestFramework runs one minitest test file with ruby under rdbg,
// filtered to one test (--name=Class#method). A failed assertion raises
// Minitest::Assertion inside minitest, which rescues it: exception stops
// are taken as for RSpec.
func minitestFramework() *Framework {
	return &Framework{
		Name:          "minitest",
		Language:      "ruby",
		Detect:        func(dir string) bool { return len(minitestFiles(dir)) > 0 },
		List:          listMinitest,
		Plan:          planMinitest,
		Message:       rubyMessage,
		UserFile:      rubyUserFile,
		Claims:        func(id string) bool { return strings.Contains(id, "#test_") },
		Accept:        rubyAccept,
		PlanAfterList: true, // the file that holds the test comes from discovery
	}
}

// minitestFiles lists the project's test files that use minitest.
func minitestFiles(dir string) []string {
	var out []string
	_ = filepath.WalkDir(filepath.Join(dir, "test"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || len(out) >= maxTestFiles {
			return filepath.SkipDir
		}
		if d.IsDir() || !(strings.HasSuffix(path, "_test.rb") || strings.HasPrefix(d.Name(), "test_") && strings.HasSuffix(path, ".rb")) {
			return nil
		}
		if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), "minitest") {
			rel, _ := filepath.Rel(dir, path)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

// rubyEnv puts the project's lib and test folders on Ruby's load path,
// as rake's test task does.
func rubyEnv(p *Project) map[string]string {
	lib := filepath.Join(p.Dir, "lib") + string(os.PathListSeparator) + filepath.Join(p.Dir, "test")
	return mergeEnv(map[string]string{"RUBYLIB": lib}, p.Env)
}

func listMinitest(ctx context.Context, p *Project, _ string) ([]TestID, error) {
	var ids []TestID
	for _, f := range minitestFiles(p.Dir) {
		res, err := run(ctx, p.Dir, rubyEnv(p), []string{"ruby", "-e", minitestList, f})
		if err != nil {
			return nil, fmt.Errorf("ruby %s: %w", f, err)
		}
		if res.ExitCode != 0 {
			return ids, &BuildError{Tool: "ruby", Output: res.Output}
		}
		for _, l := range strings.Split(res.Output, "\n") {
			if l = strings.TrimSpace(l); strings.Contains(l, "#") {
				ids = append(ids, TestID{ID: l, File: f})
			}
		}
	}
	return ids, nil
}

func planMinitest(_ context.Context, p *Project, id TestID, stopAt StopAt) (*Plan, error) {
	args := []string{"--name=" + id.ID}
	abs := filepath.Join(p.Dir, filepath.FromSlash(id.File))
	pl := &Plan{
		Create: sessions.CreateRequest{Language: "ruby", Name: "test " + id.ID},
		Start: sessions.StartRequest{ScriptPath: abs, Args: args, Cwd: p.Dir, Env: rubyEnv(p),
			ExceptionFilters: []string{"any"}},
		Command: append([]string{"ruby", "-Ilib", "-Itest", id.File}, args...),
	}
	if stopAt.Mode == StopStart {
		_, method, _ := strings.Cut(id.ID, "#")
		line, err := rubyMethodStart(abs, method)
		if err != nil {
			return nil, err
		}
		pl.Breakpoints = append(pl.Breakpoints, sessions.BreakpointSpec{File: abs, Line: line})
	}
	return pl, nil
}

// rubyMethodStart is the line after `def method`.
func rubyMethodStart(file, method string) (int, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", file, err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if t := strings.TrimSpace(l); t == "def "+method || strings.HasPrefix(t, "def "+method+"(") {
			return i + 2, nil
		}
	}
	return 0, fmt.Errorf("no def %s in %s (a generated test: set a breakpoint instead)", method, filepath.Base(file))
}
