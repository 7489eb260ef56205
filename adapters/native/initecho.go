package native

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/dbg-dev/dbg/dap"
)

// LLDB echoes the commands a launch or attach asks it to run
// ("Running initCommands:", then "(lldb) command script import ..."):
// dbg's, which load its formatters and set the program's environment,
// and any an adapterConfig adds. They say nothing of the program, so the
// layer leaves the echo out of the output; what the commands printed
// (an error) stays.

// startCommands are the commands of a launch or attach, by their echo.
type startCommands struct {
	mu   sync.Mutex
	echo map[string]bool // "(lldb) " + command
}

// note records the commands of a launch or attach request.
func (c *startCommands) note(r *dap.Request) {
	var a map[string]any
	if r.DecodeBody(&a) != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, key := range []string{"initCommands", "preRunCommands", "postRunCommands", "attachCommands", "launchCommands"} {
		list, _ := a[key].([]any)
		for _, cmd := range list {
			if s, ok := cmd.(string); ok {
				if c.echo == nil {
					c.echo = map[string]bool{}
				}
				c.echo["(lldb) "+strings.TrimSpace(s)] = true
			}
		}
	}
}

// quiet takes the echo of the start commands out of an output event.
func (c *startCommands) quiet(m *dap.Message) dap.Verdict {
	var peek struct {
		Output string `json:"output"`
	}
	if m.DecodeBody(&peek) == nil && !strings.Contains(peek.Output, "(lldb) ") && !strings.Contains(peek.Output, "Commands:") {
		return dap.Pass // no echo: the body needs no map
	}
	var body map[string]any
	if m.DecodeBody(&body) != nil {
		return dap.Pass
	}
	text, _ := body["output"].(string)
	if !strings.Contains(text, "(lldb) ") && !strings.Contains(text, "Commands:") {
		return dap.Pass
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	lines := strings.SplitAfter(text, "\n")
	kept := lines[:0]
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if c.echo[t] || strings.HasPrefix(t, "Running ") && strings.HasSuffix(t, "Commands:") {
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
