// Package httpguard is the security model of `dbg serve`: the HTTP
// middleware in front of the MCP handlers, and the per-project bearer
// tokens it checks.
//
// A [Guard] serves loopback peers only, with a loopback Host carrying the
// listening port (no DNS rebinding), an absent or loopback Origin, the
// bearer token compared in constant time, bodies up to [MaxBody] (413
// beyond), and at most [MaxFailures] failed authentications in
// [FailureWindow] (429 after that; the right token is never refused).
// Every answer carries Cache-Control: no-store, and a refused request's
// connection is closed after its answer.
//
// A [Server] bounds what clients can hold ([Limits]): header, read and
// idle timeouts, and a cap on connections in all and per remote
// address, where connections that never authenticated make room for new
// ones (silent ones first, then ones whose request has waited past a
// grace), so a flood of sockets never keeps a client with the token out.
//
//	token, _ := httpguard.ProjectToken(stateDir, project, false)
//	h := httpguard.New(token, port, time.Now).Wrap(mcpHandler)
//	err := httpguard.NewServer(h, httpguard.DefaultLimits).Serve(ln)
//
// Clients send the token with [BearerTransport].
package httpguard
