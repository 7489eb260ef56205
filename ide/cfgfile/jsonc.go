package cfgfile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Node is one value of a JSONC document: its byte span and, for an
// object or an array, its members or elements in order.
type Node struct {
	Kind       byte // '{', '[', or 0 for a string, number or literal
	Start, End int  // src[Start:End] is the value
	Members    []Member
	Elems      []*Node
	trailing   int // index of a trailing comma before the closing bracket, or -1
}

// Member is one key of an object.
type Member struct {
	Key      string
	KeyStart int   // index of the key's opening quote
	Val      *Node //
	Comma    int   // index of the comma after the value, or -1
}

// document is a parsed JSONC text: its root and where its comments are.
type document struct {
	Root     *Node    // nil for a document with no value
	comments [][2]int // [start, end) of every comment
	bom      bool
}

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = 512

type parser struct {
	src      []byte
	i        int
	depth    int
	comments [][2]int
}

// Parse parses JSON with // and /* */ comments and trailing commas. The
// root is nil for a document with no value (empty, or comments only).
// Errors name the line.
func Parse(src []byte) (*Node, error) {
	d, err := parseDocument(src)
	if err != nil {
		return nil, err
	}
	return d.Root, nil
}

func parseDocument(src []byte) (*document, error) {
	p := &parser{src: src}
	d := &document{}
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		p.i, d.bom = 3, true
	}
	if err := p.skip(); err != nil {
		return nil, err
	}
	if p.i < len(src) {
		n, err := p.value()
		if err != nil {
			return nil, err
		}
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.i != len(src) {
			return nil, p.errorf("unexpected %q after the document", src[p.i])
		}
		d.Root = n
	}
	d.comments = p.comments
	return d, nil
}

// Standardize returns src as plain JSON of the same length: comments,
// trailing commas and a byte-order mark become spaces (a comment's line
// breaks stay). A document with no value gives only whitespace, which
// encoding/json refuses as empty.
func Standardize(src []byte) ([]byte, error) {
	d, err := parseDocument(src)
	if err != nil {
		return nil, err
	}
	out := bytes.Clone(src)
	blank := func(from, to int) {
		for k := from; k < to; k++ {
			if out[k] != '\n' && out[k] != '\r' {
				out[k] = ' '
			}
		}
	}
	if d.bom {
		blank(0, 3)
	}
	for _, c := range d.comments {
		blank(c[0], c[1])
	}
	var walk func(n *Node)
	walk = func(n *Node) {
		if n.trailing >= 0 {
			out[n.trailing] = ' '
		}
		for _, m := range n.Members {
			walk(m.Val)
		}
		for _, e := range n.Elems {
			walk(e)
		}
	}
	if d.Root != nil {
		walk(d.Root)
	}
	return out, nil
}

// Unmarshal decodes JSONC into v as encoding/json decodes JSON.
func Unmarshal(src []byte, v any) error {
	clean, err := Standardize(src)
	if err != nil {
		return err
	}
	return json.Unmarshal(clean, v)
}

func (p *parser) errorf(format string, args ...any) error {
	line := 1 + bytes.Count(p.src[:min(p.i, len(p.src))], []byte("\n"))
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...))
}

// skip passes whitespace and comments, recording the comments.
func (p *parser) skip() error {
	for p.i < len(p.src) {
		switch c := p.src[p.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.i++
		case c == '/' && p.i+1 < len(p.src) && p.src[p.i+1] == '/':
			start := p.i
			for p.i < len(p.src) && p.src[p.i] != '\n' {
				p.i++
			}
			p.comments = append(p.comments, [2]int{start, p.i})
		case c == '/' && p.i+1 < len(p.src) && p.src[p.i+1] == '*':
			end := bytes.Index(p.src[p.i+2:], []byte("*/"))
			if end < 0 {
				return p.errorf("unterminated comment")
			}
			start := p.i
			p.i += 2 + end + 2
			p.comments = append(p.comments, [2]int{start, p.i})
		default:
			return nil
		}
	}
	return nil
}

func (p *parser) value() (*Node, error) {
	if p.i >= len(p.src) {
		return nil, p.errorf("unexpected end of file")
	}
	switch p.src[p.i] {
	case '{':
		return p.object()
	case '[':
		return p.array()
	case '"':
		start := p.i
		if err := p.str(); err != nil {
			return nil, err
		}
		return &Node{Start: start, End: p.i, trailing: -1}, nil
	}
	start := p.i
	for p.i < len(p.src) && strings.IndexByte("+-.0123456789eEabcdefghijklmnopqrstuvwxyz", p.src[p.i]) >= 0 {
		p.i++
	}
	if p.i == start {
		return nil, p.errorf("unexpected %q", p.src[p.i])
	}
	if !json.Valid(p.src[start:p.i]) {
		return nil, p.errorf("invalid value %q", p.src[start:p.i])
	}
	return &Node{Start: start, End: p.i, trailing: -1}, nil
}

// str passes a string literal.
func (p *parser) str() error {
	for j := p.i + 1; j < len(p.src); j++ {
		switch c := p.src[j]; {
		case c == '\\':
			j++
		case c == '"':
			if !json.Valid(p.src[p.i : j+1]) {
				return p.errorf("invalid string")
			}
			p.i = j + 1
			return nil
		case c < 0x20:
			return p.errorf("control character in a string")
		}
	}
	return p.errorf("unterminated string")
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return p.errorf("nested more than %d levels", maxDepth)
	}
	return nil
}

func (p *parser) object() (*Node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	n := &Node{Kind: '{', Start: p.i, trailing: -1}
	p.i++
	for {
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.i < len(p.src) && p.src[p.i] == '}' {
			if k := len(n.Members); k > 0 {
				n.trailing = n.Members[k-1].Comma
			}
			p.i++
			n.End = p.i
			return n, nil
		}
		if p.i >= len(p.src) || p.src[p.i] != '"' {
			return nil, p.errorf("expected a key or '}'")
		}
		m := Member{KeyStart: p.i, Comma: -1}
		if err := p.str(); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(p.src[m.KeyStart:p.i], &m.Key); err != nil {
			return nil, p.errorf("invalid key: %v", err)
		}
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.i >= len(p.src) || p.src[p.i] != ':' {
			return nil, p.errorf("expected ':' after key %q", m.Key)
		}
		p.i++
		if err := p.skip(); err != nil {
			return nil, err
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		m.Val = v
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.i < len(p.src) && p.src[p.i] == ',' {
			m.Comma = p.i
			p.i++
			n.Members = append(n.Members, m)
			continue
		}
		n.Members = append(n.Members, m)
		if p.i >= len(p.src) || p.src[p.i] != '}' {
			return nil, p.errorf("expected ',' or '}'")
		}
	}
}

func (p *parser) array() (*Node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	n := &Node{Kind: '[', Start: p.i, trailing: -1}
	p.i++
	lastComma := -1
	for {
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.i < len(p.src) && p.src[p.i] == ']' {
			n.trailing = lastComma
			p.i++
			n.End = p.i
			return n, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.Elems = append(n.Elems, v)
		lastComma = -1
		if err := p.skip(); err != nil {
			return nil, err
		}
		if p.i < len(p.src) && p.src[p.i] == ',' {
			lastComma = p.i
			p.i++
			continue
		}
		if p.i >= len(p.src) || p.src[p.i] != ']' {
			return nil, p.errorf("expected ',' or ']'")
		}
	}
}

// Decode turns n, a node of src, into Go values as encoding/json would
// (the last of duplicate keys wins).
func (n *Node) Decode(src []byte) (any, error) {
	switch n.Kind {
	case '{':
		m := make(map[string]any, len(n.Members))
		for _, mem := range n.Members {
			v, err := mem.Val.Decode(src)
			if err != nil {
				return nil, err
			}
			m[mem.Key] = v
		}
		return m, nil
	case '[':
		l := make([]any, 0, len(n.Elems))
		for _, e := range n.Elems {
			v, err := e.Decode(src)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		return l, nil
	}
	var v any
	if err := json.Unmarshal(src[n.Start:n.End], &v); err != nil {
		return nil, err
	}
	return v, nil
}

// Member returns the object's member named key, or nil. Two members with
// the name are an error: which one a program reads is unclear.
func (n *Node) Member(key string) (*Member, error) {
	var found *Member
	for i := range n.Members {
		if n.Members[i].Key == key {
			if found != nil {
				return nil, fmt.Errorf("%q appears twice", key)
			}
			found = &n.Members[i]
		}
	}
	return found, nil
}
