package sessions

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"strings"
)

// maxSourceBytes bounds the source files dbg reads for context.
const maxSourceBytes = 8 << 20

// readLines reads a source file's lines (nil when unreadable or huge).
func readLines(path string) []string {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() > maxSourceBytes {
		return nil // devices and FIFOs would block or never end
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(io.LimitReader(f, maxSourceBytes))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

// sourceLine returns one line (1-based), trimmed, or "".
func sourceLine(path string, line int) string {
	lines := readLines(path)
	if line < 1 || line > len(lines) {
		return ""
	}
	return strings.TrimSpace(lines[line-1])
}

// SourceLine is one line of a source excerpt.
type SourceLine struct {
	Line    int    `json:"line"`
	Text    string `json:"text"`
	Current bool   `json:"current,omitempty"`
}

// SourceLines are the source lines of an answer. They decode from either
// form of a stop's answer: the full form's list of {line, text}, or the
// compact form's {first, lines} (docs/contract.md, "What an agent can
// afford and trust").
type SourceLines []SourceLine

func (s *SourceLines) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '{' {
		var compact struct {
			First int      `json:"first"`
			Lines []string `json:"lines"`
		}
		if err := json.Unmarshal(b, &compact); err != nil {
			return err
		}
		*s = make(SourceLines, len(compact.Lines))
		for i, text := range compact.Lines {
			(*s)[i] = SourceLine{Line: compact.First + i, Text: text}
		}
		return nil
	}
	return json.Unmarshal(b, (*[]SourceLine)(s))
}

// SourceContext returns up to context lines around line.
func SourceContext(path string, line, context int) ([]SourceLine, int) {
	return linesAround(readLines(path), line, context)
}

// linesAround returns up to context lines of lines around line, and how
// many lines there are.
func linesAround(lines []string, line, context int) ([]SourceLine, int) {
	if len(lines) == 0 {
		return nil, 0
	}
	if context < 0 {
		context = 0
	}
	if context > 200 {
		context = 200
	}
	from, to := line-context, line+context
	if from < 1 {
		from = 1
	}
	if to > len(lines) {
		to = len(lines)
	}
	var out []SourceLine
	for l := from; l <= to; l++ {
		out = append(out, SourceLine{Line: l, Text: lines[l-1], Current: l == line})
	}
	return out, len(lines)
}
