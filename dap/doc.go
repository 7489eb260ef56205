// Package dap is dbg's Debug Adapter Protocol wire layer.
//
// It has five parts:
//
//   - [FrameReader] and [WriteFrame]: the base protocol framing, tolerant
//     of extra headers, stray blank lines and noise.
//   - [Message] and [Decode]: the message envelope; arguments and bodies stay
//     raw JSON so unknown commands and events pass through, and
//     [Message.Typed] gives the github.com/google/go-dap value.
//   - [Conn]: a client connection with its own sequence numbers,
//     request/response correlation with a deadline on every request, event
//     delivery and reverse requests.
//   - [Proxy]: an in-process proxy in front of a real adapter, whose
//     behaviour comes from composable layers ([Layer], [Hooks]): the
//     fixes dbg makes to an adapter, and a language's on top of them.
//   - Transports: [StartProcess] (a child over stdio, in its own process
//     group), [Dial] and [Listen] (for adapters that dial in), plus [Serve]
//     and [Router], the server side of dbg's built-in adapters: one typed
//     handler per command, on go-dap's requests and responses.
//
// A [TrafficLog] records each connection's messages as JSON lines.
//
// # Example
//
//	proc, _ := dap.StartProcess(exec.Command("python3", "-m", "debugpy.adapter"), dap.ProcessOptions{Stdio: true})
//	conn := dap.NewConn(proc, dap.Options{OnEvent: func(m *dap.Message) { fmt.Println(m.Event) }})
//	resp, err := conn.Request(ctx, "initialize", map[string]any{"adapterID": "python"})
package dap
