// Package iostreams is where every dbg command reads and writes: one
// value holding stdin, stdout and stderr, with the terminal checks the
// commands need.
//
// The convention every command follows: data goes to Out (what a script
// pipes on: tables, JSON, a program's output), status goes to ErrOut
// (what happened, warnings, hints). With --json, Out carries exactly one
// JSON document, the tool's answer or its error envelope.
//
//	ios := iostreams.System()
//	ios.PrintJSON(map[string]int{"count": 1}) // on stdout
//	fmt.Fprintln(ios.ErrOut, "done")           // on stderr
//
// Tests use [Test], which writes to buffers:
//
//	ios, _, out, _ := iostreams.Test()
//	run(ios)
//	got := out.String()
package iostreams

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"strings"
)

// IOStreams are a command's standard streams. A command writes data to
// Out and status to ErrOut. The writers are not synchronised: a command
// that writes from several goroutines serialises them itself.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

// System returns the process's own streams.
func System() *IOStreams {
	return &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
}

// Test returns streams over buffers: stdin (empty), stdout and stderr.
func Test() (ios *IOStreams, in, out, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut}, in, out, errOut
}

// IsStdinTTY reports whether In is a terminal (a person typing, rather
// than a pipe or a file).
func (s *IOStreams) IsStdinTTY() bool { return isTerminal(s.In) }

// IsStdoutTTY reports whether Out is a terminal.
func (s *IOStreams) IsStdoutTTY() bool { return isTerminal(s.Out) }

// IsStderrTTY reports whether ErrOut is a terminal.
func (s *IOStreams) IsStderrTTY() bool { return isTerminal(s.ErrOut) }

func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// PrintJSON prints v on Out, indented, followed by a newline.
func (s *IOStreams) PrintJSON(v any) error { return WriteJSON(s.Out, v) }

// PrintRawJSON prints raw JSON on Out, indented (keys sorted).
func (s *IOStreams) PrintRawJSON(raw json.RawMessage) error { return WriteRawJSON(s.Out, raw) }

// WriteJSON prints v on w, indented, followed by a newline.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// WriteRawJSON prints raw JSON on w, indented (keys sorted).
func WriteRawJSON(w io.Writer, raw json.RawMessage) error {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	return WriteJSON(w, v)
}

// CompactJSON renders raw JSON on one line (keys sorted); raw that does
// not decode is returned as it is.
func CompactJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	var b strings.Builder
	_ = json.NewEncoder(&b).Encode(v)
	return strings.TrimSpace(b.String())
}
