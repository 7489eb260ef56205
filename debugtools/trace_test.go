package debugtools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

type traceNode struct {
	Method         string      `json:"method"`
	DurationMicros int64       `json:"durationMicros"`
	Throwable      string      `json:"throwable"`
	Children       []traceNode `json:"children"`
}

type traceDoc struct {
	Method string         `json:"method"`
	SQL    []SQLStatement `json:"sql"`
	Calls  []traceNode    `json:"calls"`
}

func TestTraceMethodCalls(t *testing.T) {
	t.Parallel()
	c := newJVMClient(t)
	f := startFixture(t)
	att := mustJVMOK(t, callJVM[AttachOut](c, "attach_local_jvm", map[string]any{"pid": f.pid, "waitForConnectionMillis": 60000}))
	out := mustJVMOK(t, callJVM[InvokeOut](c, "invoke_java_method", map[string]any{"className": "com.example.shop.OrderService",
		"methodName": "placeOrder", "traceMethodDTO": map[string]any{"traceMethod": true, "traceSQL": true, "traceSkipStartGetSetCheckBox": true},
		"argsJson": `{"order":{"type":"json_entity","content":"{\"id\":5,\"customer\":\"Tracy\",\"status\":\"NEW\"}"}}`}))
	if out.TraceOffsetPath == nil {
		t.Fatalf("no trace: %+v", out)
	}
	conn, _ := c.svc.Connection(*att.ConnectionID)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	text, err := conn.HTTP.ResultView(ctx, *out.TraceOffsetPath, "JSON")
	if err != nil {
		t.Fatal(err)
	}
	var doc traceDoc
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatalf("%v: %s", err, text)
	}
	if len(doc.Calls) != 1 || doc.Calls[0].Method != "com.example.shop.OrderService#placeOrder" {
		t.Fatalf("root call: %s", text)
	}
	var kids []string
	for _, k := range doc.Calls[0].Children {
		kids = append(kids, k.Method)
	}
	want := []string{"com.example.shop.OrderRepository#save", "com.example.shop.OrderRepository#find"}
	if len(kids) != 2 || kids[0] != want[0] || kids[1] != want[1] {
		t.Fatalf("children %v (getters skipped), trace %s", kids, text)
	}
	if len(doc.SQL) != 2 {
		t.Fatalf("trace SQL: %+v", doc.SQL)
	}
	// Without traceMethodDTO the instrumented classes record nothing.
	out = mustJVMOK(t, callJVM[InvokeOut](c, "invoke_java_method", map[string]any{"className": "com.example.shop.OrderService",
		"methodName": "findOrder", "argsJson": `{"id":{"type":"simple","content":"5"}}`}))
	if out.TraceOffsetPath != nil || !strings.Contains(str(out.Result), "customer=Tracy") {
		t.Fatalf("untraced call: %+v", out)
	}
}
