package cobol

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters/native"
	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/dap/daptest"
)

// TestLayerComposesWithNative runs the COBOL layer in front of LLDB's in
// one proxy: a data item's evaluate is answered by the COBOL layer from
// a memory read it asks LLDB for, and a bare hit condition on a .cob line
// passes the COBOL layer and is taken out by LLDB's.
func TestLayerComposesWithNative(t *testing.T) {
	f := &Field{Name: "WS-N", Level: 1, Size: 3, Storage: "b_8", Numeric: true, Digits: 3, Usage: Display, Picture: "9(3)"}
	prog := &Program{Source: "/src/prog.cob", Fields: []*Field{f}}
	lldb, up := daptest.NewAdapter(t, func(req *dap.Message) (any, error) {
		var a struct {
			Expression string `json:"expression"`
		}
		_ = req.DecodeBody(&a)
		if req.Command == "evaluate" && strings.HasPrefix(a.Expression, "`memory read") {
			return map[string]any{"result": "0x5555: 0x30 0x34 0x32\n"}, nil
		}
		if req.Command == "setBreakpoints" {
			return map[string]any{"breakpoints": []map[string]any{{"id": 1, "verified": true}}}, nil
		}
		return nil, nil
	})
	px := native.NewProxy(up, native.Filters("cobol"), Layer(prog))
	t.Cleanup(px.Stop)
	conn := dap.NewConn(px.Client(), dap.Options{})
	t.Cleanup(func() { conn.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	resp, err := conn.Request(ctx, "evaluate", map[string]any{"expression": "WS-N", "frameId": 7})
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		Result string `json:"result"`
	}
	_ = resp.DecodeBody(&body)
	if want := Decode(f, []byte("042")); body.Result != want {
		t.Errorf("WS-N = %q; want %q", body.Result, want)
	}
	for _, m := range lldb.Requests("evaluate") {
		if strings.Contains(string(m.Arguments), `"WS-N"`) {
			t.Errorf("LLDB got the COBOL evaluate: %s", m.Arguments)
		}
	}

	if _, err := conn.Request(ctx, "setBreakpoints", map[string]any{"source": map[string]any{"path": "/src/prog.cob"},
		"breakpoints": []map[string]any{{"line": 12, "hitCondition": "2"}}}); err != nil {
		t.Fatal(err)
	}
	if got := string(lldb.Requests("setBreakpoints")[0].Arguments); strings.Contains(got, "hitCondition") {
		t.Errorf("LLDB got a hit condition: %s", got)
	}
}
