package javasrc

import "strings"

// rtype is a resolved type: a qualified name (or primitive) with resolved
// type arguments and, for project types, the declaration.
type rtype struct {
	name    string // qualified dotted name, primitive, or "java.lang.Object" for type variables
	decl    *TypeDecl
	args    []rtype
	dims    int
	typeVar bool
	wild    bool // an unbounded wildcard, shown as "?"
}

var objectType = rtype{name: "java.lang.Object"}

// scope is where a type reference is resolved: the enclosing type, the
// type-variable substitutions in force, and unbound type variables.
type scope struct {
	ctx   *TypeDecl
	subst map[string]rtype
	free  map[string]TypeRef // unbound type variables and their bounds
}

func (s *snapshot) resolveRef(ref TypeRef, sc scope) rtype {
	extra := ref.Dims
	if ref.Varargs {
		extra++
	}
	if ref.Name == "?" {
		if ref.Bound != nil && ref.BoundKey == "extends" {
			r := s.resolveRef(*ref.Bound, sc)
			r.dims += extra
			return r
		}
		return rtype{name: objectType.name, wild: true, dims: extra}
	}
	if r, ok := sc.subst[ref.Name]; ok {
		r.dims += extra
		return r
	}
	if bound, ok := sc.free[ref.Name]; ok {
		r := s.boundType(bound, sc.ctx)
		r.dims += extra
		return r
	}
	if primitives[ref.Name] {
		return rtype{name: ref.Name, dims: extra}
	}
	q, d := s.resolve(ref.Name, sc.ctx)
	r := rtype{name: q, decl: d, dims: extra}
	for _, a := range ref.Args {
		r.args = append(r.args, s.resolveRef(a, sc))
	}
	return r
}

// boundType is the erasure of a type variable with the given bound: the
// bound's class without its type arguments (which may refer back to the
// variable), or Object.
func (s *snapshot) boundType(bound TypeRef, ctx *TypeDecl) rtype {
	if bound.IsZero() {
		return rtype{name: objectType.name, typeVar: true}
	}
	q, d := s.resolve(bound.Name, ctx)
	if primitives[bound.Name] {
		q = bound.Name
	}
	return rtype{name: q, decl: d, typeVar: true}
}

// erased renders the type as a parameter type: erased, fully qualified,
// with "[]" per dimension.
func (r rtype) erased() string {
	name := r.name
	if r.decl != nil {
		name = r.decl.QualifiedName
	}
	return name + strings.Repeat("[]", r.dims)
}

// generic renders the type with its type arguments.
func (r rtype) generic() string {
	var b strings.Builder
	b.WriteString(r.name)
	if r.wild {
		return "?"
	}
	if r.decl != nil {
		b.Reset()
		b.WriteString(r.decl.QualifiedName)
	}
	if len(r.args) > 0 {
		b.WriteByte('<')
		for i, a := range r.args {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(a.generic())
		}
		b.WriteByte('>')
	}
	b.WriteString(strings.Repeat("[]", r.dims))
	return b.String()
}

func (r rtype) elem() rtype {
	r.dims--
	return r
}

func (r rtype) arg(i int) rtype {
	if i < len(r.args) {
		return r.args[i]
	}
	return objectType
}

// typeScope returns the scope for the members of d when it is used with
// the type arguments args.
func (s *snapshot) typeScope(d *TypeDecl, args []rtype) scope {
	sc := scope{ctx: d, subst: map[string]rtype{}}
	for i, tp := range d.TypeParams {
		if i < len(args) {
			sc.subst[tp] = args[i]
		} else {
			var bound TypeRef
			if i < len(d.TypeBounds) {
				bound = d.TypeBounds[i]
			}
			sc.subst[tp] = s.boundType(bound, d)
		}
	}
	return sc
}

// normalizeTypeName turns a user-written parameter type into a
// comparable form: no generics, no spaces, "..." as "[]", "$" as ".".
func normalizeTypeName(s string) string {
	var b strings.Builder
	depth := 0
	for _, c := range s {
		switch {
		case c == '<':
			depth++
		case c == '>':
			depth--
		case depth > 0, c == ' ', c == '\t':
		case c == '$':
			b.WriteByte('.')
		default:
			b.WriteRune(c)
		}
	}
	out := b.String()
	if strings.HasSuffix(out, "...") {
		out = strings.TrimSuffix(out, "...") + "[]"
	}
	return out
}

// sameType reports whether a user-written type names the erased type
// want ("java.lang.Long" matches "Long" and "java.lang.Long").
func sameType(given, want string) bool {
	g := normalizeTypeName(given)
	if g == want {
		return true
	}
	if !strings.Contains(strings.TrimRight(g, "[]"), ".") {
		return g == simpleTypeName(want)
	}
	return false
}

func simpleTypeName(s string) string {
	base := strings.TrimRight(s, "[]")
	return lastDot(base) + s[len(base):]
}
