// Package debugtools gives dbg its JVM capabilities without an IDE, in a
// way that is wire-compatible with the DebugTools IDEA plugin's agent:
//
//   - discovery of local JVMs from hsperfdata files and the process table
//     ([Discover]);
//   - the HotSpot dynamic attach protocol, written in Go ([Attach]);
//   - dbg's own Java agent, shipped as source and compiled on first use
//     ([AgentJar]); a user-supplied DebugTools agent jar works too;
//   - the agent's TCP protocol ([Frame], [RunDTO], [RunResult]) and HTTP
//     endpoints ([AgentClient], [HTTPClient]);
//   - the MCP tools of SPEC §3 ([Register]).
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
