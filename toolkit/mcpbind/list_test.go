package mcpbind

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestListResultOmitsDefaultHints: tools/list leaves out the hints whose
// value is MCP's default, keeps the others and every other field, and a
// client reads the same annotations back.
func TestListResultOmitsDefaultHints(t *testing.T) {
	t.Parallel()
	no, yes := false, true
	in := &mcp.ListToolsResult{NextCursor: "c", Tools: []*mcp.Tool{
		{Name: "step", Description: "Step.", InputSchema: map[string]any{"type": "object"},
			Annotations: &mcp.ToolAnnotations{Title: "Step", DestructiveHint: &no, OpenWorldHint: &no}},
		{Name: "push", InputSchema: map[string]any{"type": "object"},
			Annotations: &mcp.ToolAnnotations{Title: "Push", DestructiveHint: &yes, IdempotentHint: true, OpenWorldHint: &yes}},
		{Name: "bare", InputSchema: map[string]any{"type": "object"}},
	}}
	b, err := json.Marshal(listResult{in})
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, absent := range []string{`"readOnlyHint":false`, `"idempotentHint":false`, `"annotations":null`} {
		if strings.Contains(got, absent) {
			t.Errorf("%s in %s", absent, got)
		}
	}
	for _, present := range []string{`"destructiveHint":false`, `"openWorldHint":false`, `"idempotentHint":true`, `"title":"Push"`, `"nextCursor":"c"`, `"description":"Step."`} {
		if !strings.Contains(got, present) {
			t.Errorf("no %s in %s", present, got)
		}
	}
	var back mcp.ListToolsResult
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Tools) != 3 || back.Tools[1].Annotations == nil || !*back.Tools[1].Annotations.DestructiveHint ||
		!back.Tools[1].Annotations.IdempotentHint || back.Tools[0].Annotations.ReadOnlyHint || back.Tools[2].Annotations != nil {
		t.Errorf("read back: %s", got)
	}
}
