package redact

import (
	"bytes"
	"encoding/json"
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
// name (an evaluate_expression of "password"). The order of fields and
// every byte not redacted stay as they were. Data that is not valid JSON
// is returned unchanged.
func JSON(data []byte, named bool) []byte {
	out, changed := walk(data, named, named, 0)
	if !changed {
		return data
	}
	return out
}

// maxDepth bounds the recursion; deeper values are redacted whole when
// they are secret and kept otherwise.
const maxDepth = 64

// walk rewrites one JSON value. secret: it belongs to a credential;
// value: it sits in a value field (or is the value of a credential key).
func walk(raw []byte, secret, value bool, depth int) ([]byte, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return raw, false
	}
	switch raw[0] {
	case '{':
		if depth >= maxDepth {
			return raw, false
		}
		return walkObject(raw, secret, depth)
	case '[':
		if depth >= maxDepth {
			return raw, false
		}
		return walkArray(raw, secret, value, depth)
	case '"':
		var s string
		if json.Unmarshal(raw, &s) != nil {
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

type field struct {
	key string
	raw json.RawMessage
}

func walkObject(raw []byte, secret bool, depth int) ([]byte, bool) {
	fields, ok := objectFields(raw)
	if !ok {
		return raw, false
	}
	here := secret
	for _, f := range fields {
		if here {
			break
		}
		for _, k := range nameKeys {
			if f.key == k {
				var s string
				if json.Unmarshal(f.raw, &s) == nil && SecretName(s) {
					here = true
				}
			}
		}
	}
	return rewrite(raw, '{', '}', len(fields), func(i int, b *bytes.Buffer) bool {
		f := fields[i]
		b.Write(quoted(f.key))
		b.WriteByte(':')
		v, changed := []byte(f.raw), false
		switch {
		case isNameKey(f.key):
		case !valueKeys[f.key] && SecretName(f.key):
			v, changed = walk(v, true, true, depth+1)
		default:
			v, changed = walk(v, here, valueKeys[f.key], depth+1)
		}
		b.Write(v)
		return changed
	})
}

func walkArray(raw []byte, secret, value bool, depth int) ([]byte, bool) {
	var elems []json.RawMessage
	if json.Unmarshal(raw, &elems) != nil {
		return raw, false
	}
	return rewrite(raw, '[', ']', len(elems), func(i int, b *bytes.Buffer) bool {
		v, changed := walk(elems[i], secret, value, depth+1)
		b.Write(v)
		return changed
	})
}

// rewrite writes n items, each by item (which reports whether it
// changed anything), between open and close, separated by commas. When
// no item changed it returns raw.
func rewrite(raw []byte, open, close byte, n int, item func(i int, b *bytes.Buffer) bool) ([]byte, bool) {
	changed := false
	var b bytes.Buffer
	b.WriteByte(open)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		if item(i, &b) {
			changed = true
		}
	}
	b.WriteByte(close)
	if !changed {
		return raw, false
	}
	return b.Bytes(), true
}

// objectFields decodes an object's fields in their order.
func objectFields(raw []byte) ([]field, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	var fields []field
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		k, ok := t.(string)
		if !ok {
			return nil, false
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return nil, false
		}
		fields = append(fields, field{k, v})
	}
	return fields, true
}

func isNameKey(k string) bool {
	for _, n := range nameKeys {
		if k == n {
			return true
		}
	}
	return false
}

func quoted(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}
