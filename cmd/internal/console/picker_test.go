package console

import (
	"strings"
	"testing"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
)

func TestPick(t *testing.T) {
	procs := []Process{{PID: 40, Language: "go", Command: "/srv/api --port 8080"}, {PID: 77, Language: "python", Command: "python3 worker.py"}}
	for _, c := range []struct {
		input string
		want  int
		err   string
	}{
		{"2\n", 77, ""},
		{"40\n", 40, ""},
		{"x\n99\n1\n", 40, ""},
		{"\n", 0, "no process picked"},
		{"", 0, "no process picked"},
	} {
		ios, in, out, errOut := iostreams.Test()
		in.WriteString(c.input)
		got, err := Pick(ios, procs)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %d %v, want %q", c.input, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%q: %d %v, want %d", c.input, got, err, c.want)
		}
		if !strings.Contains(out.String(), "2  77   python    python3 worker.py") {
			t.Errorf("list:\n%s", out.String())
		}
		if c.input == "x\n99\n1\n" && (!strings.Contains(errOut.String(), "a number, please") || !strings.Contains(errOut.String(), "99 is neither")) {
			t.Errorf("stderr: %s", errOut.String())
		}
	}
	if _, err := Pick(&iostreams.IOStreams{}, nil); err == nil || !strings.Contains(err.Error(), "none of your processes") {
		t.Errorf("no processes: %v", err)
	}
}
