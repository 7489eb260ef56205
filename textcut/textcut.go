// Package textcut cuts text to a size without splitting a UTF-8 rune, for
// every answer, message and output dbg bounds. It imports nothing of dbg's.
package textcut

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Mark ends a text that was cut.
const Mark = "…"

// Prefix is the longest prefix of s of at most n bytes that ends on a rune
// boundary.
func Prefix(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Clip is s cut to at most n bytes on a rune boundary, with [Mark] after
// a cut.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return Prefix(s, n) + Mark
}

// Runes is s cut to at most n runes, with [Mark] after a cut.
func Runes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:max(n, 0)]) + Mark
}

// Line is the first line of s, with [Mark] when more lines follow.
func Line(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return s[:i] + Mark
	}
	return s
}

// Quote quotes s for a message, cut to n bytes with a note of its whole
// length, so a message never echoes a huge input back.
func Quote(s string, n int) string {
	if len(s) <= n {
		return strconv.Quote(s)
	}
	return strconv.Quote(Prefix(s, n)) + fmt.Sprintf("%s (%d bytes)", Mark, len(s))
}

// Tail keeps the last n bytes of s, from a line start when one is in
// them and else from a rune start, and reports whether it cut.
func Tail(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	s = s[len(s)-max(n, 0):]
	if i := strings.IndexByte(s, '\n'); i >= 0 && i < len(s)-1 {
		return s[i+1:], true
	}
	for len(s) > 0 && !utf8.RuneStart(s[0]) {
		s = s[1:]
	}
	return s, true
}

// LastLines is the last n lines of s, without the newlines that end it.
func LastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-max(n, 0):]
	}
	return strings.Join(lines, "\n")
}
