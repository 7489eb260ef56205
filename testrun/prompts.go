package testrun

import "github.com/dbg-dev/dbg/toolkit"

// registerPrompts adds debug-failing-test to tb; its steps name the test
// tools and the session tools.
func registerPrompts(tb *toolkit.Toolbox) {
	tb.AddPrompt(toolkit.Prompt{
		Name: "debug-failing-test", Title: "Debug a failing test",
		Description: "Run one test under the debugger to its first failure in your code and inspect it there.",
		Arguments: []toolkit.PromptArgument{
			{Name: "test", Description: "the test's id or part of its name", Required: true},
			{Name: "package", Description: "Go: the test's package (./cart)"},
			{Name: "framework", Description: "pytest, go, jest, vitest, node, junit, cargo, rspec or minitest (default: detected)"},
		},
		Intro: "Find the test's exact id, run it to its failure (outcome failed stops there; passed has no session), then read the failing frame.",
		Steps: []toolkit.PromptStep{
			{Tool: "list_tests", Args: map[string]any{"filter": "{test}", "package": "{package}", "framework": "{framework}"}, Why: "pick the exact id"},
			{Tool: "debug_test", Args: map[string]any{"test": "{test}", "package": "{package}", "framework": "{framework}"}, Why: "use the exact id; the answer has the failure's message, location, frames and sessionId"},
			{Tool: "get_local_variables", Args: map[string]any{"sessionId": "{sessionId}"}},
			{Tool: "get_stack_trace", Args: map[string]any{"sessionId": "{sessionId}"}},
			{Tool: "close_debug_session", Args: map[string]any{"sessionId": "{sessionId}"}},
		},
	})
}
