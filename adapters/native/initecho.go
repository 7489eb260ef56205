package native

import (
	"encoding/json"
	"strings"

	"github.com/dbg-dev/dbg/dap"
)

// quietInit takes out of an output event LLDB's echo of the commands dbg
// runs at start ("Running initCommands:", then "(lldb) command script
// import ..."): they load the formatters and say nothing of the program.
// What the commands printed (an error) stays.
func quietInit(m *dap.Message) dap.Verdict {
	var body map[string]any
	if m.DecodeBody(&body) != nil {
		return dap.Pass
	}
	text, _ := body["output"].(string)
	if !strings.Contains(text, "initCommands:") && !strings.HasPrefix(text, "(lldb) ") {
		return dap.Pass
	}
	lines := strings.SplitAfter(text, "\n")
	kept := lines[:0]
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "Running initCommands:" || strings.HasPrefix(t, "(lldb) command script import ") ||
			strings.HasPrefix(t, "(lldb) command source ") || strings.HasPrefix(t, "(lldb) script dbg_lldb.") {
			continue
		}
		kept = append(kept, l)
	}
	out := strings.Join(kept, "")
	if out == text {
		return dap.Pass
	}
	if strings.TrimSpace(out) == "" {
		return dap.Hold
	}
	body["output"] = out
	m.Body, _ = json.Marshal(body)
	return dap.Pass
}
