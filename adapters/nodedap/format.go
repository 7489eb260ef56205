package nodedap

import (
	"encoding/json"
	"strconv"
	"strings"
)

// formatValue renders a value the way a debugger's variables view shows it:
// strings quoted, numbers plain, objects by their preview when there is one
// (an array as [1, 2], a Map as Map(2) {a => 1}), functions by signature.
func formatValue(o *remoteObject) string {
	if o == nil {
		return "undefined"
	}
	switch o.Type {
	case "undefined":
		return "undefined"
	case "string":
		var s string
		if json.Unmarshal(o.Value, &s) == nil {
			return strconv.Quote(s)
		}
		return o.Description
	case "number", "boolean":
		if o.UnserializableValue != "" {
			return o.UnserializableValue
		}
		if len(o.Value) > 0 {
			return string(o.Value)
		}
		return o.Description
	case "bigint":
		if o.UnserializableValue != "" {
			return o.UnserializableValue
		}
		return o.Description + "n"
	case "symbol":
		return o.Description
	case "function":
		return functionSignature(o.Description)
	case "object":
		if o.Subtype == "null" {
			return "null"
		}
		if o.Preview != nil {
			return formatPreview(o.Preview)
		}
		return o.Description
	}
	if o.Description != "" {
		return o.Description
	}
	return string(o.Value)
}

// functionSignature shortens a function's source to its head.
func functionSignature(src string) string {
	head := src
	if i := strings.IndexAny(head, "{\n"); i > 0 {
		head = head[:i]
	}
	head = strings.TrimSpace(head)
	if len(head) > 80 {
		head = head[:80] + "…"
	}
	if head == "" {
		return "function"
	}
	if strings.HasPrefix(head, "class ") {
		return head
	}
	if !strings.HasPrefix(head, "function") && !strings.HasPrefix(head, "async") {
		return "ƒ " + head
	}
	return head
}

func formatPreview(p *objectPreview) string {
	var b strings.Builder
	more := func() {
		if p.Overflow {
			b.WriteString(", …")
		}
	}
	switch p.Subtype {
	case "array", "typedarray":
		b.WriteString("[")
		for i, pr := range p.Properties {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(previewValue(pr.Type, pr.Subtype, pr.Value))
		}
		more()
		b.WriteString("]")
		return b.String()
	case "map", "set":
		b.WriteString(p.Description)
		b.WriteString(" {")
		for i, e := range p.Entries {
			if i > 0 {
				b.WriteString(", ")
			}
			if e.Key != nil {
				b.WriteString(previewOf(e.Key))
				b.WriteString(" => ")
			}
			b.WriteString(previewOf(&e.Value))
		}
		more()
		b.WriteString("}")
		return b.String()
	case "error", "regexp", "date", "promise", "proxy", "weakmap", "weakset", "iterator", "generator":
		if p.Subtype == "error" {
			return firstLine(p.Description)
		}
		if len(p.Properties) == 0 {
			return p.Description
		}
	}
	if p.Type != "object" {
		return p.Description
	}
	if p.Description != "" && p.Description != "Object" {
		b.WriteString(p.Description)
		b.WriteString(" ")
	}
	b.WriteString("{")
	for i, pr := range p.Properties {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(pr.Name)
		b.WriteString(": ")
		b.WriteString(previewValue(pr.Type, pr.Subtype, pr.Value))
	}
	more()
	b.WriteString("}")
	return b.String()
}

func previewOf(p *objectPreview) string {
	if p.Type == "object" && p.Subtype != "null" {
		return p.Description
	}
	return previewValue(p.Type, p.Subtype, p.Description)
}

func previewValue(typ, subtype, v string) string {
	switch typ {
	case "string":
		return strconv.Quote(v)
	case "function":
		return "ƒ"
	case "accessor":
		return "(getter)"
	case "object":
		if subtype == "null" {
			return "null"
		}
	}
	return v
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// typeName is the DAP "type" of a value.
func typeName(o *remoteObject) string {
	if o == nil {
		return "undefined"
	}
	if o.Type == "object" {
		if o.Subtype == "null" {
			return "null"
		}
		if o.ClassName != "" {
			return o.ClassName
		}
	}
	return o.Type
}

// expandable reports whether a value has children to show.
func expandable(o *remoteObject) bool {
	return o != nil && o.ObjectID != "" && (o.Type == "object" && o.Subtype != "null")
}
