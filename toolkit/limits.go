package toolkit

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/dbg-dev/dbg/textcut"
)

// Limits on the string arguments of every tool, by the argument's JSON
// name: ids (names ending in "id") at most MaxIDBytes, paths (ending in
// "path", "file", "cwd", "dir" or "root") at most MaxPathBytes, any other
// string at most MaxStringBytes unless its field's maxBytes tag says
// otherwise. Ids and paths may not hold NUL bytes.
const (
	MaxIDBytes     = 256
	MaxPathBytes   = 4 << 10
	MaxStringBytes = 64 << 10
)

// ClipBytes is how much of a value an error message echoes.
const ClipBytes = 100

// Clip quotes s for an error message, cut to ClipBytes with a note of its
// length, so an error never echoes a huge input back.
func Clip(s string) string { return textcut.Quote(s, ClipBytes) }

type stringKind int

const (
	plainString stringKind = iota
	idString
	pathString
)

func kindOfName(name string) stringKind {
	n := strings.ToLower(name)
	switch {
	case strings.HasSuffix(n, "id"):
		return idString
	case strings.HasSuffix(n, "path"), strings.HasSuffix(n, "file"), strings.HasSuffix(n, "cwd"),
		strings.HasSuffix(n, "dir"), strings.HasSuffix(n, "root"):
		return pathString
	}
	return plainString
}

// checkStrings holds every string of a decoded input to its limit.
func checkStrings(v reflect.Value, path string, depth int) error {
	if depth > 64 {
		return nil
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return checkStrings(v.Elem(), path, depth+1)
	case reflect.Struct:
		for name, f := range jsonFields(v.Type()) {
			fv, err := v.FieldByIndexErr(f.index)
			if err != nil {
				continue
			}
			if fv.Kind() == reflect.String {
				if err := checkString(path+name, kindOfName(name), f.limit, fv.String()); err != nil {
					return err
				}
				continue
			}
			if err := checkStrings(fv, path+name, depth+1); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return nil
		}
		for i := 0; i < v.Len(); i++ {
			if err := checkStrings(v.Index(i), fmt.Sprintf("%s[%d]", path, i), depth+1); err != nil {
				return err
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if k := it.Key(); k.Kind() == reflect.String {
				if err := checkString(path+" key", plainString, 0, k.String()); err != nil {
					return err
				}
			}
			if err := checkStrings(it.Value(), path+"."+fmt.Sprint(it.Key()), depth+1); err != nil {
				return err
			}
		}
	case reflect.String:
		return checkString(path, kindOfName(lastName(path)), 0, v.String())
	}
	return nil
}

func lastName(path string) string {
	if i := strings.IndexAny(path, "[."); i > 0 {
		return path[:i]
	}
	return path
}

func checkString(field string, kind stringKind, limit int, s string) error {
	what := "string"
	if limit == 0 {
		switch kind {
		case idString:
			limit, what = MaxIDBytes, "id"
		case pathString:
			limit, what = MaxPathBytes, "path"
		default:
			limit = MaxStringBytes
		}
	}
	if len(s) > limit {
		return NewError(CodeInvalidArgument, fmt.Sprintf("argument %s is %d bytes; the limit for this %s is %d bytes", Clip(field), len(s), what, limit),
			"pass a shorter "+what).WithDetails(map[string]any{"limitBytes": limit, "bytes": len(s)})
	}
	if kind != plainString && strings.IndexByte(s, 0) >= 0 {
		return NewError(CodeInvalidArgument, fmt.Sprintf("argument %s holds a NUL byte", Clip(field)), "a "+what+" cannot contain NUL bytes")
	}
	return nil
}
