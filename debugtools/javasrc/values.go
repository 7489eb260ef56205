package javasrc

import "strings"

// Annotations and their element values, and the constant initializers
// of fields: the parts of a declaration that are read as values.

// annotation parses @Name or @Name(...).
func (p *parser) annotation() (Annotation, bool) {
	line := p.next().line // @
	a := Annotation{Name: p.qualifiedName(), Line: line}
	if a.Name == "" {
		return a, false
	}
	if !p.is("(") {
		return a, true
	}
	if !p.enter() {
		p.skipBalanced("(", ")")
		return a, true
	}
	defer p.leave()
	p.next() // (
	if p.accept(")") {
		return a, true
	}
	if p.peek().kind == tokIdent && p.isAt(1, "=") {
		for !p.eof() {
			name, ok := p.ident()
			if !ok || !p.accept("=") {
				break
			}
			a.Values = append(a.Values, Element{Name: name, Value: p.elementValue()})
			if !p.accept(",") {
				break
			}
		}
	} else {
		a.Values = append(a.Values, Element{Name: "value", Value: p.elementValue()})
	}
	// Tolerate anything left before the closing parenthesis.
	for !p.eof() && !p.is(")") {
		if p.is("(") {
			p.skipBalanced("(", ")")
			continue
		}
		if p.is(";") || p.is("{") || p.is("}") {
			return a, true
		}
		p.next()
	}
	p.accept(")")
	return a, true
}

func (p *parser) skipAnnotations() {
	for p.is("@") && !p.isAt(1, "interface") {
		p.annotation()
	}
}

// elementValue parses an annotation element value.
func (p *parser) elementValue() Value {
	if !p.enter() {
		return Value{Kind: ValueExpr}
	}
	defer p.leave()
	switch {
	case p.is("@"):
		a, _ := p.annotation()
		return Value{Kind: ValueAnnotation, Annotation: &a}
	case p.is("{"):
		p.next()
		v := Value{Kind: ValueArray}
		for !p.eof() && !p.accept("}") {
			start := p.pos
			if p.accept(",") {
				continue
			}
			if p.is(")") || p.is(";") {
				return v
			}
			v.Parts = append(v.Parts, p.elementValue())
			if p.pos == start {
				p.next()
			}
		}
		return v
	}
	var toks []token
	depth := 0
	for !p.eof() {
		t := p.peek()
		if t.kind == tokOp {
			switch t.text {
			case "(":
				depth++
			case ")":
				if depth == 0 {
					return exprValue(toks)
				}
				depth--
			case ",", "}":
				if depth == 0 {
					return exprValue(toks)
				}
			case ";", "{":
				return exprValue(toks)
			}
		}
		toks = append(toks, p.next())
	}
	return exprValue(toks)
}

// initializer collects a field initialiser's tokens, stopping before the
// "," that starts the next declarator or before the ";".
func (p *parser) initializer() []token {
	var toks []token
	depth := 0
	for !p.eof() {
		t := p.peek()
		if t.kind == tokOp {
			switch t.text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth == 0 {
					return toks // the class body ends: malformed
				}
				depth--
			case ";":
				if depth == 0 {
					return toks
				}
			case ",":
				// "new HashMap<K, V>()" holds a comma too; a declarator is
				// a name followed by "=", ",", ";" or "[".
				if depth == 0 && p.at(1).kind == tokIdent && (p.isAt(2, "=") || p.isAt(2, ",") || p.isAt(2, ";") ||
					p.isAt(2, "[") && p.isAt(3, "]") && (p.isAt(4, "=") || p.isAt(4, ",") || p.isAt(4, ";"))) {
					return toks
				}
			}
		}
		toks = append(toks, p.next())
	}
	return toks
}

// exprValue interprets the tokens of a constant expression.
func exprValue(toks []token) Value {
	if v := constValue(toks); v != nil {
		return *v
	}
	if len(toks) >= 3 && toks[len(toks)-1].text == "class" && toks[len(toks)-2].text == "." {
		return Value{Kind: ValueClass, Text: joinTokens(toks[:len(toks)-2])}
	}
	return Value{Kind: ValueExpr, Text: joinTokens(toks)}
}

// constValue interprets string literals, literals and names joined by "+"
// (with optional parentheses around the whole); nil when it is anything
// else.
func constValue(toks []token) *Value {
	for len(toks) >= 2 && toks[0].text == "(" && toks[0].kind == tokOp && toks[len(toks)-1].text == ")" && toks[len(toks)-1].kind == tokOp {
		toks = toks[1 : len(toks)-1]
	}
	if len(toks) == 0 {
		return nil
	}
	var parts []Value
	for len(toks) > 0 {
		i := 0
		for i < len(toks) && !(toks[i].kind == tokOp && toks[i].text == "+") {
			i++
		}
		part, ok := operand(toks[:i])
		if !ok {
			return nil
		}
		parts = append(parts, part)
		if i == len(toks) {
			break
		}
		toks = toks[i+1:]
		if len(toks) == 0 {
			return nil
		}
	}
	if len(parts) == 1 {
		return &parts[0]
	}
	return &Value{Kind: ValueConcat, Parts: parts}
}

func operand(toks []token) (Value, bool) {
	switch {
	case len(toks) == 1 && toks[0].kind == tokString:
		return Value{Kind: ValueString, Text: toks[0].text}, true
	case len(toks) == 1 && (toks[0].kind == tokNumber || toks[0].kind == tokChar):
		return Value{Kind: ValueLiteral, Text: toks[0].text}, true
	case len(toks) == 1 && toks[0].kind == tokIdent && (toks[0].text == "true" || toks[0].text == "false" || toks[0].text == "null"):
		return Value{Kind: ValueLiteral, Text: toks[0].text}, true
	case len(toks) == 2 && toks[0].text == "-" && toks[1].kind == tokNumber:
		return Value{Kind: ValueLiteral, Text: "-" + toks[1].text}, true
	case len(toks)%2 == 1:
		var b strings.Builder
		for i, t := range toks {
			if i%2 == 0 && t.kind != tokIdent || i%2 == 1 && !(t.kind == tokOp && t.text == ".") {
				return Value{}, false
			}
			b.WriteString(t.text)
		}
		if strings.HasSuffix(b.String(), ".class") {
			return Value{}, false
		}
		return Value{Kind: ValueName, Text: b.String()}, true
	}
	return Value{}, false
}

func joinTokens(toks []token) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 && needSpace(toks[i-1], t) {
			b.WriteByte(' ')
		}
		switch t.kind {
		case tokString:
			b.WriteString(quoteJava(t.text))
		case tokChar:
			b.WriteString("'" + t.text + "'")
		default:
			b.WriteString(t.text)
		}
	}
	return b.String()
}

func needSpace(a, b token) bool {
	return a.kind != tokOp && b.kind != tokOp
}

func quoteJava(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\r", `\r`)
	return `"` + r.Replace(s) + `"`
}
