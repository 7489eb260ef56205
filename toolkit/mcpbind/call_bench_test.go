package mcpbind

import (
	"context"
	"encoding/json"
	"fmt"
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
// notes), and the answer back at the client ("mcp"); and the same call
// through the toolbox alone, without MCP ("toolbox"). Their difference
// is what the go-sdk and its transport cost a call.
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
