package console

import (
	"bufio"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
)

// Process is a process the user may attach to.
type Process struct {
	PID      int
	Language string
	Command  string
}

// Pick lists procs and asks which one to attach to: its number in the
// list or its pid. It returns the pid.
func Pick(ios *iostreams.IOStreams, procs []Process) (int, error) {
	if len(procs) == 0 {
		return 0, fmt.Errorf("none of your processes looks debuggable (a Go, Python, Node, Java, Ruby program or a binary with debug info); start one, or pass --pid and --language")
	}
	w := tabwriter.NewWriter(ios.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "#\tPID\tLANGUAGE\tCOMMAND")
	for i, p := range procs {
		cmd := p.Command
		if len(cmd) > 70 {
			cmd = cmd[:67] + "..."
		}
		fmt.Fprintf(w, "%d\t%d\t%s\t%s\n", i+1, p.PID, p.Language, cmd)
	}
	_ = w.Flush()
	in := bufio.NewScanner(ios.In)
	for {
		fmt.Fprint(ios.Out, "attach to (# or pid, empty to cancel): ")
		if !in.Scan() {
			return 0, fmt.Errorf("no process picked")
		}
		ans := strings.TrimSpace(in.Text())
		if ans == "" {
			return 0, fmt.Errorf("no process picked")
		}
		n, err := strconv.Atoi(ans)
		if err != nil {
			fmt.Fprintln(ios.ErrOut, "a number, please")
			continue
		}
		if n >= 1 && n <= len(procs) {
			return procs[n-1].PID, nil
		}
		for _, p := range procs {
			if p.PID == n {
				return n, nil
			}
		}
		fmt.Fprintf(ios.ErrOut, "%d is neither a # nor a pid of the list\n", n)
	}
}
