package native

import (
	"encoding/json"
	"testing"

	"github.com/dbg-dev/dbg/dap"
)

// LLDB's echo of a launch's commands leaves the output; what they print
// (an error) and the program's own lines stay, even one that reads as a
// command.
func TestQuietStartCommands(t *testing.T) {
	var c startCommands
	args, _ := json.Marshal(map[string]any{"initCommands": []string{
		`command script import "/x/lldb_lookup.py"`, `command source -s 1 "/x/lldb_commands"`,
		`command script import "/c/dbg_lldb.py"`, "settings set target.unset-env-vars PYTHONPATH"}})
	c.note(&dap.Request{Message: &dap.Message{Type: "request", Command: "launch", Arguments: args}})
	for _, tc := range []struct {
		in, want string
		held     bool
	}{
		{in: "Running initCommands:\n(lldb) command script import \"/x/lldb_lookup.py\"\n(lldb) command source -s 1 \"/x/lldb_commands\"\n(lldb) command script import \"/c/dbg_lldb.py\"\n", held: true},
		{in: "(lldb) settings set target.unset-env-vars PYTHONPATH\ni=0 total=0\n", want: "i=0 total=0\n"},
		{in: "Running initCommands:\n(lldb) command script import \"/x/lldb_lookup.py\"\nerror: module importing failed: No module named 'y'\n", want: "error: module importing failed: No module named 'y'\n"},
		{in: "(lldb) not a command of the launch\n", want: "(lldb) not a command of the launch\n"},
		{in: "hello i=1\n", want: "hello i=1\n"},
	} {
		body, _ := json.Marshal(map[string]any{"category": "console", "output": tc.in})
		m := &dap.Message{Type: "event", Event: "output", Body: body}
		v := c.quiet(m)
		if tc.held {
			if v != dap.Hold {
				t.Errorf("%q passed as %s", tc.in, m.Body)
			}
			continue
		}
		var got struct{ Output, Category string }
		_ = json.Unmarshal(m.Body, &got)
		if v != dap.Pass || got.Output != tc.want || got.Category != "console" {
			t.Errorf("%q: %v %+v, want %q", tc.in, v, got, tc.want)
		}
	}
}
