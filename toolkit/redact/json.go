package redact

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// valueKeys are the fields of an answer that hold a program's values:
// a variable's value, an evaluation's result, a change's old and new
// values, a trace's first, last, min and max, sampled values.
var valueKeys = map[string]bool{
	"value": true, "result": true, "old": true, "new": true, "values": true,
	"first": true, "last": true, "min": true, "max": true, "sample": true, "samples": true,
}

// nameKeys name the value of the object holding them: a variable's name,
// an evaluated or traced expression, an adapter's evaluateName.
var nameKeys = []string{"name", "expression", "evaluateName"}

// ValueKey reports whether an answer field of this name holds values.
func ValueKey(key string) bool { return valueKeys[key] }

// JSON returns data, a tool's answer as JSON, with its credentials
// replaced by [Mark]:
//
//   - in an object whose name, expression or evaluateName looks like a
//     credential (see [SecretName]), every value field (see [ValueKey]),
//     at any depth below it;
//   - the value of an object key that looks like a credential (a map's
//     entry, an environment variable);
//   - in every other value field, the credential shapes of [String].
//
// named says whether the answer as a whole is the value of a credential
// name (an evaluate_expression of "password"). Every byte not redacted
// stays as it was; an object or array nested deeper than 64 levels is
// replaced whole. Data that is not valid JSON is returned unchanged.
func JSON(data []byte, named bool) []byte {
	w := walker{keys: map[string]bool{}}
	out, changed := w.walk(data, named, named, 0)
	if !changed {
		return data
	}
	return out
}

// maxDepth bounds the recursion; a deeper object or array is replaced
// whole by Mark (redaction fails closed).
const maxDepth = 64

// walker rewrites one answer, remembering which of its keys look like
// credentials (an answer repeats its keys in every member).
type walker struct{ keys map[string]bool }

func (w *walker) secretKey(k []byte) bool {
	if valueKeys[string(k)] || isNameKey(k) {
		return false
	}
	secret, ok := w.keys[string(k)]
	if !ok {
		secret = SecretName(string(k))
		w.keys[string(k)] = secret
	}
	return secret
}

// walk rewrites one JSON value, raw exactly. secret: it belongs to a
// credential; value: it sits in a value field (or is the value of a
// credential key). It returns raw itself when nothing changed.
func (w *walker) walk(raw []byte, secret, value bool, depth int) ([]byte, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return raw, false
	}
	switch raw[0] {
	case '{', '[':
		if depth >= maxDepth {
			return quoted(Mark), true
		}
		return w.walkMembers(raw, secret, value, depth)
	case '"':
		if !value {
			return raw, false // a string outside a value field stays
		}
		s, ok := unquote(raw)
		if !ok {
			return raw, false
		}
		if secret && value {
			if s == Mark || s == "" {
				return raw, false
			}
			return quoted(Mark), true
		}
		if value {
			if r, ok := String(s); ok {
				return quoted(r), true
			}
		}
		return raw, false
	case 't', 'f', 'n':
		return raw, false // booleans and null say nothing
	default: // a number
		if secret && value {
			return quoted(Mark), true
		}
		return raw, false
	}
}

// walkMembers rewrites an object or an array member by member, copying
// every byte between the members that change.
func (w *walker) walkMembers(raw []byte, secret, value bool, depth int) ([]byte, bool) {
	ms, ok := members(raw)
	if !ok {
		return raw, false
	}
	obj := raw[0] == '{'
	here := secret
	if obj {
		for _, m := range ms {
			if !here && isNameKey(m.key) {
				s, ok := unquote(raw[m.start:m.end])
				here = ok && SecretName(s)
			}
		}
	}
	var out []byte
	last := 0
	for _, m := range ms {
		v := raw[m.start:m.end]
		var changed bool
		switch {
		case !obj:
			v, changed = w.walk(v, secret, value, depth+1)
		case isNameKey(m.key):
		case w.secretKey(m.key):
			v, changed = w.walk(v, true, true, depth+1)
		default:
			v, changed = w.walk(v, here, valueKeys[string(m.key)], depth+1)
		}
		if !changed {
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(raw)+32)
		}
		out = append(out, raw[last:m.start]...)
		out = append(out, v...)
		last = m.end
	}
	if out == nil {
		return raw, false
	}
	return append(out, raw[last:]...), true
}

// member is one member of an object or array: its key (objects only)
// and where its value lies.
type member struct {
	key        []byte // decoded; raw's own bytes when it holds no escape
	start, end int
}

// members returns the members of raw, an object or array with nothing
// around it, or false when raw is not one.
func members(raw []byte) ([]member, bool) {
	obj := raw[0] == '{'
	closer := byte(']')
	if obj {
		closer = '}'
	}
	var out []member
	i := skipSpace(raw, 1)
	if i < len(raw) && raw[i] == closer {
		return out, i == len(raw)-1
	}
	for {
		var key []byte
		if obj {
			if i >= len(raw) || raw[i] != '"' {
				return nil, false
			}
			e, ok := skipString(raw, i)
			if !ok {
				return nil, false
			}
			if key, ok = unquoteBytes(raw[i:e]); !ok {
				return nil, false
			}
			if i = skipSpace(raw, e); i >= len(raw) || raw[i] != ':' {
				return nil, false
			}
			i = skipSpace(raw, i+1)
		}
		e, ok := skipValue(raw, i)
		if !ok {
			return nil, false
		}
		out = append(out, member{key, i, e})
		if i = skipSpace(raw, e); i >= len(raw) {
			return nil, false
		}
		if raw[i] == closer {
			return out, i == len(raw)-1
		}
		if raw[i] != ',' {
			return nil, false
		}
		i = skipSpace(raw, i+1)
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the end of the string starting at b[i] ('"').
func skipString(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

// skipValue returns the end of the value starting at b[i].
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e, ok := skipString(b, j)
				if !ok {
					return 0, false
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1, true
				}
			}
		}
		return 0, false
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\n' && b[j] != '\r' {
		j++
	}
	return j, j > i
}

// unquote decodes a JSON string.
func unquote(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

// unquoteBytes decodes a JSON string, returning raw's own bytes when it
// holds no escape.
func unquoteBytes(raw []byte) ([]byte, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return nil, false
	}
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return raw[1 : len(raw)-1], true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return nil, false
	}
	return []byte(s), true
}

func isNameKey(k []byte) bool {
	for _, n := range nameKeys {
		if string(k) == n {
			return true
		}
	}
	return false
}

func quoted(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}
