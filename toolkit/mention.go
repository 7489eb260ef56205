package toolkit

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
)

// Mentions of tools. dbg's hints, notes and status lines name the tools
// to call next ("pick another thread with list_threads"), but many
// clients let the model call only the tools listed, and a toolset not
// listed (docs/contract.md, "What an agent can afford and trust") leaves
// some out. So a text that names a tool the server does not list says,
// right after the name, how to list it ("list_threads (enable_toolset
// more lists it)"), or that the profile refuses it. This is the one
// place that does it: every answer's guidance fields ([guidanceKeys]) on
// their way out of [AddTool], and the steps of prompts ([Toolbox.RenderPrompt]).

// guidanceKeys are the fields of answers whose text is dbg's guidance to
// the agent, which names the tools to call: an error's or a status
// line's hint, a note on a cut list, a run configuration's unsupported
// note; and, in the capabilities of status, a capability's reason. Other
// fields are left as they are: values, output, messages (a test's
// failure, an application's log line, an error's message quoting the
// call) are the program's or the client's words.
var guidanceKeys = map[string]bool{"hint": true, "note": true, "unsupported": true}

// guidance reports whether the string value of key, in an object that
// sits in the field under, is guidance (see guidanceKeys).
func guidance(key, under string) bool {
	return guidanceKeys[key] || (key == "reason" && under == "capabilities")
}

// mentionNotes returns what a mention of each tool the server has but
// does not list adds: how to list it, or the profile that refuses it.
// The map is not changed once returned: adding a tool or enabling a
// toolset makes a new one.
func (tb *Toolbox) mentionNotes() map[string]string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if tb.notes != nil {
		return tb.notes
	}
	notes := make(map[string]string)
	for name, e := range tb.tools {
		switch {
		case e.refused:
			notes[name] = "refused by --profile " + string(tb.policy.Profile)
		case !e.listed:
			notes[name] = "enable_toolset " + e.tool.Toolset + " lists it"
		}
	}
	tb.notes = notes
	return notes
}

// fromShell reports whether a call comes from dbg's own CLI: the user at
// a shell runs any verb, listed or not, so its answers need no notes.
func fromShell(ctx context.Context) bool {
	c := CallerOf(ctx)
	if c == nil {
		return false
	}
	name := c.Client()
	return name == ShellClient || strings.HasPrefix(name, ShellClient+" ")
}

// isWordByte reports whether c may be part of a tool's name.
func isWordByte(c byte) bool {
	return c == '_' || ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') || ('A' <= c && c <= 'Z')
}

// eachMention calls f with the end of every word of b that is a key of
// notes, other than self (the tool answering, which the agent has), and
// its note; f returns false to stop. Every tool's name has an
// underscore (dbg's are snake_case), so only the words around one are
// looked up.
func eachMention(b []byte, notes map[string]string, self string, f func(end int, note string) bool) {
	for i := 0; i < len(b); {
		j := bytes.IndexByte(b[i:], '_')
		if j < 0 {
			return
		}
		start, end := i+j, i+j+1
		for start > 0 && isWordByte(b[start-1]) {
			start--
		}
		for end < len(b) && isWordByte(b[end]) {
			end++
		}
		if note, ok := notes[string(b[start:end])]; ok && string(b[start:end]) != self {
			if !f(end, note) {
				return
			}
		}
		i = end
	}
}

// mention adds its note after the first mention of each tool of notes
// in text (a text seldom names one twice; once is enough).
func mention(text string, notes map[string]string, self string) string {
	if len(notes) == 0 {
		return text
	}
	var b strings.Builder
	last := 0
	var seen []string
	eachMention([]byte(text), notes, self, func(end int, note string) bool {
		for _, s := range seen {
			if s == note {
				return true
			}
		}
		seen = append(seen, note)
		b.WriteString(text[last:end])
		b.WriteString(" (" + note + ")")
		last = end
		return true
	})
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// mentionAnswer returns an encoded envelope of tool self with the
// guidance fields that name tools the server does not list annotated by
// [mention]. An answer that names none, which is almost every one, is
// returned as it is after one pass over its bytes.
func (tb *Toolbox) mentionAnswer(envelope []byte, self string) []byte {
	notes := tb.mentionNotes()
	if len(notes) == 0 {
		return envelope
	}
	found := false
	eachMention(envelope, notes, self, func(int, string) bool { found = true; return false })
	if !found {
		return envelope
	}
	type splice struct {
		start, end int
		text       []byte
	}
	var splices []splice
	dec := json.NewDecoder(bytes.NewReader(envelope))
	// Where the decoder is: in an object (expecting a key, or the value
	// of key) or an array, innermost last.
	type level struct {
		object, wantKey bool
		key             string // of the value being read, in an object
		under           string // the key this object or array is the value of (an array's, for its items)
	}
	var stack []level
	// underOf is the key a container opened now is the value of.
	underOf := func(stack []level) string {
		if n := len(stack); n > 0 {
			if stack[n-1].object {
				return stack[n-1].key
			}
			return stack[n-1].under
		}
		return ""
	}
	// valueDone is called after each value: the object holding it
	// expects a key next.
	valueDone := func() {
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].wantKey = true
		}
	}
	for {
		before := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return envelope // not ours to fix: it goes out as it is
		}
		n := len(stack)
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{':
				stack = append(stack, level{object: true, wantKey: true, under: underOf(stack)})
			case '[':
				stack = append(stack, level{under: underOf(stack)})
			default:
				stack = stack[:n-1]
				valueDone()
			}
			continue
		}
		if n > 0 && stack[n-1].object && stack[n-1].wantKey {
			stack[n-1].key, stack[n-1].wantKey = tok.(string), false
			continue
		}
		if v, ok := tok.(string); ok && n > 0 && stack[n-1].object && guidance(stack[n-1].key, stack[n-1].under) {
			if s := mention(v, notes, self); s != v {
				start := before + int64(bytes.IndexByte(envelope[before:], '"'))
				if enc, err := Marshal(s); err == nil {
					splices = append(splices, splice{int(start), int(dec.InputOffset()), enc})
				}
			}
		}
		valueDone()
	}
	if len(splices) == 0 {
		return envelope
	}
	out := make([]byte, 0, len(envelope)+64*len(splices))
	last := 0
	for _, s := range splices {
		out = append(append(out, envelope[last:s.start]...), s.text...)
		last = s.end
	}
	return append(out, envelope[last:]...)
}
