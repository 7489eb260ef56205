// Package debugtools gives dbg its JVM capabilities without an IDE, in a
// way that is wire-compatible with the DebugTools IDEA plugin's agent:
//
//   - discovery of local JVMs from hsperfdata files and the process table
//     ([Discover]);
//   - the HotSpot dynamic attach protocol, written in Go ([Attach]);
//   - dbg's own Java agent (agent/src), shipped as source and compiled on
//     first use with the target's JDK ([AgentBuilder]); a user-supplied
//     DebugTools agent jar works too ([Config].AgentJar, [AgentJarEnv]);
//   - the agent's TCP protocol ([Frame], [RunDTO], [RunResult]) and HTTP
//     endpoints ([AgentClient], [HTTPClient]);
//   - connections and attach orchestration ([Service]);
//   - the MCP tools of docs/contract.md, "JVM capabilities" ([Register]) and the "jvm" section of
//     get_debug_tools_status.
//
// # The agent
//
// The built-in agent listens on 127.0.0.1 only. It invokes methods (a
// Spring bean, else a live instance found from static fields, else a new
// one), converts arguments (simple, enum, json_entity, bean, class, file),
// keeps results for the TO_STRING/JSON/DEBUG views until cleared, runs
// Method Around scripts compiled with javax.tools, traces calls, captures
// logs (System.out/err, java.util.logging, Logback, Log4j2) and SQL (by
// retransforming the JDBC driver's classes with the JDK's internal ASM,
// else by wrapping DriverManager drivers).
//
// # Wire protocol
//
// Every TCP frame is a 12-byte header followed by a UTF-8 JSON body:
//
//	magic uint32 (20240508) | version u8 | serializer u8 (1 = JSON) |
//	command u8 | result flag u8 | body length uint32 (big-endian)
//
// Commands: heartbeat request 1 and answer 2, run a method 3 answered by 4,
// clear stored results 7. Arguments of a run bind by the key order of
// targetMethodContent, which [OrderedObject] keeps end to end.
package debugtools
