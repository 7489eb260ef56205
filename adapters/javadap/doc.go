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
// Line breakpoints are verified when they are set, before their class
// loads: classfile.go reads the LineNumberTable of the class files
// compiled from the source file (the ones the adapter built, or those in
// the class path's directories and jars, found by classindex.go), so an
// answer names the line the breakpoint binds to, or says the line has no
// code. Only a file with no class file anywhere stays pending. The JDWP
// breakpoints themselves bind through class-prepare events filtered by
// source file name, so inner, anonymous and lambda-bearing classes bind
// when they load. Steps exclude JDK classes when justMyCode is on (the
// default) and step through synthetic methods. Collections and maps are
// shown by content (toArray, entrySet), boxed primitives by value,
// records by their components and enum constants by name, arrays in
// pages.
//
// The JDK is javaHome, $JAVA_HOME or java on PATH (jdk.go); JDK 17 and
// later are supported. Virtual threads, which JDWP's AllThreads leaves
// out, are listed when they stopped or hit a breakpoint (threads.go).
package javadap
