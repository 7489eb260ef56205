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

// decodeArgs decodes tool arguments into v, a pointer to the tool's input
// (see [callArgs.decode]): the arguments of a call outside a Toolbox.
func decodeArgs(raw json.RawMessage, v any, extra ...string) error {
	return (&callArgs{raw: raw}).decode(v, extra)
}

// callArgs are the raw arguments of one call, decoded once: the object is
// parsed to its fields once, and each field's value is decoded once, into
// the field of the input it names. What else reads the arguments (the
// redaction's reveal, the audit's session) reads them from there. It is
// used by one goroutine, the call's.
type callArgs struct {
	raw json.RawMessage

	parsed bool
	fields map[string]json.RawMessage // nil: no arguments
	err    error                      // the arguments are no object

	in reflect.Value // the decoded input (a pointer), once decode ran
}

// object returns the top-level fields of the arguments; no arguments
// (empty, null) are no fields.
func (a *callArgs) object() (map[string]json.RawMessage, error) {
	if a.parsed {
		return a.fields, a.err
	}
	a.parsed = true
	switch {
	case len(a.raw) > MaxArgsBytes:
		a.err = NewError(CodeInvalidArgument, fmt.Sprintf("the arguments are %d bytes; the limit is %d", len(a.raw), MaxArgsBytes),
			"send smaller arguments")
	case len(a.raw) == 0 || isNull(a.raw):
	default:
		a.fields, a.err = parseObject(a.raw, "")
	}
	return a.fields, a.err
}

// decode decodes the arguments into v, a pointer to the tool's input.
// Keys match exactly, at every level of the input: a key that names no
// field is INVALID_ARGUMENT naming the closest real one (encoding/json
// alone would drop it, or let "sessionID" override "sessionId"), except
// the names in extra, which the toolbox itself reads (reveal). A field
// tagged alias:"id" also takes the key id, the name dbg's own answers give
// the value. Type errors name the JSON field as the client wrote it and
// the kind it sent, and strings are held to the limits of [checkStrings]
// as they are decoded.
func (a *callArgs) decode(v any, extra []string) error {
	rv := reflect.ValueOf(v)
	a.in = rv
	fields, err := a.object()
	if err != nil {
		return err
	}
	if fields == nil {
		return nil // no arguments: the input's zero value
	}
	if t := rv.Elem().Type(); t.Kind() == reflect.Struct && !reflect.PointerTo(t).Implements(unmarshalerType) {
		return decodeFields(fields, rv.Elem(), t, "", extra)
	}
	return decodeValue(a.raw, rv.Elem(), "")
}

// session is the top-level sessionId of the call, decoded or not.
func (a *callArgs) session(decoded bool) string {
	if decoded {
		return a.stringArg("sessionId")
	}
	return a.rawString("sessionId")
}

// stringArg returns the decoded input's top-level string field of JSON
// name key ("" when there is none): what the toolbox reads of the input
// besides the tool (the session the audit names, the expression the
// redaction names).
func (a *callArgs) stringArg(key string) string {
	if !a.in.IsValid() {
		return ""
	}
	v := a.in.Elem()
	if v.Kind() != reflect.Struct {
		return ""
	}
	f, ok := jsonFields(v.Type())[key]
	if !ok || f.typ.Kind() != reflect.String {
		return ""
	}
	fv, ok := fieldAt(v, f.index, false)
	if !ok {
		return ""
	}
	return fv.String()
}

// rawString decodes the top-level string argument key from the raw
// fields: for a call whose input did not decode.
func (a *callArgs) rawString(key string) string {
	fields, _ := a.object()
	var s string
	if raw, ok := fields[key]; ok {
		_ = json.Unmarshal(raw, &s)
	}
	return s
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

func isNull(raw []byte) bool { return string(bytes.TrimSpace(raw)) == "null" }

// parseObject parses raw, the JSON of the argument at path ("" for the
// arguments), to its fields; anything else than an object is
// INVALID_ARGUMENT.
func parseObject(raw json.RawMessage, path string) (map[string]json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, decodeError(err, path, reflect.TypeFor[map[string]any]())
	}
	return obj, nil
}

// decodeFields decodes the fields of an object into v, a struct of type
// t, each into the field its key names (or aliases), refusing a key that
// names none (the names of extra are allowed at the top level).
func decodeFields(obj map[string]json.RawMessage, v reflect.Value, t reflect.Type, path string, extra []string) error {
	fields := jsonFields(t)
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys) // the first bad key is the same each time
	for _, k := range keys {
		name := k
		f, ok := fields[k]
		if !ok {
			if path == "" && slices.Contains(extra, k) {
				continue
			}
			target, ok := aliasTarget(fields, k)
			if !ok {
				return unknownArg(path, k, fields, extra)
			}
			if _, both := obj[target]; both {
				return NewError(CodeInvalidArgument, fmt.Sprintf("arguments %s and %s name the same value: pass one", path+k, path+target),
					"leave out "+path+k+" and call again").WithOptions(path + target)
			}
			name, f = target, fields[target]
		}
		fv, ok := fieldAt(v, f.index, true)
		if !ok {
			return NewError(CodeInternal, "argument "+path+name+" cannot be set", "this is a bug in dbg")
		}
		if err := decodeValue(obj[k], fv, path+name); err != nil {
			return err
		}
		if fv.Kind() == reflect.String { // held to its limit (decodeValue holds the others)
			if err := checkString(path+name, kindOfName(name), f.limit, fv.String()); err != nil {
				return err
			}
		}
	}
	return nil
}

// fieldAt returns the field of struct v at index, through embedded
// structs; alloc makes the nil embedded pointers on the way, else a nil
// one is no field.
func fieldAt(v reflect.Value, index []int, alloc bool) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !alloc || !v.CanSet() {
					return reflect.Value{}, false
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, !alloc || v.CanSet()
}

// decodeValue decodes raw, the JSON of the argument at path, into v: an
// object into a struct field by field, a list of objects item by item,
// anything else (and a type that reads its own JSON) in one go, its
// strings then held to their limits (but a string's own, which
// decodeFields checks with its field's limit).
func decodeValue(raw json.RawMessage, v reflect.Value, path string) error {
	t := v.Type()
	if isNull(raw) {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
			v.SetZero()
		}
		return nil
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		return unmarshalInto(raw, v, path)
	}
	switch t.Kind() {
	case reflect.Pointer:
		if !hasStruct(t) {
			return unmarshalInto(raw, v, path)
		}
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		return decodeValue(raw, v.Elem(), path)
	case reflect.Struct:
		obj, err := parseObject(raw, path)
		if err != nil {
			return err
		}
		return decodeFields(obj, v, t, path+".", nil)
	case reflect.Slice, reflect.Array:
		if !hasStruct(t.Elem()) {
			return unmarshalInto(raw, v, path)
		}
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			return decodeError(err, path, t)
		}
		items := v // an array: its first items, the others zero
		if t.Kind() == reflect.Slice {
			items = reflect.MakeSlice(t, len(list), len(list))
		} else {
			v.SetZero()
		}
		for i := 0; i < len(list) && i < items.Len(); i++ {
			if err := decodeValue(list[i], items.Index(i), fmt.Sprintf("%s.%d", path, i)); err != nil {
				return err
			}
		}
		v.Set(items)
		return nil
	}
	return unmarshalInto(raw, v, path)
}

// unmarshalInto decodes raw into v with encoding/json, numbers in an
// interface kept as json.Number.
func unmarshalInto(raw json.RawMessage, v reflect.Value, path string) error {
	var err error
	if hasInterface(v.Type()) {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		err = dec.Decode(v.Addr().Interface())
	} else {
		err = json.Unmarshal(raw, v.Addr().Interface())
	}
	if err != nil {
		return decodeError(err, path, v.Type())
	}
	if v.Kind() == reflect.String {
		return nil
	}
	return checkStrings(v, path, 1)
}

// decodeError is the INVALID_ARGUMENT of a failed decoding of the
// argument at path (of type t).
func decodeError(err error, path string, t reflect.Type) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := path
		if te.Field != "" {
			field = strings.TrimPrefix(path+"."+te.Field, ".")
		}
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
	var ie *ToolError
	if errors.As(err, &ie) {
		return ie
	}
	return NewError(CodeInvalidArgument, "arguments are not a valid JSON object: "+Clip(err.Error()),
		"send the arguments as a JSON object").Wrap(err)
}

var interfaceCache sync.Map // reflect.Type -> bool

// hasInterface reports whether a value of t can hold an interface
// (any, map[string]any): its numbers are decoded as json.Number.
func hasInterface(t reflect.Type) bool {
	if v, ok := interfaceCache.Load(t); ok {
		return v.(bool)
	}
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type) bool
	walk = func(t reflect.Type) bool {
		if seen[t] {
			return false
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.Interface:
			return true
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			return walk(t.Elem())
		case reflect.Struct:
			for i := range t.NumField() {
				if walk(t.Field(i).Type) {
					return true
				}
			}
		}
		return false
	}
	has := walk(t)
	interfaceCache.Store(t, has)
	return has
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
