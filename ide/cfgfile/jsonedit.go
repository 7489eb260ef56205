package cfgfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// jsonEditor edits one JSONC document at the text level.
type jsonEditor struct {
	src      []byte
	nl, unit string
}

// lineIndent is the leading whitespace of the line holding pos.
func (ed *jsonEditor) lineIndent(pos int) string {
	ls := bytes.LastIndexByte(ed.src[:pos], '\n') + 1
	j := ls
	for j < len(ed.src) && (ed.src[j] == ' ' || ed.src[j] == '\t') {
		j++
	}
	return string(ed.src[ls:j])
}

// keyIndent is the whitespace before pos when pos starts its line.
func (ed *jsonEditor) keyIndent(pos int) (string, bool) {
	ls := bytes.LastIndexByte(ed.src[:pos], '\n') + 1
	for _, c := range ed.src[ls:pos] {
		if c != ' ' && c != '\t' {
			return "", false
		}
	}
	return string(ed.src[ls:pos]), true
}

// memberIndent is the indent for a member of obj.
func (ed *jsonEditor) memberIndent(obj *Node) string {
	if len(obj.Members) > 0 {
		if ind, ok := ed.keyIndent(obj.Members[len(obj.Members)-1].KeyStart); ok {
			return ind
		}
	}
	return ed.lineIndent(obj.Start) + ed.unit
}

// lineEnd returns where the line ends after from when only whitespace and
// comments follow before limit: inserting there keeps a trailing comment
// with its member.
func (ed *jsonEditor) lineEnd(from, limit int) (int, bool) {
	s := ed.src
	for i := from; i < limit; {
		switch {
		case s[i] == ' ' || s[i] == '\t' || s[i] == '\r':
			i++
		case s[i] == '\n':
			if i > from && s[i-1] == '\r' {
				return i - 1, true
			}
			return i, true
		case s[i] == '/' && i+1 < limit && s[i+1] == '/':
			for i < limit && s[i] != '\n' {
				i++
			}
		case s[i] == '/' && i+1 < limit && s[i+1] == '*':
			end := bytes.Index(s[i+2:limit], []byte("*/"))
			if end < 0 {
				return 0, false
			}
			i += 2 + end + 2
		default:
			return 0, false
		}
	}
	return 0, false
}

// insert adds a member, rendered by text at its indent, as the last
// member of obj.
func (ed *jsonEditor) insert(obj *Node, text func(ind string) string) []textEdit {
	ind := ed.memberIndent(obj)
	member := ed.nl + ind + text(ind)
	if len(obj.Members) == 0 {
		inner := ed.src[obj.Start+1 : obj.End-1]
		if len(bytes.TrimSpace(inner)) == 0 {
			return []textEdit{{obj.Start + 1, obj.End - 1, member + ed.nl + ed.lineIndent(obj.Start)}}
		}
		return []textEdit{{obj.Start + 1, obj.Start + 1, member}}
	}
	last := obj.Members[len(obj.Members)-1]
	anchor, comma := last.Val.End, ""
	if last.Comma >= 0 {
		anchor = last.Comma + 1
		member += "," // keep the trailing-comma style
	} else {
		comma = ","
	}
	if p, ok := ed.lineEnd(anchor, obj.End-1); ok {
		edits := []textEdit{{p, p, member}}
		if comma != "" {
			edits = append([]textEdit{{last.Val.End, last.Val.End, comma}}, edits...)
		}
		return edits
	}
	return []textEdit{{anchor, anchor, comma + member}}
}

// detectIndentUnit guesses one level of indentation: the root's members'
// indent, else the smallest indent in the file, else two spaces.
func detectIndentUnit(src []byte, root *Node) string {
	if root != nil && len(root.Members) > 0 {
		ed := &jsonEditor{src: src}
		if ind, ok := ed.keyIndent(root.Members[0].KeyStart); ok && ind != "" {
			return ind
		}
	}
	best := ""
	for _, l := range strings.Split(string(src), "\n") {
		t := strings.TrimLeft(l, " \t")
		if t == "" || len(t) == len(l) || strings.HasPrefix(t, "*") {
			continue
		}
		ind := l[:len(l)-len(t)]
		if ind[0] == '\t' {
			return "\t"
		}
		if best == "" || len(ind) < len(best) {
			best = ind
		}
	}
	if best == "" || strings.Contains(best, "\t") {
		return "  "
	}
	return best
}

// SetJSONMember returns src with src[key][name] set to o, editing the
// text so comments and formatting elsewhere survive. replaced says a
// member of that name was there. An empty src gives a new document; a
// document that is not an object, a key that appears twice or a result
// that reads back differently is refused.
func SetJSONMember(src []byte, key, name string, o Object) (out []byte, replaced bool, err error) {
	root, err := Parse(src)
	if err != nil {
		return nil, false, fmt.Errorf("cannot parse it as JSON: %w", err)
	}
	if root == nil {
		if len(bytes.TrimSpace(src)) != 0 {
			return nil, false, errors.New("it holds only comments")
		}
		doc := "{\n  " + JSONQuote(key) + ": {\n    " + JSONQuote(name) + ": " + o.JSON("    ", "  ", "\n") + "\n  }\n}\n"
		return []byte(doc), false, nil
	}
	if root.Kind != '{' {
		return nil, false, errors.New("its top level is not an object")
	}
	ed := &jsonEditor{src: src, nl: newlineStyle(src), unit: detectIndentUnit(src, root)}
	entry := func(ind string) string { return o.JSON(ind, ed.unit, ed.nl) }
	servers := func(ind string) string {
		in := ind + ed.unit
		return "{" + ed.nl + in + JSONQuote(name) + ": " + entry(in) + ed.nl + ind + "}"
	}
	var edits []textEdit
	sm, err := root.Member(key)
	switch {
	case err != nil:
		return nil, false, err
	case sm == nil:
		edits = ed.insert(root, func(ind string) string { return JSONQuote(key) + ": " + servers(ind) })
	case sm.Val.Kind != '{':
		if string(src[sm.Val.Start:sm.Val.End]) != "null" {
			return nil, false, fmt.Errorf("%q is not an object", key)
		}
		ind, ok := ed.keyIndent(sm.KeyStart)
		if !ok {
			ind = ed.memberIndent(root)
		}
		edits = []textEdit{{sm.Val.Start, sm.Val.End, servers(ind)}}
	default:
		m, err := sm.Val.Member(name)
		if err != nil {
			return nil, false, fmt.Errorf("in %q: %w", key, err)
		}
		if m == nil {
			edits = ed.insert(sm.Val, func(ind string) string { return JSONQuote(name) + ": " + entry(ind) })
		} else {
			replaced = true
			ind, ok := ed.keyIndent(m.KeyStart)
			if !ok {
				ind = ed.memberIndent(sm.Val)
			}
			edits = []textEdit{{m.Val.Start, m.Val.End, entry(ind)}}
		}
	}
	out = applyTextEdits(src, edits)
	if err := verifyJSONEdit(src, out, root, key, name, o); err != nil {
		return nil, false, fmt.Errorf("editing it would change more than the entry (%w)", err)
	}
	return out, replaced, nil
}

// verifyJSONEdit checks that out reads as src with only src[key][name]
// set to o.
func verifyJSONEdit(src, out []byte, root *Node, key, name string, o Object) error {
	if json.Valid(src) && !json.Valid(out) {
		return errors.New("the result is not plain JSON")
	}
	want, err := root.Decode(src)
	if err != nil {
		return err
	}
	wm := want.(map[string]any)
	servers, _ := wm[key].(map[string]any)
	if servers == nil {
		servers = map[string]any{}
		wm[key] = servers
	}
	servers[name] = o.Value()
	nroot, err := Parse(out)
	if err != nil {
		return err
	}
	if nroot == nil {
		return errors.New("the result is empty")
	}
	got, err := nroot.Decode(out)
	if err != nil {
		return err
	}
	if !reflect.DeepEqual(got, want) {
		return errors.New("the result differs")
	}
	return nil
}
