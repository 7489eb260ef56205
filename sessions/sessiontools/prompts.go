package sessiontools

import "github.com/dbg-dev/dbg/toolkit"

// registerPrompts adds the session tools' prompts to tb: attaching to a
// running service, finding who changes a value, and investigating a
// crash. It comes after the tools (AddPrompt checks every step against
// them).
func registerPrompts(tb *toolkit.Toolbox) {
	tb.AddPrompt(toolkit.Prompt{
		Name: "attach-to-service", Title: "Attach to a running service",
		Description: "Attach to a running process without stopping it, stop once at a line, inspect, and leave it running.",
		Arguments: []toolkit.PromptArgument{
			{Name: "language", Description: "the service's language", Required: true},
			{Name: "processId", Description: "its pid (or give port)"},
			{Name: "port", Description: "its debug port (or give processId)"},
			{Name: "file", Description: "source file of the line to stop at", Required: true},
			{Name: "line", Description: "the line", Required: true},
		},
		Intro: "Attach to the service without pausing it, stop once at file:line, read the stop, and detach: the service keeps running.",
		Steps: []toolkit.PromptStep{
			{Tool: "create_debug_session", Args: map[string]any{"language": "{language}", "processId": "{processId}", "port": "{port}", "stopOnEntry": false}, Why: "attaches; the answer's sessionId names the session"},
			{Tool: "set_breakpoint", Args: map[string]any{"sessionId": "{sessionId}", "file": "{file}", "line": "{line}"}, Why: "check verified"},
			{Tool: "wait_for_stop", Args: map[string]any{"sessionId": "{sessionId}", "timeoutMs": 60000}, Why: "make the service run that line meanwhile (send it a request)"},
			{Tool: "get_stack_trace", Args: map[string]any{"sessionId": "{sessionId}"}},
			{Tool: "get_local_variables", Args: map[string]any{"sessionId": "{sessionId}"}},
			{Tool: "remove_breakpoint", Args: map[string]any{"sessionId": "{sessionId}", "breakpointId": "{id}"}, Why: "id from set_breakpoint's answer"},
			{Tool: "continue_execution", Args: map[string]any{"sessionId": "{sessionId}"}},
			{Tool: "detach_from_process", Args: map[string]any{"sessionId": "{sessionId}"}, Why: "the service keeps running"},
		},
	})
	tb.AddPrompt(toolkit.Prompt{
		Name: "why-does-this-value-change", Title: "Find what changes a value",
		Description: "Stop where a variable or field is written and see the old and new value and the writing frame.",
		Arguments: []toolkit.PromptArgument{
			{Name: "language", Required: true},
			{Name: "program", Description: "the program to launch (scriptPath)", Required: true},
			{Name: "file", Description: "a source file where the value is in scope", Required: true},
			{Name: "line", Description: "a line there, before the change", Required: true},
			{Name: "expression", Description: "the variable or field, as the program writes it (obj.field)", Required: true},
		},
		Intro: "Watch the value with a data breakpoint: each write stops the program and says old → new and the writing frame. " +
			"Where set_data_breakpoint answers UNSUPPORTED, trace instead: add_trace with probes [{file, line, expressions: [expression]}] on the lines that may write it, continue_execution, then get_trace.",
		Steps: []toolkit.PromptStep{
			{Tool: "create_debug_session", Args: map[string]any{"language": "{language}"}},
			{Tool: "set_breakpoint", Args: map[string]any{"sessionId": "{sessionId}", "file": "{file}", "line": "{line}"}},
			{Tool: "start_debugging", Args: map[string]any{"sessionId": "{sessionId}", "scriptPath": "{program}"}, Why: "stops at the breakpoint"},
			{Tool: "set_data_breakpoint", Args: map[string]any{"sessionId": "{sessionId}", "expression": "{expression}", "accessType": "write"}},
			{Tool: "continue_execution", Args: map[string]any{"sessionId": "{sessionId}", "waitMs": 30000}, Why: "stops at the write: reason data breakpoint, old and new value"},
			{Tool: "get_stack_trace", Args: map[string]any{"sessionId": "{sessionId}"}, Why: "who wrote it"},
			{Tool: "close_debug_session", Args: map[string]any{"sessionId": "{sessionId}"}},
		},
	})
	tb.AddPrompt(toolkit.Prompt{
		Name: "investigate-crash", Title: "Investigate a crash",
		Description: "Run a program until its uncaught exception or panic and read the failing frame and the output.",
		Arguments: []toolkit.PromptArgument{
			{Name: "language", Required: true},
			{Name: "program", Description: "the program to launch (scriptPath)", Required: true},
		},
		Intro: "Launch the program breaking on uncaught exceptions: it stops on the raising line, with the exception's text in lastStop.",
		Steps: []toolkit.PromptStep{
			{Tool: "create_debug_session", Args: map[string]any{"language": "{language}"}},
			{Tool: "start_debugging", Args: map[string]any{"sessionId": "{sessionId}", "scriptPath": "{program}", "breakOnExceptions": "uncaught"}, Why: "answers at the crash"},
			{Tool: "get_stack_trace", Args: map[string]any{"sessionId": "{sessionId}"}},
			{Tool: "get_local_variables", Args: map[string]any{"sessionId": "{sessionId}"}, Why: "the failing frame's values"},
			{Tool: "get_output", Args: map[string]any{"sessionId": "{sessionId}"}, Why: "what it printed before"},
			{Tool: "close_debug_session", Args: map[string]any{"sessionId": "{sessionId}"}},
		},
	})
}
