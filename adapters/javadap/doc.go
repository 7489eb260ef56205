// Package javadap is dbg's built-in Java debug adapter. It speaks the Java
// Debug Wire Protocol (JDWP) to a JVM started with
// -agentlib:jdwp=transport=dt_socket,... and serves the Debug Adapter
// Protocol (DAP) on top of it, so no IDE and no Java-side adapter is needed.
//
// # Layers
//
//   - packet.go: the JDWP wire format (handshake, command and reply
//     packets, id sizes) and the [Reader]/[Writer] codecs for packet data.
//   - client.go, commands.go, events.go: [Client], a JDWP connection with
//     request/reply correlation and composite event decoding.
//   - server.go and its neighbours: the DAP [Handler] (launch, attach,
//     breakpoints, stepping, variables, evaluate).
//
// # Use
//
//	err := javadap.Serve(ctx, stdio, nil) // serve one DAP client
//
// or, in-process, srv := javadap.NewServer() and
// adapters.InProcess(srv, log, srv.Close). The launch and attach arguments
// are [LaunchConfig] and [AttachConfig].
//
// # Behaviour
//
// Line breakpoints bind through class-prepare events filtered by source
// file name, so breakpoints in inner, anonymous and lambda-bearing classes
// bind when those classes load; until then they are unverified with a
// reason. Steps exclude JDK classes when justMyCode is on (the default)
// and step through synthetic methods. Collections and maps are shown by
// content (toArray, entrySet), boxed primitives by value, arrays in pages.
package javadap
