package sessions

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/sessions/toolkit"
)

type decodeIn struct {
	Line  Int    `json:"line"`
	Flag  Bool   `json:"flag"`
	Names []int  `json:"names"`
	Text  string `json:"text"`
}

func TestDecodeArgs(t *testing.T) {
	var in decodeIn
	if err := decodeArgs(json.RawMessage(`{"line":"12","flag":"true","text":"x"}`), &in); err != nil || in.Line != 12 || !in.Flag.Or(false) {
		t.Fatalf("%+v %v", in, err)
	}
	for _, bad := range []string{`{"line":"abc"}`, `{"line":1.5}`, `{"flag":"maybe"}`, `{"names":"x"}`, `[1]`, `{`} {
		var in decodeIn
		err := decodeArgs(json.RawMessage(bad), &in)
		var te *toolkit.ToolError
		if !errors.As(err, &te) || te.Code != toolkit.CodeInvalidArgument || te.Hint == "" {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

func FuzzDecodeArgs(f *testing.F) {
	f.Add([]byte(`{"line":"12","flag":true}`))
	f.Add([]byte(`{"names":[1,2],"text":"\u0000"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var in decodeIn
		_ = decodeArgs(data, &in)
	})
}

// Every tool answers the envelope; a handler panic is an INTERNAL_ERROR
// and the server keeps serving.
func TestToolboxEnvelopeAndPanics(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	tb := NewToolbox(srv, nil)
	AddTool(tb, "boom", "panics", func(ctx context.Context, in decodeIn) (struct{}, error) { panic("kaboom") })
	AddTool(tb, "echo", "echoes", func(ctx context.Context, in decodeIn) (decodeIn, error) { return in, nil })
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "boom", Arguments: map[string]any{}})
	if err != nil || !res.IsError {
		t.Fatalf("%+v %v", res, err)
	}
	var env struct {
		Success   bool
		Error     *toolkit.ToolError
		RequestID string
		Timestamp string
	}
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &env)
	if env.Success || env.Error == nil || env.Error.Code != toolkit.CodeInternal || env.RequestID == "" || env.Timestamp == "" {
		t.Fatalf("envelope %s", b)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"line": 3}})
	if err != nil || res.IsError {
		t.Fatalf("echo %+v %v", res, err)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 2 || tools.Tools[0].InputSchema == nil || tools.Tools[0].OutputSchema == nil {
		t.Fatalf("tools %+v %v", tools, err)
	}
}

func TestResolveProject(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "svc", "src", "main"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "svc", "pom.xml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "svc", "src", "main", "App.java")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	m := NewManager(Config{Project: filepath.Join(root, "svc")})
	if got, err := m.ResolveProject(file); err != nil || got != filepath.Join(root, "svc") {
		t.Fatalf("file inside project: %s %v", got, err)
	}
	if got, err := m.ResolveProject(""); err != nil || got != filepath.Join(root, "svc") {
		t.Fatalf("server project: %s %v", got, err)
	}
	var te *toolkit.ToolError
	if _, err := m.ResolveProject("/no/such/dir"); !errors.As(err, &te) || te.Code != toolkit.CodeNoProject {
		t.Fatalf("missing project: %v", err)
	}
}
