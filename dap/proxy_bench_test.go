package dap

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"testing"
)

// stackBody is a stackTrace answer of n frames.
func stackBody(n int) json.RawMessage {
	frames := make([]map[string]any, n)
	for i := range frames {
		frames[i] = map[string]any{"id": 1000 + i, "name": fmt.Sprintf("main.function%d", i), "line": 10 + i, "column": 0,
			"source": map[string]any{"name": "main.go", "path": "/home/user/project/cmd/server/main.go"}, "presentationHint": "normal"}
	}
	return mustMarshal(map[string]any{"stackFrames": frames, "totalFrames": n})
}

// BenchmarkProxyRoundTrip is one stackTrace request and its answer (3
// or 20 frames), from a Conn to an adapter in the same process that
// answers at once over a TCP loopback connection: direct, and through a
// Proxy with one layer that passes everything.
func BenchmarkProxyRoundTrip(b *testing.B) {
	for _, c := range []struct {
		name   string
		frames int
		proxy  bool
	}{{"direct/3", 3, false}, {"proxy/3", 3, true}, {"direct/20", 20, false}, {"proxy/20", 20, true}} {
		body := stackBody(c.frames)
		via := "direct"
		if c.proxy {
			via = "proxy"
		}
		b.Run(c.name, func(b *testing.B) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			defer ln.Close()
			go func() {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				readMessages(c, func(m *Message) {
					out, _ := json.Marshal(&Message{Seq: m.Seq + 1000, Type: "response", RequestSeq: m.Seq, Command: m.Command, Success: boolPtr(true), Body: body})
					_ = WriteFrame(c, out)
				})
			}()
			up, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				b.Fatal(err)
			}
			var rwc = net.Conn(up)
			if via == "proxy" {
				px := NewProxy(up, func(*Link) Hooks { return Hooks{} })
				defer px.Stop()
				rwc = px.Client()
			}
			c := NewConn(rwc, Options{})
			defer c.Close()
			ctx := context.Background()
			args := map[string]any{"threadId": 1, "levels": 20}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := c.Request(ctx, "stackTrace", args); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
