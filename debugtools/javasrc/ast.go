package javasrc

import "strings"

// Kind is the kind of a type declaration.
type Kind string

// Kinds of type declarations.
const (
	KindClass      Kind = "class"
	KindInterface  Kind = "interface"
	KindEnum       Kind = "enum"
	KindRecord     Kind = "record"
	KindAnnotation Kind = "annotation"
)

// File is one parsed compilation unit.
type File struct {
	Path    string
	Package string
	Imports []Import
	Types   []*TypeDecl // top-level types; nested ones hang below them
}

// Import is one import declaration.
type Import struct {
	Name     string // "java.util.List", or "java.util" for a wildcard import
	Static   bool
	Wildcard bool
}

// TypeDecl is a class, interface, enum, record or annotation type.
type TypeDecl struct {
	Kind          Kind
	Name          string // simple name
	QualifiedName string // package.Outer.Inner
	BinaryName    string // package.Outer$Inner, as Class.forName wants it
	Modifiers     []string
	Annotations   []Annotation
	TypeParams    []string
	TypeBounds    []TypeRef // first bound of each type parameter (zero when none)
	Extends       []TypeRef // superclass of a class; super-interfaces of an interface
	Implements    []TypeRef
	Fields        []Field // record components come first, as fields
	Methods       []Method
	Constructors  []Method
	EnumConstants []string
	Types         []*TypeDecl // member types
	Line          int
	Doc           string

	Outer *TypeDecl `json:"-"`
	File  *File     `json:"-"`
}

// Field is one field (one declarator of a field declaration).
type Field struct {
	Name        string
	Type        TypeRef
	Modifiers   []string
	Annotations []Annotation
	Line        int
	Doc         string
	// Value is the field's initialiser when it is a constant expression
	// made of string literals and names joined by "+" (used to resolve
	// annotation values such as @GetMapping(Paths.USERS)).
	Value *Value
}

// Static reports whether the field is static (interface fields are).
func (f Field) Static() bool { return hasString(f.Modifiers, "static") }

// Method is a method or a constructor.
type Method struct {
	Name        string
	TypeParams  []string
	TypeBounds  []TypeRef // first bound of each type parameter (zero when none)
	Return      TypeRef   // zero for constructors
	Params      []Param
	Throws      []TypeRef
	Modifiers   []string
	Annotations []Annotation
	Line        int
	Doc         string
	HasBody     bool
}

// Param is one formal parameter.
type Param struct {
	Name        string
	Type        TypeRef // Varargs set for "T... name"
	Annotations []Annotation
	Final       bool
}

// TypeRef is a type as written in the source.
type TypeRef struct {
	Name     string    // "int", "String", "java.util.List", "Outer.Inner", "?" for a wildcard
	Args     []TypeRef // type arguments of the last segment
	Dims     int       // array dimensions, not counting varargs
	Varargs  bool
	Bound    *TypeRef // wildcard bound
	BoundKey string   // "extends" or "super", with Bound
}

// IsZero reports whether the reference is empty.
func (t TypeRef) IsZero() bool { return t.Name == "" }

// String renders the type as Java source.
func (t TypeRef) String() string {
	var b strings.Builder
	t.write(&b)
	return b.String()
}

func (t TypeRef) write(b *strings.Builder) {
	b.WriteString(t.Name)
	if t.Bound != nil {
		b.WriteString(" " + t.BoundKey + " ")
		t.Bound.write(b)
	}
	if len(t.Args) > 0 {
		b.WriteByte('<')
		for i, a := range t.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			a.write(b)
		}
		b.WriteByte('>')
	}
	for i := 0; i < t.Dims; i++ {
		b.WriteString("[]")
	}
	if t.Varargs {
		b.WriteString("...")
	}
}

// Annotation is one annotation with its element values in source order.
// A single unnamed value is stored under the name "value".
type Annotation struct {
	Name   string // as written: "GetMapping" or "org.springframework...GetMapping"
	Values []Element
	Line   int
}

// SimpleName returns the annotation's name without its package.
func (a Annotation) SimpleName() string { return lastDot(a.Name) }

// Get returns the value of element name, if present.
func (a Annotation) Get(name string) (Value, bool) {
	for _, e := range a.Values {
		if e.Name == name {
			return e.Value, true
		}
	}
	return Value{}, false
}

// Element is one name=value pair of an annotation.
type Element struct {
	Name  string
	Value Value
}

// ValueKind classifies an annotation or constant value.
type ValueKind string

// Kinds of values.
const (
	ValueString     ValueKind = "string"     // Text is the decoded literal
	ValueLiteral    ValueKind = "literal"    // number, char, boolean, null: Text as written
	ValueName       ValueKind = "name"       // a (qualified) name: a constant or enum constant
	ValueClass      ValueKind = "class"      // Text is the type of "Type.class"
	ValueConcat     ValueKind = "concat"     // Parts joined by "+"
	ValueArray      ValueKind = "array"      // {a, b}: Parts
	ValueAnnotation ValueKind = "annotation" // nested annotation
	ValueExpr       ValueKind = "expr"       // anything else; Text is the source tokens
)

// Value is an annotation element value or a constant initialiser.
type Value struct {
	Kind       ValueKind
	Text       string
	Parts      []Value
	Annotation *Annotation
}

// Items returns the elements of an array value, or the value itself.
func (v Value) Items() []Value {
	if v.Kind == ValueArray {
		return v.Parts
	}
	return []Value{v}
}

func hasString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func lastDot(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}
