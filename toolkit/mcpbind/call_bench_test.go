package mcpbind

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/toolkit"
)

// stepIn and stepOut have the shape of step_over's call and answer: a
// session, a stop with its location and source, the changed variables
// (values: the answer is redacted).
type stepIn struct {
	SessionID string      `json:"sessionId"`
	ThreadID  toolkit.Int `json:"threadId"`
}

type stepVar struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	Type  string `json:"type,omitempty"`
}

type stepOut struct {
	SessionID string    `json:"sessionId"`
	State     string    `json:"state"`
	Reason    string    `json:"reason"`
	ThreadID  int       `json:"threadId"`
	File      string    `json:"file"`
	Line      int       `json:"line"`
	Function  string    `json:"function"`
	Source    []string  `json:"source"`
	Changed   []stepVar `json:"changed"`
}

func newStepOut(sessionID string) stepOut {
	o := stepOut{SessionID: sessionID, State: "paused", Reason: "step", ThreadID: 1,
		File: "/home/u/src/loadloop/main.go", Line: 14, Function: "main.main"}
	for i := range 7 {
		o.Source = append(o.Source, fmt.Sprintf("%d\t\ttotal += i * %d // a line of the loop", 11+i, i))
	}
	for i := range 5 {
		o.Changed = append(o.Changed, stepVar{Name: fmt.Sprintf("v%d", i), Value: fmt.Sprintf("%d", i*1000), Type: "int"})
	}
	return o
}

// BenchmarkToolCall measures a step-like call end to end: a go-sdk
// client's tools/call over in-memory transports, the server's handler,
// the toolbox's guard (decoding, the audit line, redaction, mention
// notes), and the answer back at the client ("mcp"); the same call sent
// as bytes by a raw JSON-RPC client, which reads the answer's bytes
// ("server": what the server's process spends, go-sdk's server and its
// transport included); and the call through the toolbox alone, without
// MCP ("toolbox"). The differences are what the go-sdk's client, and its
// server and transport, cost a call.
func BenchmarkToolCall(b *testing.B) {
	state := b.TempDir() + "/state"
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	tb := NewToolbox(srv, nil)
	tb.SetPolicy(toolkit.Policy{Audit: toolkit.NewAuditLog(state, nil, nil)})
	toolkit.AddTool(tb, "step", "", func(_ context.Context, in stepIn) (stepOut, error) {
		return newStepOut(in.SessionID), nil
	}, toolkit.Hints{Title: "Step"})
	cs := connect(b, srv, nil)
	ctx := context.Background()
	args := map[string]any{"sessionId": "go-1"}
	raw, _ := json.Marshal(args)
	tool, _ := tb.Lookup("step")
	b.Run("toolbox", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, failed := tool.Call(ctx, raw); failed {
				b.Fatal("failed")
			}
		}
	})
	b.Run("server", func(b *testing.B) {
		conn := rawSession(b, srv)
		defer conn.Close()
		call := []byte(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"step","arguments":{"sessionId":"go-1"}}}`)
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			res := conn.roundTrip(b, fmt.Appendf(nil, string(call), i+2))
			if !bytes.Contains(res, []byte(`"structuredContent"`)) || bytes.Contains(res, []byte(`"isError":true`)) {
				b.Fatalf("%s", res)
			}
		}
	})
	b.Run("mcp", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "step", Arguments: args})
			if err != nil || res.IsError || len(res.Content) != 1 {
				b.Fatalf("%+v %v", res, err)
			}
		}
	})
}

// rawConn is a client's end of a stdio-like pipe to a server: one JSON
// message a line.
type rawConn struct {
	io.Closer
	w *io.PipeWriter
	r *bufio.Reader
}

// rawSession connects a raw client to srv and initializes an MCP session
// of protocol 2025-11-25 (no per-request metadata).
func rawSession(b *testing.B, srv *mcp.Server) *rawConn {
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ss, err := srv.Connect(context.Background(), &mcp.IOTransport{Reader: sr, Writer: sw}, nil)
	if err != nil {
		b.Fatal(err)
	}
	c := &rawConn{Closer: closeFunc(func() error { cw.Close(); return ss.Wait() }), w: cw, r: bufio.NewReader(cr)}
	c.roundTrip(b, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`))
	if _, err := cw.Write([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")); err != nil {
		b.Fatal(err)
	}
	return c
}

// roundTrip sends one request and returns the next message.
func (c *rawConn) roundTrip(b *testing.B, req []byte) []byte {
	if _, err := c.w.Write(append(req, '\n')); err != nil {
		b.Fatal(err)
	}
	line, err := c.r.ReadBytes('\n')
	if err != nil {
		b.Fatal(err)
	}
	return line
}

type closeFunc func() error

func (f closeFunc) Close() error { return f() }
