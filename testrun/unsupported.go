package testrun

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/dbg-dev/dbg/toolkit"
)

// Runners dbg recognises but cannot run one test of under the debugger.
// Found in a project where no supported framework is, they are named,
// with the way to debug their tests as programs, rather than answered
// with an empty list.

// unsupportedRunner is a JavaScript runner without support: the npm
// package that is it, the word of a script that runs it, and how to
// debug one of its test files.
type unsupportedRunner struct {
	name, pkg string
	word      *regexp.Regexp
	// how says how to debug a test file FILE of the runner's.
	how string
}

var unsupportedRunners = []unsupportedRunner{
	{"tape", "tape", regexp.MustCompile(`\btape\b`), "tape runs a file's tests when node runs the file: create_debug_session {language: javascript}, set_breakpoint in FILE, then start_debugging {scriptPath: FILE}"},
	{"ava", "ava", regexp.MustCompile(`\bava\b`), "run AVA itself under the debugger: create_debug_session {language: javascript}, set_breakpoint in FILE, then start_debugging {scriptPath: node_modules/ava/entrypoints/cli.mjs, args: [FILE, --serial]}"},
	{"tap", "tap", regexp.MustCompile(`\btap\b`), "node-tap runs a file's tests when node runs the file: create_debug_session {language: javascript}, set_breakpoint in FILE, then start_debugging {scriptPath: FILE}"},
	{"jasmine", "jasmine", regexp.MustCompile(`\bjasmine\b`), "run Jasmine itself under the debugger: create_debug_session {language: javascript}, set_breakpoint in FILE, then start_debugging {scriptPath: node_modules/jasmine/bin/jasmine.js, args: [FILE]}"},
	{"uvu", "uvu", regexp.MustCompile(`\buvu\b`), "uvu runs a file's tests when node runs the file: create_debug_session {language: javascript}, set_breakpoint in FILE, then start_debugging {scriptPath: FILE}"},
}

// unsupportedFrameworks are the table's entries for the runners without
// support: detected, and refused with Unsupported.
func unsupportedFrameworks() []*Framework {
	var out []*Framework
	for _, r := range unsupportedRunners {
		r := r
		out = append(out, &Framework{
			Name:        r.name,
			Language:    "javascript",
			Detect:      func(dir string) bool { return packageUses(dir, r.pkg, r.word) },
			Claims:      jsClaims,
			Unsupported: r.how,
		})
	}
	return out
}

// unsupportedError is the answer for a project whose tests run with fw,
// a runner without support: the runner, how to debug its tests, and the
// project's test files that use it.
func unsupportedError(dir string, fw *Framework) *toolkit.ToolError {
	files := jsTestFiles(dir, fw.Name, maxClosest)
	file := "test/x.test.js"
	if len(files) > 0 {
		file = files[0]
	}
	return toolkit.NewError(toolkit.CodeUnsupported,
		fmt.Sprintf("the project's tests run with %s, which list_tests and debug_test do not support", fw.Name),
		strings.ReplaceAll(fw.Unsupported, "FILE", file)).WithOptions(files...)
}

// asUnsupported turns what discovery answered of a supported framework
// into the unsupported runner's refusal when the framework found no
// tests at all and such a runner is the project's: its tests are not the
// framework's.
func asUnsupported(dir string, ids []TestID, err error) error {
	var te *toolkit.ToolError
	if len(ids) > 0 || (err != nil && !(errors.As(err, &te) && te.Code == toolkit.CodeTestNotFound)) {
		return err
	}
	if fw := unsupportedIn(dir); fw != nil {
		return unsupportedError(dir, fw)
	}
	return err
}

// unsupportedIn is the runner without support the project at dir uses,
// or nil.
func unsupportedIn(dir string) *Framework {
	for _, fw := range unsupportedFrameworks() {
		if fw.Detect(dir) {
			return fw
		}
	}
	return nil
}
