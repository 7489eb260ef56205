package toolkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// MaxArgsBytes bounds the raw arguments of one call.
const MaxArgsBytes = 4 << 20

// decodeArgs decodes tool arguments into v, a pointer to the tool's input.
// Keys match exactly: a key that differs from a known one only by case is
// INVALID_ARGUMENT naming the right key (encoding/json alone would let
// "sessionID" override "sessionId"). Type errors name the JSON field as
// the client wrote it and the kind it sent, and strings are held to the
// limits of [checkStrings].
func decodeArgs(raw json.RawMessage, v any) error {
	if len(raw) > MaxArgsBytes {
		return NewError(CodeInvalidArgument, fmt.Sprintf("the arguments are %d bytes; the limit is %d", len(raw), MaxArgsBytes),
			"send smaller arguments")
	}
	t := reflect.TypeOf(v).Elem()
	if err := checkKeys(raw, t, ""); err != nil {
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

// checkKeys refuses keys of raw that match a field of t only when case is
// ignored, at every level t describes.
func checkKeys(raw json.RawMessage, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return nil // not an object: Decode reports it
		}
		fields := jsonFields(t)
		for k, val := range obj {
			if f, ok := fields[k]; ok {
				if err := checkKeys(val, f.typ, path+k+"."); err != nil {
					return err
				}
				continue
			}
			for name := range fields {
				if strings.EqualFold(k, name) {
					return NewError(CodeInvalidArgument,
						fmt.Sprintf("unknown argument %s: argument names match exactly; did you mean %q?", Clip(path+k), path+name),
						"rename "+Clip(path+k)+" to "+path+name+" and call again").WithOptions(path + name)
				}
			}
		}
	case reflect.Slice, reflect.Array:
		if !hasStruct(t.Elem()) {
			return nil
		}
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) != nil {
			return nil
		}
		for i, val := range list {
			if err := checkKeys(val, t.Elem(), fmt.Sprintf("%s%d.", path, i)); err != nil {
				return err
			}
		}
	}
	return nil
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
	limit int // maxBytes tag, 0 = by name
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
			found = append(found, promoted{name, jsonField{typ: ft, index: idx, limit: limit}, depth})
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
