// Package toolkit is what every capability of dbg builds its MCP tools
// with. It knows nothing of debug sessions: the session manager, the
// run-configuration and Git tools and the JVM tools all stand on it.
//
// # Tools
//
// A [Toolbox] wraps an MCP server. [AddTool] registers a typed handler:
// the input schema comes from the input struct, the arguments are decoded
// by dbg (a wrong type is INVALID_ARGUMENT naming the field), and every
// answer is an [Envelope]. Handlers return a [*ToolError] made with
// [NewError], or any error, which [AsToolError] classifies:
//
//	type echoIn struct {
//		Line toolkit.Int `json:"line"`
//	}
//	toolkit.AddTool(tb, "echo", "Echo a line number.", func(ctx context.Context, in echoIn) (int, error) {
//		if in.Line <= 0 {
//			return 0, toolkit.NewError(toolkit.CodeInvalidArgument, "line must be positive", "pass a 1-based line")
//		}
//		return int(in.Line), nil
//	})
//
// [Int] and [Bool] accept the numeric and boolean strings clients send.
//
// # Status
//
// get_debug_tools_status asks each [StatusContributor] registered in the
// toolbox's [StatusRegistry] for a [StatusPart]: its capabilities'
// states ([Available], [Unavailable], ...) and suggested next actions
// ([NextAttachJVM], ...).
//
// # Processes and output
//
// Processes the server starts outside a debug session are recorded in a
// [ProcessRegistry], their output kept in an [OutputRing]. A
// [ConfigurationStarter] starts a run configuration for a capability that
// does not own them.
package toolkit
