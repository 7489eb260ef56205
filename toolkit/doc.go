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
// Every tool declares its [Hints] where it is added (a title; read-only,
// destructive, idempotent, open-world; whether it alters the program),
// which clients read as MCP annotations, and its toolset ([InToolset]):
//
//	toolkit.AddTool(tb, "git_push", "Push the branch.", push,
//		toolkit.Hints{Title: "Git push", Destructive: true, OpenWorld: true, Alters: true},
//		toolkit.InToolset("git"))
//
// # Toolsets and policy
//
// A server lists [CoreToolset] and the toolsets its [Policy] names, or
// those whose [Toolset] Wanted says the project needs (of a set with
// Lead tools, those only); [AddToolsetTool] adds enable_toolset, which
// lists more at run time. A tool not listed answers calls all the same
// ([Toolbox.Lookup]), and a hint that names one says how to list it. The policy's [Profile]
// refuses tools by their hints (UNSUPPORTED, naming the profile), its
// ConfirmDestructive asks the call's [Caller] before a destructive call
// (CANCELLED on a no), and its [AuditLog] records every call of a tool
// that is not read-only.
//
// # Progress, links and prompts
//
// Long steps report lines with [Progress] to the receiver [WithProgress]
// put in the context: the MCP binding sends them as
// notifications/progress, the CLI prints them. Answers of tools added
// with [LinkResources] link the resources their data names
// ([ResourceTemplate].LinkField). [Prompt]s are sequences of the
// toolbox's own calls, checked against the tools when added.
//
// # Hostile input
//
// Arguments are decoded once per call, with exact keys: "sessionID" beside "sessionId"
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
