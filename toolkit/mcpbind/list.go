package mcpbind

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// listResult is a tools/list answer as dbg sends it: the go-sdk's, with
// each tool's annotations leaving out the hints whose value is MCP's
// default (readOnlyHint and idempotentHint false), which the go-sdk
// writes on every tool. It says the same in fewer bytes, and every
// byte of the list is paid by the agent reading it.
type listResult struct{ *mcp.ListToolsResult }

// compactTool is a tool whose annotations omit default hints.
type compactTool struct {
	*mcp.Tool
	Annotations *compactHints `json:"annotations,omitempty"`
}

type compactHints struct {
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  bool   `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
	ReadOnlyHint    bool   `json:"readOnlyHint,omitempty"`
	Title           string `json:"title,omitempty"`
}

func (r listResult) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(r.ListToolsResult)
	if err != nil {
		return nil, err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return nil, err
	}
	tools := make([]compactTool, len(r.Tools))
	for i, t := range r.Tools {
		tools[i].Tool = t
		if a := t.Annotations; a != nil {
			h := compactHints(*a)
			tools[i].Annotations = &h
		}
	}
	if fields["tools"], err = json.Marshal(tools); err != nil {
		return nil, err
	}
	return json.Marshal(fields)
}
