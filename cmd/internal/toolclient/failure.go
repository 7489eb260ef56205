package toolclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/toolkit"
)

// Failure is a tool's structured error (docs/contract.md, "Structured errors") as a Go error. Raw is
// the whole envelope, printed as it is with --json.
type Failure struct {
	Tool string
	Err  *toolkit.ToolError
	Raw  json.RawMessage
}

// Error renders the code and message, then the hint, the options and the
// next action on their own lines.
func (f *Failure) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", f.Err.Code, f.Err.Message)
	if f.Err.Hint != "" {
		fmt.Fprintf(&b, "\n  hint: %s", f.Err.Hint)
	}
	if len(f.Err.AvailableOptions) > 0 {
		fmt.Fprintf(&b, "\n  options: %s", strings.Join(f.Err.AvailableOptions, ", "))
	}
	if f.Err.NextAction != "" {
		fmt.Fprintf(&b, "\n  next: %s", f.Err.NextAction)
	}
	return b.String()
}

// Finish turns a command's error into its output: with --json a tool
// failure prints its whole envelope on stdout (scripts read error.code).
// The error is returned either way, so the exit status is 1.
func Finish(stdout io.Writer, asJSON bool, err error) error {
	var f *Failure
	if asJSON && errors.As(err, &f) {
		_ = iostreams.WriteRawJSON(stdout, f.Raw)
	}
	return err
}

// CallPrint calls a tool for a command taking --json, decoding its data
// into out. done says the command's output is complete and it returns
// err: the call failed (with asJSON, its error envelope is printed on
// ios.Out), or asJSON is set and the data is printed there. Otherwise
// the command prints out its own way.
func (c *Client) CallPrint(ctx context.Context, ios *iostreams.IOStreams, asJSON bool, name string, args map[string]any, out any) (done bool, err error) {
	raw, err := c.Call(ctx, name, args, out)
	if err != nil {
		return true, Finish(ios.Out, asJSON, err)
	}
	if asJSON {
		return true, ios.PrintRawJSON(raw)
	}
	return false, nil
}
