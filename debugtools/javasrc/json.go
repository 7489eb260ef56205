package javasrc

import (
	"encoding/json"
)

// jsonNode is a JSON value whose objects keep their key order.
type jsonNode struct {
	kind  jsonKind
	text  string // string value, or raw literal
	keys  []string
	items []*jsonNode
}

type jsonKind uint8

const (
	kindRaw jsonKind = iota
	kindString
	kindArray
	kindObject
)

func jsonRaw(lit string) *jsonNode  { return &jsonNode{kind: kindRaw, text: lit} }
func jsonString(s string) *jsonNode { return &jsonNode{kind: kindString, text: s} }
func jsonArray() *jsonNode          { return &jsonNode{kind: kindArray} }
func jsonObject() *jsonNode         { return &jsonNode{kind: kindObject} }
func (n *jsonNode) add(v *jsonNode) { n.items = append(n.items, v) }

// set adds a key, or replaces the value of an existing one in place.
func (n *jsonNode) set(k string, v *jsonNode) {
	for i, old := range n.keys {
		if old == k {
			n.items[i] = v
			return
		}
	}
	n.keys = append(n.keys, k)
	n.items = append(n.items, v)
}

func (n *jsonNode) appendTo(b []byte) []byte {
	switch n.kind {
	case kindString:
		q, _ := json.Marshal(n.text)
		return append(b, q...)
	case kindArray:
		b = append(b, '[')
		for i, it := range n.items {
			if i > 0 {
				b = append(b, ',')
			}
			b = it.appendTo(b)
		}
		return append(b, ']')
	case kindObject:
		b = append(b, '{')
		for i, k := range n.keys {
			if i > 0 {
				b = append(b, ',')
			}
			q, _ := json.Marshal(k)
			b = append(b, q...)
			b = append(b, ':')
			b = n.items[i].appendTo(b)
		}
		return append(b, '}')
	}
	return append(b, n.text...)
}
