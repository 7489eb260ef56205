// Package remote debugs programs on other machines: a host reached with
// ssh, a container with docker, a pod with kubectl. It never opens a
// network of its own: every byte goes through the client tool the user
// already uses for that machine, with the user's configuration and
// credentials, and dbg stores none.
//
// An attach through a via (create_debug_session's via, `dbg attach
// --via`) goes like this ([Remote.Reach], called by the session manager
// as its [sessions.Reacher]):
//
//  1. reach the target: one ssh master connection (ControlMaster, its
//     socket in a private folder), docker inspect, kubectl get pod;
//  2. read the process from /proc there (its executable, folder and
//     command line);
//  3. start the language's debug server on the target's loopback, as the
//     adapter declares it ([adapters.Remote]: debugpy's adapter, dlv dap,
//     lldb-server or gdbserver), or find the port the program serves a
//     debugger on (JDWP, the Node inspector after SIGUSR1, rdbg);
//  4. forward that port to this machine's loopback (ssh -O forward -L,
//     kubectl port-forward, a relay run by docker exec per connection);
//  5. pick the path mappings: the caller's, else those proposed from the
//     program's files and the project's tree, and after the attach from
//     the stack's paths for adapters that take a mapping while attached.
//
// The session then attaches to the forwarded port like to a local one.
// When it ends, the adapter lets the program go first, then the debug
// server is stopped (it has usually exited by itself), its folder on the
// target removed, the forward and the connection closed.
//
// # Security
//
// A debug server dbg starts listens on the target's 127.0.0.1 only, and
// is reached through the tunnel: debugpy, JDWP and the Node inspector run
// any code for whoever can connect, so they must never listen on a
// network.
//
// # Testing
//
// The tools run through a [Runner], so tests answer for docker and
// kubectl, which need an engine or a cluster, with recordings of their
// command line (testdata/); ssh is tested end to end against a real
// sshd in a network namespace (remotetest).
package remote
