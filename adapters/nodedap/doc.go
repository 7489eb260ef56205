// Package nodedap is dbg's built-in debug adapter for JavaScript and
// TypeScript. It serves the Debug Adapter Protocol and drives Node.js
// through the Chrome DevTools Protocol (CDP) its inspector speaks.
//
// # Parts
//
//   - [Message], [DecodeMessage] and [Client]: the CDP wire over one
//     WebSocket (github.com/coder/websocket), with request ids, typed
//     errors ([CDPError]) and in-order event delivery.
//   - [ListTargets]: the inspector's /json/list discovery.
//   - [Handler]: the DAP side. Launch ([LaunchConfig]) starts
//     `node --inspect-brk=127.0.0.1:0 script.js` in its own process group
//     and reads the inspector's address from its stderr; attach
//     ([AttachConfig]) connects by inspector port, by WebSocket URL, or by
//     pid (SIGUSR1 opens the inspector; the port it took is read from the
//     process's sockets).
//   - Breakpoints: lines (Debugger.setBreakpointByUrl) with conditions, hit
//     counts and logpoints; functions, found by name in the loaded scripts;
//     exceptions, all or uncaught.
//   - Source maps: breakpoints in .ts files land on the compiled JavaScript
//     (also in modules loaded later: an instrumentation breakpoint holds
//     each script with a source map until its breakpoints are set), and
//     stack frames map back to the TypeScript lines. A .ts program runs
//     through the project's tsx or ts-node, or as its compiled JavaScript.
//     A file loaded as code transformed from it under its own name (Vite's
//     module runner, Vitest) has its breakpoints moved through its map.
//   - Threads: the main thread and every worker_threads Worker, each
//     debugged over its own inspector session relayed through the main one.
//     "exceptionThreads": "workers" applies the exception filters in the
//     workers only (a test runner whose tests run in workers).
//   - Child processes: a child the launched program forks inherits
//     --inspect-brk, announces its inspector on the shared stderr, and
//     waits for a debugger. It becomes a child session: a startDebugging
//     reverse request (request "attach", the child's inspector in the
//     configuration) asks the client for a new connection, whose attach
//     holds the child at its start until that session's breakpoints are
//     set. A child whose announcement does not reach that stderr (fork
//     with silent: true) is found among the program's processes (Linux:
//     /proc). A child nobody attached to within 10s is let run. A client
//     that did not announce supportsStartDebuggingRequest, or refuses the
//     request, gets the child as one more thread of the session instead.
//   - Variables: scopes (Local, Closure, Script, Global), object properties,
//     arrays, Map and Set entries; getters are shown and never called.
//   - [Serve]: one client over any stream, for `dbg dap node`.
//
// node's own code (node:internal/...) is skipped when stepping and left out
// of stack traces ("skipFiles": ["<node_internals>/**"] by default).
//
// # Example
//
//	h := nodedap.NewHandler()
//	defer h.Close()
//	_ = dap.Serve(ctx, stdio, h, nil)
package nodedap
