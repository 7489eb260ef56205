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
// # Hostile input
//
// Arguments are decoded with exact keys: "sessionID" beside "sessionId"
// is INVALID_ARGUMENT naming the right key, never a silent override.
// Type errors name the field as the client wrote it and the kind it sent
// ("timeoutMillis" must be a number, not the boolean true). Every string
// argument is held to a limit by its name: ids [MaxIDBytes], paths
// [MaxPathBytes], the rest [MaxStringBytes] unless a maxBytes tag says
// otherwise; ids and paths hold no NUL byte. Errors echo values cut by
// [Clip], and [CheckReadable] refuses devices, pipes and /proc files as
// sources and scripts.
//
// # Business failures
//
// The envelope's success is false whenever the operation failed. When it
// ran and failed (a method that threw, a refused pull), the handler
// returns its data with a ToolError marked [ToolError.KeepData]: the code
// says which failure, and data keeps the tool's own fields.
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
