package native

import (
	"debug/dwarf"
	"debug/elf"
	"fmt"
	"path/filepath"
	"strings"
)

// RustEnum is the layout of one Rust enum with data (Option, Result, an
// enum whose variants carry fields), as rustc describes it in DWARF with
// a variant part. LLDB before 17 ignores variant parts and reads such an
// enum as an empty struct; dbg's formatters decode it from this layout.
type RustEnum struct {
	// Discr is where the discriminant is, nil for an enum of one variant.
	Discr    *EnumField    `json:"discr"`
	Variants []EnumVariant `json:"variants"`
}

// EnumVariant is one variant: the discriminant value that selects it
// (none for the default, dataful variant of a niche layout) and its
// fields, with offsets from the start of the enum.
type EnumVariant struct {
	Name   string      `json:"name"`
	Value  *uint64     `json:"value,omitempty"`
	Fields []EnumField `json:"fields"`
}

// EnumField is a field of a variant, or the discriminant.
type EnumField struct {
	Name   string    `json:"name,omitempty"`
	Offset int64     `json:"offset"`
	Size   int64     `json:"size,omitempty"`
	Type   *TypeDesc `json:"type,omitempty"`
}

// TypeDesc names a field's type so the formatter can find it in LLDB:
// a base type by its kind and size, a pointer or array by its element,
// anything else by its qualified name (and size, to reject a namesake).
type TypeDesc struct {
	Name  string    `json:"name,omitempty"`
	Base  string    `json:"base,omitempty"` // int, uint, float, bool, char
	Size  int64     `json:"size,omitempty"`
	Ptr   *TypeDesc `json:"ptr,omitempty"`
	Array *TypeDesc `json:"array,omitempty"`
	Count int64     `json:"count,omitempty"`
}

// die is one debugging information entry with its children.
type die struct {
	e        *dwarf.Entry
	parent   *die
	children []*die
	cu       *dwarf.Entry // of a variable: its compile unit
}

// RustEnumTable is what the formatter reads: the layouts by LLDB 16's
// name of each enum (core::option::Option<i32>), and two ways to find the
// name where LLDB 14 shows only core::option::Option<>: by that short
// name and the enum's size, and by the declaration of a variable
// ("main.rs:12:some"). A key that several enums share maps to "", which
// the formatter reads as "unknown" rather than guess.
type RustEnumTable struct {
	Enums map[string]RustEnum `json:"enums"`
	Alias map[string]string   `json:"alias"`
	Decl  map[string]string   `json:"decl"`
}

// shortName is LLDB 14's name of a Rust generic type: its template
// arguments dropped (core::option::Option<>).
func shortName(name string) string {
	var b strings.Builder
	depth := 0
	for _, r := range name {
		switch {
		case r == '<':
			if depth == 0 {
				b.WriteRune(r)
			}
			depth++
		case r == '>' && depth > 0:
			depth--
			if depth == 0 {
				b.WriteRune(r)
			}
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// add records key → name, or "" when key already names another enum.
func addKey(m map[string]string, key, name string) {
	if old, ok := m[key]; ok && old != name {
		m[key] = ""
		return
	}
	m[key] = name
}

// RustEnums reads the layouts of the enums with data in the DWARF of the
// ELF binary at path.
func RustEnums(path string) (*RustEnumTable, error) {
	f, err := elf.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	d, err := f.DWARF()
	if err != nil {
		return nil, fmt.Errorf("read the DWARF of %s: %w", path, err)
	}
	byOff := map[dwarf.Offset]*die{}
	var parts, vars []*die
	var stack []*die
	files := map[*dwarf.Entry][]*dwarf.LineFile{}
	var cu *dwarf.Entry
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil {
			return nil, fmt.Errorf("read the DWARF of %s: %w", path, err)
		}
		if e == nil {
			break
		}
		if e.Tag == 0 {
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			continue
		}
		n := &die{e: e}
		if len(stack) > 0 {
			n.parent = stack[len(stack)-1]
			n.parent.children = append(n.parent.children, n)
		}
		byOff[e.Offset] = n
		switch e.Tag {
		case dwarf.TagCompileUnit:
			cu = e
			if lr, err := d.LineReader(e); err == nil && lr != nil {
				files[e] = lr.Files()
			}
		case dwarf.TagVariantPart:
			parts = append(parts, n)
		case dwarf.TagVariable, dwarf.TagFormalParameter:
			if cu != nil {
				n.cu = cu
				vars = append(vars, n)
			}
		}
		if e.Children {
			stack = append(stack, n)
		}
	}
	out := &RustEnumTable{Enums: map[string]RustEnum{}, Alias: map[string]string{}, Decl: map[string]string{}}
	owner := map[*die]string{} // enum type → its name
	for _, vp := range parts {
		if vp.parent == nil || vp.parent.e.Tag != dwarf.TagStructType {
			continue
		}
		name := qualified(vp.parent)
		if name == "" {
			continue
		}
		owner[vp.parent] = name
		if _, seen := out.Enums[name]; seen {
			continue
		}
		if en, ok := enumLayout(vp, byOff); ok {
			out.Enums[name] = en
			size, _ := vp.parent.e.Val(dwarf.AttrByteSize).(int64)
			addKey(out.Alias, fmt.Sprintf("%s#%d", shortName(name), size), name)
		}
	}
	for _, v := range vars {
		t := typeDie(v, byOff)
		name, ok := owner[t]
		if !ok {
			continue
		}
		if _, ok := out.Enums[name]; !ok {
			continue
		}
		vname, _ := v.e.Val(dwarf.AttrName).(string)
		line, _ := v.e.Val(dwarf.AttrDeclLine).(int64)
		fi, _ := v.e.Val(dwarf.AttrDeclFile).(int64)
		fs := files[v.cu]
		if vname == "" || line == 0 || fi < 0 || int(fi) >= len(fs) || fs[fi] == nil {
			continue
		}
		addKey(out.Decl, fmt.Sprintf("%s:%d:%s", filepath.Base(fs[fi].Name), line, vname), name)
	}
	return out, nil
}

// qualified is LLDB's name of a type: its namespaces and enclosing types
// joined with "::".
func qualified(n *die) string {
	var parts []string
	for p := n; p != nil && p.e.Tag != dwarf.TagCompileUnit; p = p.parent {
		switch p.e.Tag {
		case dwarf.TagNamespace, dwarf.TagStructType, dwarf.TagUnionType, dwarf.TagEnumerationType:
			name, _ := p.e.Val(dwarf.AttrName).(string)
			if name == "" {
				return ""
			}
			parts = append(parts, name)
		default:
			return ""
		}
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, "::")
}

// enumLayout reads one variant part. ok is false when any part of it is
// beyond what the formatter can decode (then LLDB's own view stays).
func enumLayout(vp *die, byOff map[dwarf.Offset]*die) (RustEnum, bool) {
	var en RustEnum
	if off, ok := vp.e.Val(dwarf.AttrDiscr).(dwarf.Offset); ok {
		m := byOff[off]
		if m == nil {
			return en, false
		}
		loc, ok1 := memberOffset(m)
		size, ok2 := typeSize(m, byOff)
		if !ok1 || !ok2 || size < 1 || size > 8 {
			return en, false
		}
		en.Discr = &EnumField{Offset: loc, Size: size}
	}
	for _, v := range vp.children {
		if v.e.Tag != dwarf.TagVariant {
			continue
		}
		ev := EnumVariant{Fields: []EnumField{}}
		if val := v.e.Val(dwarf.AttrDiscrValue); val != nil {
			u, ok := constant(val)
			if !ok || en.Discr == nil {
				return en, false
			}
			if en.Discr.Size < 8 {
				u &= 1<<(8*uint(en.Discr.Size)) - 1
			}
			ev.Value = &u
		} else if v.e.Val(dwarf.AttrDiscrList) != nil {
			return en, false
		}
		var member *die
		for _, c := range v.children {
			if c.e.Tag == dwarf.TagMember {
				member = c
			}
		}
		if member == nil {
			return en, false
		}
		ev.Name, _ = member.e.Val(dwarf.AttrName).(string)
		base, ok := memberOffset(member)
		st := typeDie(member, byOff)
		if !ok || st == nil || ev.Name == "" {
			return en, false
		}
		for _, f := range st.children {
			if f.e.Tag != dwarf.TagMember {
				continue
			}
			name, _ := f.e.Val(dwarf.AttrName).(string)
			off, ok := memberOffset(f)
			td := describe(typeDie(f, byOff), byOff, 0)
			if !ok || td == nil || name == "" {
				return en, false
			}
			ev.Fields = append(ev.Fields, EnumField{Name: name, Offset: base + off, Type: td})
		}
		en.Variants = append(en.Variants, ev)
	}
	if len(en.Variants) == 0 || (en.Discr == nil && len(en.Variants) != 1) {
		return en, false
	}
	return en, true
}

// constant reads a DWARF constant as the bits of a uint64.
func constant(v any) (uint64, bool) {
	switch x := v.(type) {
	case int64:
		return uint64(x), true
	case uint64:
		return x, true
	}
	return 0, false
}

// memberOffset is a member's constant data_member_location (0 if absent).
func memberOffset(m *die) (int64, bool) {
	switch x := m.e.Val(dwarf.AttrDataMemberLoc).(type) {
	case nil:
		return 0, true
	case int64:
		return x, true
	}
	return 0, false
}

func typeDie(n *die, byOff map[dwarf.Offset]*die) *die {
	off, ok := n.e.Val(dwarf.AttrType).(dwarf.Offset)
	if !ok {
		return nil
	}
	return byOff[off]
}

// typeSize is the byte size of the type of n, through typedefs.
func typeSize(n *die, byOff map[dwarf.Offset]*die) (int64, bool) {
	t := typeDie(n, byOff)
	for i := 0; t != nil && i < 8; i++ {
		if s, ok := t.e.Val(dwarf.AttrByteSize).(int64); ok {
			return s, true
		}
		t = typeDie(t, byOff)
	}
	return 0, false
}

// describe makes the descriptor of type t, or nil.
func describe(t *die, byOff map[dwarf.Offset]*die, depth int) *TypeDesc {
	if t == nil || depth > 8 {
		return nil
	}
	name, _ := t.e.Val(dwarf.AttrName).(string)
	size, _ := t.e.Val(dwarf.AttrByteSize).(int64)
	switch t.e.Tag {
	case dwarf.TagBaseType:
		enc, _ := t.e.Val(dwarf.AttrEncoding).(int64)
		kinds := map[int64]string{0x2: "bool", 0x4: "float", 0x5: "int", 0x6: "int", 0x7: "uint", 0x8: "uint", 0x10: "char"}
		k, ok := kinds[enc]
		if !ok {
			return nil
		}
		return &TypeDesc{Name: name, Base: k, Size: size}
	case dwarf.TagPointerType:
		p := describe(typeDie(t, byOff), byOff, depth+1)
		if p == nil {
			return nil
		}
		return &TypeDesc{Ptr: p}
	case dwarf.TagArrayType:
		e := describe(typeDie(t, byOff), byOff, depth+1)
		var count int64 = -1
		for _, c := range t.children {
			if c.e.Tag == dwarf.TagSubrangeType {
				if n, ok := c.e.Val(dwarf.AttrCount).(int64); ok {
					count = n
				}
			}
		}
		if e == nil || count < 0 {
			return nil
		}
		return &TypeDesc{Array: e, Count: count}
	case dwarf.TagTypedef, dwarf.TagConstType, dwarf.TagVolatileType:
		return describe(typeDie(t, byOff), byOff, depth+1)
	case dwarf.TagStructType, dwarf.TagUnionType, dwarf.TagEnumerationType:
		q := qualified(t)
		if q == "" {
			return nil
		}
		return &TypeDesc{Name: q, Size: size}
	}
	return nil
}
