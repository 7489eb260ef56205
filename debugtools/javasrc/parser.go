package javasrc

// maxDepth bounds the parser's recursion (nested types, type arguments,
// annotations) so that hostile input cannot exhaust the stack.
const maxDepth = 64

// Parse parses a Java compilation unit. It never fails: whatever it cannot
// read is skipped, so the result holds every declaration it could make
// sense of. path is recorded in the result only.
func Parse(path, src string) *File {
	p := &parser{toks: lex(src), file: &File{Path: path}}
	p.compilationUnit()
	for _, t := range p.file.Types {
		p.name(t, nil)
	}
	return p.file
}

type parser struct {
	toks  []token
	pos   int
	depth int
	file  *File
}

func (p *parser) peek() token { return p.at(0) }

func (p *parser) at(off int) token {
	if i := p.pos + off; i < len(p.toks) {
		return p.toks[i]
	}
	return p.toks[len(p.toks)-1] // EOF
}

func (p *parser) next() token {
	t := p.peek()
	if p.pos < len(p.toks)-1 {
		p.pos++
	}
	return t
}

func (p *parser) eof() bool { return p.peek().kind == tokEOF }

// is reports whether the token at off is the operator or word s.
func (p *parser) isAt(off int, s string) bool {
	t := p.at(off)
	return (t.kind == tokOp || t.kind == tokIdent) && t.text == s
}

func (p *parser) is(s string) bool { return p.isAt(0, s) }

func (p *parser) accept(s string) bool {
	if p.is(s) {
		p.next()
		return true
	}
	return false
}

func (p *parser) ident() (string, bool) {
	if t := p.peek(); t.kind == tokIdent {
		p.next()
		return t.text, true
	}
	return "", false
}

// enter guards recursion; callers must call leave when it returns true.
func (p *parser) enter() bool {
	if p.depth >= maxDepth {
		return false
	}
	p.depth++
	return true
}

func (p *parser) leave() { p.depth-- }

func (p *parser) compilationUnit() {
	for !p.eof() {
		start := p.pos
		if p.accept(";") {
			continue
		}
		mods, annots, doc, line := p.modifiers()
		switch {
		case p.is("package"):
			p.next()
			p.file.Package = p.qualifiedName()
			p.skipPast(";")
		case p.is("import"):
			p.next()
			imp := Import{Static: p.accept("static")}
			imp.Name = p.qualifiedName()
			if p.is(".") && p.isAt(1, "*") {
				p.pos += 2
				imp.Wildcard = true
			}
			if imp.Name != "" {
				p.file.Imports = append(p.file.Imports, imp)
			}
			p.skipPast(";")
		case p.isTypeStart():
			if t := p.typeDecl(mods, annots, doc, line); t != nil {
				p.file.Types = append(p.file.Types, t)
			}
		case p.is("module") || p.is("open"):
			return // module-info.java declares no types
		}
		if p.pos == start {
			p.next()
		}
	}
}

// qualifiedName reads a.b.c (stopping before ".*").
func (p *parser) qualifiedName() string {
	name, ok := p.ident()
	if !ok {
		return ""
	}
	for p.is(".") && p.at(1).kind == tokIdent {
		p.next()
		name += "." + p.next().text
	}
	return name
}

var modifierWords = map[string]bool{
	"public": true, "protected": true, "private": true, "static": true, "final": true, "abstract": true,
	"native": true, "synchronized": true, "transient": true, "volatile": true, "strictfp": true, "default": true,
}

// modifiers reads modifiers and annotations, and returns the Javadoc and
// line of the first token of the declaration.
func (p *parser) modifiers() (mods []string, annots []Annotation, doc string, line int) {
	doc, line = p.peek().doc, p.peek().line
	for !p.eof() {
		t := p.peek()
		switch {
		case t.kind == tokOp && t.text == "@" && !p.isAt(1, "interface"):
			if a, ok := p.annotation(); ok {
				annots = append(annots, a)
			}
		case t.kind == tokIdent && modifierWords[t.text] && !p.isAt(1, ":"):
			mods = append(mods, p.next().text)
		case t.kind == tokIdent && t.text == "sealed" && p.at(1).kind == tokIdent:
			mods = append(mods, p.next().text)
		case t.kind == tokIdent && t.text == "non" && p.isAt(1, "-") && p.isAt(2, "sealed"):
			p.pos += 3
			mods = append(mods, "non-sealed")
		default:
			return mods, annots, doc, line
		}
	}
	return mods, annots, doc, line
}

func (p *parser) isTypeStart() bool {
	switch {
	case p.is("class"), p.is("interface"), p.is("enum"):
		return p.at(1).kind == tokIdent
	case p.is("@") && p.isAt(1, "interface"):
		return true
	case p.is("record"):
		return p.at(1).kind == tokIdent && (p.isAt(2, "(") || p.isAt(2, "<"))
	}
	return false
}

// typeDecl parses a type declaration starting at its keyword.
func (p *parser) typeDecl(mods []string, annots []Annotation, doc string, line int) *TypeDecl {
	if !p.enter() {
		p.skipDeclaration()
		return nil
	}
	defer p.leave()
	t := &TypeDecl{Modifiers: mods, Annotations: annots, Doc: doc, Line: line, File: p.file}
	switch kw := p.next().text; kw {
	case "class":
		t.Kind = KindClass
	case "interface":
		t.Kind = KindInterface
	case "enum":
		t.Kind = KindEnum
	case "record":
		t.Kind = KindRecord
	case "@":
		p.next() // interface
		t.Kind = KindAnnotation
	}
	t.Line = p.peek().line
	name, ok := p.ident()
	if !ok {
		return nil
	}
	t.Name = name
	if p.is("<") {
		t.TypeParams, t.TypeBounds = p.typeParams()
	}
	if t.Kind == KindRecord && p.accept("(") {
		for _, prm := range p.params() {
			t.Fields = append(t.Fields, Field{Name: prm.Name, Type: prm.Type, Annotations: prm.Annotations,
				Modifiers: []string{"private", "final"}, Line: line})
		}
	}
	for !p.eof() && !p.is("{") {
		switch {
		case p.accept("extends"):
			t.Extends = append(t.Extends, p.typeList()...)
		case p.accept("implements"):
			t.Implements = append(t.Implements, p.typeList()...)
		case p.accept("permits"):
			p.typeList()
		case p.is(";"), p.is("}"):
			return t // no body: keep what we have
		default:
			p.next()
		}
	}
	if p.accept("{") {
		p.body(t)
	}
	return t
}

func (p *parser) typeList() []TypeRef {
	var out []TypeRef
	for {
		tr, ok := p.typeRef()
		if !ok {
			return out
		}
		out = append(out, tr)
		if !p.accept(",") {
			return out
		}
	}
}

// typeParams parses <T extends A & B, U> and returns the names and the
// first bound of each.
func (p *parser) typeParams() (names []string, bounds []TypeRef) {
	p.next() // <
	for !p.eof() {
		p.skipAnnotations()
		if name, ok := p.ident(); ok {
			names = append(names, name)
			var bound TypeRef
			if p.accept("extends") {
				for i := 0; ; i++ {
					b, _ := p.typeRef()
					if i == 0 {
						bound = b
					}
					if !p.accept("&") {
						break
					}
				}
			}
			bounds = append(bounds, bound)
		}
		if p.accept(",") {
			continue
		}
		if p.accept(">") {
			return names, bounds
		}
		if p.is("{") || p.is("(") || p.is(";") {
			return names, bounds
		}
		p.next()
	}
	return names, bounds
}

// body parses a class body after its "{" up to and including the "}".
func (p *parser) body(t *TypeDecl) {
	if t.Kind == KindEnum {
		if !p.enumConstants(t) {
			return
		}
	}
	for !p.eof() {
		start := p.pos
		if p.accept("}") {
			return
		}
		if p.accept(";") {
			continue
		}
		if p.is("{") {
			p.skipBalanced("{", "}")
			continue
		}
		p.member(t)
		if p.pos == start {
			p.next()
		}
	}
}

// enumConstants reads the constants of an enum body. It returns false
// when the body ended with them.
func (p *parser) enumConstants(t *TypeDecl) bool {
	for !p.eof() {
		p.skipAnnotations()
		if p.accept("}") {
			return false
		}
		if p.accept(";") {
			return true
		}
		name, ok := p.ident()
		if !ok {
			if !p.accept(",") {
				return true // not a constant: let the member parser try
			}
			continue
		}
		t.EnumConstants = append(t.EnumConstants, name)
		if p.is("(") {
			p.skipBalanced("(", ")")
		}
		if p.is("{") {
			p.skipBalanced("{", "}")
		}
		p.accept(",")
	}
	return false
}

// member parses one member declaration of t.
func (p *parser) member(t *TypeDecl) {
	mods, annots, doc, line := p.modifiers()
	if p.isTypeStart() {
		if nt := p.typeDecl(mods, annots, doc, line); nt != nil {
			nt.Outer = t
			t.Types = append(t.Types, nt)
		}
		return
	}
	var tparams []string
	var tbounds []TypeRef
	if p.is("<") {
		tparams, tbounds = p.typeParams()
	}
	if p.peek().kind == tokIdent && p.peek().text == t.Name && p.isAt(1, "(") {
		line = p.next().line
		m := p.method(t.Name, TypeRef{}, mods, annots, doc, line, tparams)
		m.TypeBounds = tbounds
		t.Constructors = append(t.Constructors, m)
		return
	}
	if p.peek().kind == tokIdent && p.peek().text == t.Name && p.isAt(1, "{") && t.Kind == KindRecord {
		p.next()
		p.skipBalanced("{", "}") // compact canonical constructor
		return
	}
	typ, ok := p.typeRef()
	if !ok {
		p.skipDeclaration()
		return
	}
	line = p.peek().line
	name, ok := p.ident()
	if !ok {
		p.skipDeclaration()
		return
	}
	if p.is("(") {
		m := p.method(name, typ, mods, annots, doc, line, tparams)
		m.TypeBounds = tbounds
		t.Methods = append(t.Methods, m)
		return
	}
	if t.Kind == KindInterface || t.Kind == KindAnnotation {
		mods = appendMissing(mods, "public", "static", "final")
	}
	for {
		f := Field{Name: name, Type: typ, Modifiers: mods, Annotations: annots, Doc: doc, Line: line}
		f.Type.Dims += p.dims()
		if p.accept("=") {
			f.Value = constValue(p.initializer())
		}
		t.Fields = append(t.Fields, f)
		if !p.accept(",") {
			break
		}
		line = p.peek().line
		if name, ok = p.ident(); !ok {
			break
		}
	}
	p.skipDeclaration()
}

func appendMissing(list []string, words ...string) []string {
	for _, w := range words {
		if !hasString(list, w) {
			list = append(list, w)
		}
	}
	return list
}

// method parses a method or constructor from its "(".
func (p *parser) method(name string, ret TypeRef, mods []string, annots []Annotation, doc string, line int, tparams []string) Method {
	p.next() // (
	m := Method{Name: name, Return: ret, Modifiers: mods, Annotations: annots, Doc: doc, Line: line, TypeParams: tparams}
	m.Params = p.params()
	m.Return.Dims += p.dims()
	if p.accept("throws") {
		m.Throws = p.typeList()
	}
	if p.accept("default") { // annotation member default value
		p.elementValue()
	}
	if p.is("{") {
		m.HasBody = true
		p.skipBalanced("{", "}")
	} else {
		p.skipDeclaration()
	}
	return m
}

// params parses formal parameters after "(" up to and including ")".
func (p *parser) params() []Param {
	var out []Param
	for !p.eof() {
		if p.accept(")") {
			return out
		}
		if p.is("{") || p.is(";") || p.is("}") {
			return out // unterminated list
		}
		start := p.pos
		mods, annots, _, _ := p.modifiers()
		prm := Param{Annotations: annots, Final: hasString(mods, "final")}
		if typ, ok := p.typeRef(); ok {
			p.skipAnnotations()
			if p.accept("...") {
				typ.Varargs = true
			}
			prm.Type = typ
			if name, ok := p.ident(); ok {
				prm.Name = name
				prm.Type.Dims += p.dims()
				if name != "this" {
					out = append(out, prm)
				}
			} else if p.accept(".") && p.accept("this") {
				// receiver parameter Outer.this
			}
		}
		for !p.eof() && !p.is(",") && !p.is(")") && !p.is("{") && !p.is(";") {
			if p.is("(") {
				p.skipBalanced("(", ")")
				continue
			}
			p.next()
		}
		p.accept(",")
		if p.pos == start {
			p.next()
		}
	}
	return out
}

// dims reads "[]" pairs (with optional type annotations) and counts them.
func (p *parser) dims() int {
	n := 0
	for {
		save := p.pos
		p.skipAnnotations()
		if p.is("[") && p.isAt(1, "]") {
			p.pos += 2
			n++
			continue
		}
		p.pos = save
		return n
	}
}

var primitives = map[string]bool{"boolean": true, "byte": true, "char": true, "short": true, "int": true,
	"long": true, "float": true, "double": true, "void": true}

// keywords that cannot start a type.
var notType = map[string]bool{"class": true, "interface": true, "enum": true, "package": true, "import": true,
	"return": true, "new": true, "throws": true, "extends": true, "implements": true, "this": true}

// typeRef parses a type: primitive, or a qualified name with type
// arguments, then array dimensions.
func (p *parser) typeRef() (TypeRef, bool) {
	if !p.enter() {
		return TypeRef{}, false
	}
	defer p.leave()
	p.skipAnnotations()
	var t TypeRef
	switch tok := p.peek(); {
	case tok.kind == tokOp && tok.text == "?":
		p.next()
		t.Name = "?"
		if p.is("extends") || p.is("super") {
			t.BoundKey = p.next().text
			if b, ok := p.typeRef(); ok {
				t.Bound = &b
			}
		}
		return t, true
	case tok.kind == tokIdent && !notType[tok.text]:
		t.Name = p.next().text
	default:
		return t, false
	}
	for {
		if p.is("<") {
			t.Args = p.typeArgs()
		}
		if p.is(".") && (p.at(1).kind == tokIdent || p.isAt(1, "@")) && !p.isAt(1, "class") && !p.isAt(1, "this") {
			p.next()
			p.skipAnnotations()
			if name, ok := p.ident(); ok {
				t.Name += "." + name
				t.Args = nil
				continue
			}
		}
		break
	}
	t.Dims = p.dims()
	return t, true
}

// typeArgs parses <A, B<C>> (or the diamond <>).
func (p *parser) typeArgs() []TypeRef {
	p.next() // <
	var out []TypeRef
	for !p.eof() {
		if p.accept(">") {
			return out
		}
		if a, ok := p.typeRef(); ok {
			out = append(out, a)
		} else if !p.is(",") && !p.is(">") {
			return out // not a type argument list after all
		}
		p.accept(",")
	}
	return out
}

// skipBalanced skips from an opening token to its matching closing one
// (or to the end of input).
func (p *parser) skipBalanced(open, close string) {
	depth := 0
	for !p.eof() {
		t := p.next()
		if t.kind != tokOp {
			continue
		}
		switch t.text {
		case open:
			depth++
		case close:
			depth--
			if depth <= 0 {
				return
			}
		}
	}
}

// skipDeclaration skips to the end of the current member: past a ";" or a
// balanced "{...}", or up to (not past) the "}" that closes the body.
func (p *parser) skipDeclaration() {
	for !p.eof() {
		switch {
		case p.is(";"):
			p.next()
			return
		case p.is("{"):
			p.skipBalanced("{", "}")
			return
		case p.is("}"):
			return
		case p.is("("):
			p.skipBalanced("(", ")")
		default:
			p.next()
		}
	}
}

// skipPast skips up to and including s, stopping early before a "{" or "}".
func (p *parser) skipPast(s string) {
	for !p.eof() && !p.is("{") && !p.is("}") {
		if p.next().text == s {
			return
		}
	}
}

// name fills the qualified and binary names of t and its member types.
func (p *parser) name(t *TypeDecl, outer *TypeDecl) {
	switch {
	case outer != nil:
		t.QualifiedName = outer.QualifiedName + "." + t.Name
		t.BinaryName = outer.BinaryName + "$" + t.Name
	case p.file.Package != "":
		t.QualifiedName = p.file.Package + "." + t.Name
		t.BinaryName = t.QualifiedName
	default:
		t.QualifiedName, t.BinaryName = t.Name, t.Name
	}
	for _, nt := range t.Types {
		p.name(nt, t)
	}
}
