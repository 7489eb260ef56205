package toolkit

import (
	"context"
	"encoding/json"
	"testing"
)

// benchEvalIn and benchEvalOut are the shapes of evaluate_expression: a tool
// whose answers hold values, so that its calls read the redaction
// arguments too.
type benchEvalIn struct {
	refIn
	Expression  string `json:"expression"`
	FrameID     Int    `json:"frameId"`
	Context     string `json:"context"`
	SideEffects *Bool  `json:"sideEffects"`
}

type benchEvalOut struct {
	Result string `json:"result"`
}

// breakIn is a nested input: a list of objects, a map, an alias.
type breakIn struct {
	refIn
	BreakpointID Int               `json:"breakpointId" alias:"id"`
	Probes       []aliasProbe      `json:"probes"`
	Env          map[string]string `json:"env"`
}

// BenchmarkCallArgs measures the decoding of one call's arguments, from
// the raw JSON to the handler's input, through a tool's whole call.
func BenchmarkCallArgs(b *testing.B) {
	tb := NewToolbox(func(Tool) {}, nil)
	AddTool(tb, "eval", "", func(_ context.Context, in benchEvalIn) (benchEvalOut, error) {
		return benchEvalOut{Result: in.Expression}, nil
	}, Hints{Title: "Eval"}, ListReveal())
	AddTool(tb, "nested", "", func(_ context.Context, in breakIn) (nameOut, error) {
		return nameOut{Name: in.SessionID}, nil
	}, Hints{Title: "Nested"})
	for _, c := range []struct{ tool, args string }{
		{"eval", `{"sessionId":"python-1","expression":"total + 10","frameId":3,"context":"repl","reveal":false}`},
		{"nested", `{"sessionId":"go-1","id":4,"probes":[{"id":"t1","line":3},{"traceId":"t2","line":"4"}],"env":{"A":"1","B":"2"}}`},
	} {
		tool, _ := tb.Lookup(c.tool)
		args := json.RawMessage(c.args)
		if env, failed := tool.Call(context.Background(), args); failed {
			b.Fatalf("%s: %s", c.tool, env)
		}
		b.Run(c.tool, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				tool.Call(context.Background(), args)
			}
		})
	}
}

// BenchmarkDecodeArgs measures what a call does with its arguments
// alone: parse them once, decode the input, and read what the toolbox
// reads (reveal, the expression, the session the audit names).
func BenchmarkDecodeArgs(b *testing.B) {
	tb := NewToolbox(func(Tool) {}, nil)
	for _, c := range []struct {
		name, args string
		values     bool
		in         func() any
	}{
		{"eval", `{"sessionId":"python-1","expression":"total + 10","frameId":3,"context":"repl","reveal":false}`, true, func() any { return new(benchEvalIn) }},
		{"nested", `{"sessionId":"go-1","id":4,"probes":[{"id":"t1","line":3},{"traceId":"t2","line":"4"}],"env":{"A":"1","B":"2"}}`, false, func() any { return new(breakIn) }},
	} {
		raw := json.RawMessage(c.args)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				a := &callArgs{raw: raw}
				if err := a.decode(c.in(), []string{RevealParam}); err != nil {
					b.Fatal(err)
				}
				if c.values {
					if _, err := tb.redactArgsOf(a); err != nil {
						b.Fatal(err)
					}
				}
				if a.session(true) == "" {
					b.Fatal("no session")
				}
			}
		})
	}
}
