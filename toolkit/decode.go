package toolkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
)

// MaxArgsBytes bounds the raw arguments of one call.
const MaxArgsBytes = 4 << 20

// decodeArgs decodes tool arguments into v, a pointer to the tool's input.
// Keys match exactly, at every level of the input: a key that names no
// field is INVALID_ARGUMENT naming the closest real one (encoding/json
// alone would drop it, or let "sessionID" override "sessionId"), except
// the names in extra, which the toolbox itself reads (reveal). A field
// tagged alias:"id" also takes the key id, the name dbg's own answers give
// the value. Type errors name the JSON field as the client wrote it and
// the kind it sent, and strings are held to the limits of [checkStrings].
func decodeArgs(raw json.RawMessage, v any, extra ...string) error {
	if len(raw) > MaxArgsBytes {
		return NewError(CodeInvalidArgument, fmt.Sprintf("the arguments are %d bytes; the limit is %d", len(raw), MaxArgsBytes),
			"send smaller arguments")
	}
	t := reflect.TypeOf(v).Elem()
	raw, err := checkKeys(raw, t, "", extra)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			field := jsonPath(t, te.Field)
			if field == "" {
				field = "arguments"
			}
			want := "a valid value"
			if te.Type != nil {
				want = jsonKind(te.Type.Kind().String())
			}
			return NewError(CodeInvalidArgument,
				fmt.Sprintf("argument %q must be %s, not %s", field, want, sentKind(te.Value)),
				"fix the type of "+field+" and call again").Wrap(err)
		}
		return NewError(CodeInvalidArgument, "arguments are not a valid JSON object: "+Clip(err.Error()),
			"send the arguments as a JSON object").Wrap(err)
	}
	return checkStrings(reflect.ValueOf(v).Elem(), "", 0)
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// checkKeys refuses keys of raw that name no field of t, at every level t
// describes (extra names are allowed at the top level), and returns raw
// with aliased keys renamed to their fields' names.
func checkKeys(raw json.RawMessage, t reflect.Type, path string, extra []string) (json.RawMessage, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return raw, nil // the type reads its own JSON (Int, Bool)
	}
	switch t.Kind() {
	case reflect.Struct:
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return raw, nil // not an object: Decode reports it
		}
		fields := jsonFields(t)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		changed := false
		for _, k := range keys {
			name := k
			if _, ok := fields[k]; !ok {
				if path == "" && slices.Contains(extra, k) {
					continue
				}
				target, ok := aliasTarget(fields, k)
				if !ok {
					return nil, unknownArg(path, k, fields, extra)
				}
				if _, both := obj[target]; both {
					return nil, NewError(CodeInvalidArgument, fmt.Sprintf("arguments %s and %s name the same value: pass one", path+k, path+target),
						"leave out "+path+k+" and call again").WithOptions(path + target)
				}
				obj[target] = obj[k]
				delete(obj, k)
				name, changed = target, true
			}
			sub, err := checkKeys(obj[name], fields[name].typ, path+name+".", nil)
			if err != nil {
				return nil, err
			}
			if !bytes.Equal(sub, obj[name]) {
				obj[name], changed = sub, true
			}
		}
		if changed {
			return json.Marshal(obj)
		}
	case reflect.Slice, reflect.Array:
		if !hasStruct(t.Elem()) {
			return raw, nil
		}
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) != nil {
			return raw, nil
		}
		changed := false
		for i, val := range list {
			sub, err := checkKeys(val, t.Elem(), fmt.Sprintf("%s%d.", path, i), nil)
			if err != nil {
				return nil, err
			}
			if !bytes.Equal(sub, val) {
				list[i], changed = sub, true
			}
		}
		if changed {
			return json.Marshal(list)
		}
	}
	return raw, nil
}

// aliasTarget returns the field whose alias tag is key.
func aliasTarget(fields map[string]jsonField, key string) (string, bool) {
	for name, f := range fields {
		if f.alias == key {
			return name, true
		}
	}
	return "", false
}

// unknownArg is the refusal of key, which names no argument: it names
// the closest real one, or lists them all when none is close.
func unknownArg(path, key string, fields map[string]jsonField, extra []string) *ToolError {
	names := make([]string, 0, len(fields)+len(extra))
	for name := range fields {
		names = append(names, name)
	}
	if path == "" {
		names = append(names, extra...)
	}
	sort.Strings(names)
	if best := closestName(key, names); best != "" {
		return NewError(CodeInvalidArgument,
			fmt.Sprintf("unknown argument %s: did you mean %q?", Clip(path+key), path+best),
			"rename "+Clip(path+key)+" to "+path+best+" and call again").WithOptions(path + best)
	}
	if len(names) == 0 {
		return NewError(CodeInvalidArgument, fmt.Sprintf("unknown argument %s: this takes no arguments", Clip(path+key)),
			"call it with no arguments")
	}
	opts := make([]string, len(names))
	for i, n := range names {
		opts[i] = path + n
	}
	return NewError(CodeInvalidArgument,
		fmt.Sprintf("unknown argument %s: the arguments are %s", Clip(path+key), strings.Join(opts, ", ")),
		"use one of the arguments listed and call again").WithOptions(opts...)
}

// closestName returns the name key most likely meant: one equal to it
// but for case and separators, else one that contains it or that it
// contains, else one a few edits away; "" when none is close.
func closestName(key string, names []string) string {
	norm := func(s string) string {
		return strings.ToLower(strings.NewReplacer("_", "", "-", "", " ", "").Replace(s))
	}
	k := norm(key)
	if len(k) > 64 {
		k = k[:64] // no argument name is that long
	}
	best, bestScore := "", 0
	for _, name := range names {
		n := norm(name)
		score := 0
		switch d := EditDistance(k, n); {
		case k == n:
			score = 1000
		case k != "" && (strings.Contains(n, k) || strings.Contains(k, n)) && min(len(k), len(n)) >= 2:
			score = 500 - d
		case d <= max(1, min(len(k), len(n))/3):
			score = 100 - d
		}
		if score > bestScore {
			best, bestScore = name, score
		}
	}
	return best
}

// EditDistance is the Levenshtein distance of a and b, in bytes: how
// far a name a client sent is from a real one. Its cost is the product
// of the lengths; callers bound them.
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func hasStruct(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind() == reflect.Struct
}

type jsonField struct {
	typ   reflect.Type
	index []int
	limit int    // maxBytes tag, 0 = by name
	alias string // alias tag: another key for the field
}

var fieldCache sync.Map // reflect.Type -> map[string]jsonField

// jsonFields returns the JSON names of a struct's fields as encoding/json
// sees them, embedded structs' fields promoted (shallower fields win).
func jsonFields(t reflect.Type) map[string]jsonField {
	if f, ok := fieldCache.Load(t); ok {
		return f.(map[string]jsonField)
	}
	out := map[string]jsonField{}
	var walk func(t reflect.Type, index []int, depth int)
	type promoted struct {
		name  string
		f     jsonField
		depth int
	}
	var found []promoted
	walk = func(t reflect.Type, index []int, depth int) {
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			idx := append(append([]int(nil), index...), i)
			ft := sf.Type
			if sf.Anonymous && name == "" {
				et := ft
				if et.Kind() == reflect.Pointer {
					et = et.Elem()
				}
				if et.Kind() == reflect.Struct && depth < 8 {
					walk(et, idx, depth+1)
					continue
				}
			}
			if !sf.IsExported() {
				continue
			}
			if name == "" {
				name = sf.Name
			}
			var limit int
			_, _ = fmt.Sscan(sf.Tag.Get("maxBytes"), &limit)
			found = append(found, promoted{name, jsonField{typ: ft, index: idx, limit: limit, alias: sf.Tag.Get("alias")}, depth})
		}
	}
	walk(t, nil, 0)
	for _, p := range found {
		if old, ok := out[p.name]; ok && len(old.index) <= len(p.f.index) {
			continue
		}
		out[p.name] = p.f
	}
	fieldCache.Store(t, out)
	return out
}

// jsonPath turns encoding/json's field path, which names embedded structs
// by their Go type ("SessionRef.sessionId"), into the JSON path the client
// wrote ("sessionId").
func jsonPath(t reflect.Type, field string) string {
	if field == "" {
		return ""
	}
	var out []string
	for _, c := range strings.Split(field, ".") {
		for t != nil && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map) {
			t = t.Elem()
		}
		if t == nil || t.Kind() != reflect.Struct {
			out = append(out, c)
			t = nil
			continue
		}
		if f, ok := jsonFields(t)[c]; ok {
			out = append(out, c)
			t = f.typ
			continue
		}
		// A Go name of an embedded struct: its fields are promoted.
		if sf, ok := t.FieldByName(c); ok && sf.Anonymous {
			continue
		}
		out = append(out, c)
		t = nil
	}
	return strings.Join(out, ".")
}

// jsonKind names the JSON kind a Go kind is decoded from.
func jsonKind(goKind string) string {
	switch {
	case strings.HasPrefix(goKind, "int"), strings.HasPrefix(goKind, "uint"), strings.HasPrefix(goKind, "float"):
		return "a number"
	case goKind == "string":
		return "a string"
	case goKind == "bool":
		return "a boolean"
	case goKind == "slice", goKind == "array":
		return "an array"
	case goKind == "map", goKind == "struct":
		return "an object"
	}
	return "a " + goKind
}

// sentKind names what the client sent from encoding/json's description
// ("bool", "number 1.5") or a description made by [DescribeJSON].
func sentKind(v string) string {
	switch {
	case v == "bool":
		return "a boolean"
	case v == "string", v == "number", v == "array", v == "object":
		return jsonKind(map[string]string{"string": "string", "number": "int", "array": "slice", "object": "map"}[v])
	case strings.HasPrefix(v, "number "):
		return "the number " + clipText(strings.TrimPrefix(v, "number "), ClipBytes)
	case strings.HasPrefix(v, "a "), strings.HasPrefix(v, "an "), strings.HasPrefix(v, "the "), v == "null":
		return v
	}
	return Clip(v)
}

// DescribeJSON names the kind of a raw JSON value, with the value cut to
// ClipBytes: the Value of the json.UnmarshalTypeError an argument type's
// UnmarshalJSON returns, so the error reads "not the boolean true".
func DescribeJSON(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return "nothing"
	}
	switch b[0] {
	case '"':
		var s string
		if json.Unmarshal(b, &s) == nil {
			return "the string " + Clip(s)
		}
		return "a string"
	case 't', 'f':
		return "the boolean " + string(b)
	case 'n':
		return "null"
	case '[':
		return "an array"
	case '{':
		return "an object"
	}
	return "the number " + clipText(string(b), ClipBytes)
}
