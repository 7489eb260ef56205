package javadap

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	godap "github.com/google/go-dap"
)

// variable renders one DAP variable.
func (s *Server) variable(ctx context.Context, thread uint64, name string, v Value, path string) godap.Variable {
	d := s.describe(ctx, thread, v, path)
	return godap.Variable{Name: name, Value: d.value, Type: d.typ, VariablesReference: d.ref, EvaluateName: path,
		IndexedVariables: d.indexed, NamedVariables: d.named}
}

type description struct {
	value, typ     string
	ref            int
	indexed, named int
}

var boxedTypes = map[string]bool{
	"Ljava/lang/Integer;": true, "Ljava/lang/Long;": true, "Ljava/lang/Short;": true, "Ljava/lang/Byte;": true,
	"Ljava/lang/Character;": true, "Ljava/lang/Boolean;": true, "Ljava/lang/Float;": true, "Ljava/lang/Double;": true,
}

// describe formats a value for display and registers a reference for its
// children. Strings are quoted, boxed primitives show their value, and
// collections and maps show their size and first elements.
func (s *Server) describe(ctx context.Context, thread uint64, v Value, path string) description {
	switch {
	case v.Tag == TagVoid:
		return description{value: "void", typ: "void"}
	case v.IsPrimitive():
		return description{value: primitiveString(v), typ: typeNameOfTag(v.Tag)}
	case v.Object == 0:
		return description{value: "null", typ: "null"}
	}
	_, rt, err := s.vm.ObjectType(ctx, v.Object)
	if err != nil {
		return description{value: "<" + err.Error() + ">"}
	}
	sig, _ := s.classes.signature(ctx, rt)
	typ := javaTypeName(sig)
	simple := typ
	if i := strings.LastIndexByte(simple, '.'); i >= 0 {
		simple = simple[i+1:]
	}
	switch {
	case v.Tag == TagString || sig == "Ljava/lang/String;":
		str, err := s.vm.StringValue(ctx, v.Object)
		if err != nil {
			return description{value: "<" + err.Error() + ">", typ: "String"}
		}
		return description{value: quoteJava(str), typ: "String"}
	case strings.HasPrefix(sig, "["):
		n, _ := s.vm.ArrayLength(ctx, v.Object)
		ref := 0
		if n > 0 {
			ref = s.refs.add(&varRef{kind: refArray, thread: thread, obj: v, length: n, path: path})
		}
		elem := strings.TrimSuffix(simple, "[]")
		return description{value: fmt.Sprintf("%s[%d]", elem, n), typ: typ, ref: ref, indexed: n}
	case boxedTypes[sig]:
		if p, ok := s.unbox(ctx, v); ok {
			return description{value: primitiveString(p), typ: simple}
		}
	}
	if text, ok := s.summary(ctx, thread, v.Object, rt, 0); ok {
		ref := s.refs.add(&varRef{kind: refObject, thread: thread, obj: v, path: path})
		return description{value: text, typ: typ, ref: ref}
	}
	switch {
	case thread != 0 && s.classes.implements(ctx, rt, "Ljava/util/Collection;"):
		if arr, err := s.invoke(ctx, thread, v, "toArray", nil, "()[Ljava/lang/Object;"); err == nil && arr.Object != 0 {
			s.pin(ctx, arr.Object)
			n, _ := s.vm.ArrayLength(ctx, arr.Object)
			ref := s.refs.add(&varRef{kind: refCollection, thread: thread, obj: v, elems: arr.Object, length: n, path: path})
			return description{value: fmt.Sprintf("%s size=%d %s", simple, n, s.preview(ctx, thread, arr.Object, n, false)), typ: typ, ref: ref, indexed: n}
		}
	case thread != 0 && s.classes.implements(ctx, rt, "Ljava/util/Map;"):
		if set, err := s.invoke(ctx, thread, v, "entrySet", nil); err == nil && set.Object != 0 {
			if arr, err := s.invoke(ctx, thread, set, "toArray", nil, "()[Ljava/lang/Object;"); err == nil && arr.Object != 0 {
				s.pin(ctx, arr.Object)
				n, _ := s.vm.ArrayLength(ctx, arr.Object)
				ref := s.refs.add(&varRef{kind: refMap, thread: thread, obj: v, elems: arr.Object, length: n, path: path})
				return description{value: fmt.Sprintf("%s size=%d %s", simple, n, s.preview(ctx, thread, arr.Object, n, true)), typ: typ, ref: ref, named: n}
			}
		}
	}
	ref := s.refs.add(&varRef{kind: refObject, thread: thread, obj: v, path: path})
	return description{value: fmt.Sprintf("%s@%d", simple, v.Object), typ: typ, ref: ref}
}

// preview shows the first elements of an array of elements or map entries.
func (s *Server) preview(ctx context.Context, thread, arr uint64, n int, entries bool) string {
	const max = 5
	k := n
	if k > max {
		k = max
	}
	vals, err := s.vm.ArrayValues(ctx, arr, 0, k)
	if err != nil {
		return ""
	}
	var parts []string
	for _, e := range vals {
		if entries {
			key, err1 := s.invoke(ctx, thread, e, "getKey", nil)
			val, err2 := s.invoke(ctx, thread, e, "getValue", nil)
			if err1 != nil || err2 != nil {
				continue
			}
			parts = append(parts, s.shortValue(ctx, thread, key)+"="+s.shortValue(ctx, thread, val))
		} else {
			parts = append(parts, s.shortValue(ctx, thread, e))
		}
	}
	if n > max {
		parts = append(parts, "...")
	}
	if entries {
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// shortValue formats a value on one line without creating references.
func (s *Server) shortValue(ctx context.Context, thread uint64, v Value) string {
	switch {
	case v.IsPrimitive():
		return primitiveString(v)
	case v.Object == 0:
		return "null"
	}
	_, rt, err := s.vm.ObjectType(ctx, v.Object)
	if err != nil {
		return "?"
	}
	sig, _ := s.classes.signature(ctx, rt)
	if sig == "Ljava/lang/String;" {
		str, _ := s.vm.StringValue(ctx, v.Object)
		return quoteJava(str)
	}
	if boxedTypes[sig] {
		if p, ok := s.unbox(ctx, v); ok {
			return primitiveString(p)
		}
	}
	if text, ok := s.summary(ctx, thread, v.Object, rt, 1); ok {
		return text
	}
	name := javaTypeName(sig)
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return fmt.Sprintf("%s@%d", name, v.Object)
}

// unbox reads the value field of a boxed primitive.
func (s *Server) unbox(ctx context.Context, v Value) (Value, bool) {
	if !v.IsObject() || v.Object == 0 {
		return Value{}, false
	}
	_, rt, err := s.vm.ObjectType(ctx, v.Object)
	if err != nil {
		return Value{}, false
	}
	sig, _ := s.classes.signature(ctx, rt)
	if !boxedTypes[sig] {
		return Value{}, false
	}
	fields, err := s.classes.fieldsOf(ctx, rt)
	if err != nil {
		return Value{}, false
	}
	for _, f := range fields {
		if f.Name == "value" && !f.IsStatic() {
			vals, err := s.vm.FieldValues(ctx, v.Object, []uint64{f.ID})
			if err == nil && len(vals) == 1 {
				return vals[0], true
			}
		}
	}
	return Value{}, false
}

func quoteJava(s string) string {
	const max = 10000
	if len(s) > max {
		return strconv.Quote(s[:max]) + "..."
	}
	return strconv.Quote(s)
}
