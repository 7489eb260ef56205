package toolclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/toolkit"
)

// fakeServer serves tools answering fixed texts.
func fakeServer(answers map[string]string) func(context.Context) (*mcp.Server, func()) {
	return func(context.Context) (*mcp.Server, func()) {
		srv := mcp.NewServer(&mcp.Implementation{Name: "fake", Version: "1"}, nil)
		for name, text := range answers {
			srv.AddTool(&mcp.Tool{Name: name, InputSchema: &jsonschema.Schema{Type: "object"}},
				func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
				})
		}
		return srv, func() {}
	}
}

func newTestClient(t *testing.T, answers map[string]string) (*Client, *bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	closed := new(bool)
	serve := fakeServer(answers)
	c, err := New(ctx, Config{StateDir: t.TempDir(), Project: t.TempDir(), Version: "test", Serve: func(ctx context.Context) (*mcp.Server, func()) {
		srv, _ := serve(ctx)
		return srv, func() { *closed = true }
	}})
	if err != nil {
		t.Fatal(err)
	}
	return c, closed
}

func TestCall(t *testing.T) {
	c, closed := newTestClient(t, map[string]string{
		"ok":      `{"success":true,"data":{"n":7},"requestId":"r","timestamp":"t"}`,
		"fails":   `{"success":false,"error":{"code":"NO_PROJECT","message":"m","retryable":false},"requestId":"r","timestamp":"t"}`,
		"nodata":  `{"success":true}`,
		"garbage": `not json`,
	})
	if !c.InProcess() {
		t.Fatal("no daemon runs, yet the client is not in-process")
	}
	ctx := context.Background()
	var out struct{ N int }
	raw, err := c.Call(ctx, "ok", nil, &out)
	if err != nil || out.N != 7 || string(raw) != `{"n":7}` {
		t.Fatalf("ok: %s %+v %v", raw, out, err)
	}
	_, err = c.Call(ctx, "fails", map[string]any{"x": 1}, nil)
	var f *Failure
	if !errors.As(err, &f) || f.Tool != "fails" || f.Err.Code != toolkit.CodeNoProject {
		t.Fatalf("fails: %v", err)
	}
	for _, name := range []string{"nodata", "garbage", "missing"} {
		if _, err := c.Call(ctx, name, nil, nil); err == nil || errors.As(err, &f) {
			t.Errorf("%s: error %v, want a plain error", name, err)
		}
	}
	c.Close()
	if !*closed {
		t.Fatal("Close did not end the in-process server's work")
	}
}

func TestFailureText(t *testing.T) {
	f := &Failure{Tool: "x", Err: toolkit.NewError(toolkit.CodeConnectionNotFound, "no DebugTools connection \"a-1\"", "pass one of availableOptions").
		WithOptions("b-2", "c-3").WithNext(toolkit.NextSelectConnection)}
	want := "CONNECTION_NOT_FOUND: no DebugTools connection \"a-1\"\n  hint: pass one of availableOptions\n  options: b-2, c-3\n  next: SELECT_CONNECTION"
	if got := f.Error(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestFinishJSON(t *testing.T) {
	raw := json.RawMessage(`{"success":false,"error":{"code":"NO_PROJECT","message":"m","retryable":false},"requestId":"r","timestamp":"t"}`)
	f := &Failure{Tool: "x", Err: toolkit.NewError(toolkit.CodeNoProject, "m", ""), Raw: raw}
	var out bytes.Buffer
	if err := Finish(&out, true, f); err != f {
		t.Fatalf("Finish returned %v, want the failure", err)
	}
	var env Envelope
	if err := json.Unmarshal(out.Bytes(), &env); err != nil || env.Success || env.Error == nil || env.Error.Code != toolkit.CodeNoProject {
		t.Fatalf("printed %q (%v)", out.String(), err)
	}
	out.Reset()
	if err := Finish(&out, false, f); err != f || out.Len() != 0 {
		t.Fatalf("without --json: printed %q, err %v", out.String(), err)
	}
	plain := errors.New("plain")
	if err := Finish(&out, true, plain); err != plain || out.Len() != 0 {
		t.Fatalf("a plain error: printed %q, err %v", out.String(), err)
	}
}

// With StartDaemon set the client never serves in-process: a daemon that
// fails to start is the client's error, one that starts but is not found
// is said so.
func TestStartDaemon(t *testing.T) {
	ctx := context.Background()
	called := false
	_, err := New(ctx, Config{StateDir: t.TempDir(), Project: t.TempDir(), Version: "test",
		Serve: func(context.Context) (*mcp.Server, func()) { t.Fatal("served in-process"); return nil, nil },
		StartDaemon: func(context.Context, string) error {
			called = true
			return errors.New("no room for a daemon")
		}})
	if !called || err == nil || err.Error() != "no room for a daemon" {
		t.Fatalf("called %v, err %v", called, err)
	}
	_, err = New(ctx, Config{StateDir: t.TempDir(), Project: t.TempDir(), Version: "test",
		StartDaemon: func(context.Context, string) error { return nil }})
	if err == nil || !strings.Contains(err.Error(), "started but does not answer") {
		t.Fatalf("err %v", err)
	}
}
