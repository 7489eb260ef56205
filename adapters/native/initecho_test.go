package native

import (
	"encoding/json"
	"testing"

	"github.com/dbg-dev/dbg/dap"
)

// LLDB's echo of dbg's start commands leaves the output; what they print
// (an error) and the program's own lines stay.
func TestQuietInit(t *testing.T) {
	for _, c := range []struct {
		in, want string
		held     bool
	}{
		{in: "Running initCommands:\n(lldb) command script import \"/x/lldb_lookup.py\"\n(lldb) command source -s 1 \"/x/lldb_commands\"\n(lldb) command script import \"/c/dbg_lldb.py\"\n(lldb) script dbg_lldb.rust_enums(\"/c/e.json\")\n", held: true},
		{in: "Running initCommands:\n(lldb) command script import \"/x/y.py\"\nerror: module importing failed: No module named 'y'\n", want: "error: module importing failed: No module named 'y'\n"},
		{in: "(lldb) not dbg's\n", want: "(lldb) not dbg's\n"},
		{in: "hello i=1\n", want: "hello i=1\n"},
	} {
		body, _ := json.Marshal(map[string]any{"category": "console", "output": c.in})
		m := &dap.Message{Type: "event", Event: "output", Body: body}
		v := quietInit(m)
		if c.held {
			if v != dap.Hold {
				t.Errorf("%q passed as %s", c.in, m.Body)
			}
			continue
		}
		var got struct{ Output, Category string }
		_ = json.Unmarshal(m.Body, &got)
		if v != dap.Pass || got.Output != c.want || got.Category != "console" {
			t.Errorf("%q: %v %+v, want %q", c.in, v, got, c.want)
		}
	}
}
