// Package sessiontools holds the MCP tools of debug sessions
// (create_debug_session, set_breakpoint, step_over, get_local_variables,
// ...) and get_debug_tools_status. Each tool decodes its input, finds the
// session it names and calls the typed session API of package sessions
// (Session.Step with a StepKind, Session.Evaluate with an EvalContext):
// the DAP vocabulary stays inside sessions, the MCP one in here and in
// toolkit.
//
// Tool names and inputs follow mcp-debugger's, so prompts written for it
// work unchanged.
//
//	tb := mcpbind.NewToolbox(srv, nil)
//	sessiontools.New(m).Register(tb)
package sessiontools
