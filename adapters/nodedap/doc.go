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
//   - [Handler]: the DAP side. Launch starts `node --inspect-brk=127.0.0.1:0`
//     in its own process group; attach connects by inspector port, by
//     WebSocket URL, or by pid (SIGUSR1 opens the inspector).
//   - Source maps: breakpoints in .ts files land on the compiled JavaScript,
//     and stack frames map back to the TypeScript lines.
//   - [Serve]: one client over any stream, for `dbg dap node`.
//
// # Example
//
//	h := nodedap.NewHandler()
//	defer h.Close()
//	_ = dap.Serve(ctx, stdio, h, nil)
package nodedap
