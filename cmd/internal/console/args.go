package console

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// BreakArgs turns a breakpoint spec into set_breakpoint's arguments:
// "FILE:LINE", "LINE" (in file, the current one), or "FUNC", each
// optionally followed by "if COND". Relative files are made absolute
// here, since the server may run in another directory.
func BreakArgs(spec, file string) (map[string]any, error) {
	spec = strings.TrimSpace(spec)
	where, cond := spec, ""
	if strings.HasSuffix(spec, " if") {
		spec += " "
	}
	if i := strings.Index(spec, " if "); i >= 0 {
		where, cond = strings.TrimSpace(spec[:i]), strings.TrimSpace(spec[i+4:])
		if cond == "" {
			return nil, fmt.Errorf("`if` needs a condition: break FILE:LINE if COND")
		}
	}
	if where == "" {
		return nil, fmt.Errorf("usage: break FILE:LINE [if COND] | break LINE | break FUNC")
	}
	args := map[string]any{}
	if cond != "" {
		args["condition"] = cond
	}
	if f, line, ok := FileLine(where, file); ok {
		args["file"], args["line"] = f, line
		return args, nil
	}
	if _, err := strconv.Atoi(where); err == nil || strings.ContainsAny(where, " /") {
		return nil, fmt.Errorf("%q: want FILE:LINE, LINE (with a current file) or a function name", where)
	}
	if i := strings.LastIndex(where, ":"); i > 0 && strings.Contains(where[:i], ".") && !strings.Contains(where, "::") {
		return nil, fmt.Errorf("%q: the line after the colon is not a number", where)
	}
	args["function"] = where
	return args, nil
}

// FileLine parses "FILE:LINE", or "LINE" when file (the current file) is
// known, into an absolute file and a line.
func FileLine(s, file string) (string, int, bool) {
	if n, err := strconv.Atoi(s); err == nil {
		if file == "" || n <= 0 {
			return "", 0, false
		}
		return file, n, true
	}
	i := strings.LastIndex(s, ":")
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil || n <= 0 {
		return "", 0, false
	}
	f := s[:i]
	if abs, err := filepath.Abs(f); err == nil {
		f = abs
	}
	return f, n, true
}

// SetArgs splits "VAR = VALUE" for set_variable.
func SetArgs(s string) (name, value string, err error) {
	name, value, ok := strings.Cut(s, "=")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if !ok || name == "" || value == "" {
		return "", "", fmt.Errorf("usage: set VAR = VALUE")
	}
	return name, value, nil
}
