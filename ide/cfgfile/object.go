package cfgfile

import "strings"

// Field is one key of an [Object]. Its Value is a string or a []string.
type Field struct {
	Key   string
	Value any
}

// Object is a flat object written into a configuration file, its fields
// in order: a JSON object, or the keys of a TOML table.
type Object []Field

// Value is the object as encoding/json decodes it.
func (o Object) Value() map[string]any {
	v := make(map[string]any, len(o))
	for _, f := range o {
		switch x := f.Value.(type) {
		case []string:
			l := make([]any, len(x))
			for i, s := range x {
				l[i] = s
			}
			v[f.Key] = l
		default:
			v[f.Key] = x
		}
	}
	return v
}

// list renders a string list on one line, each item quoted by quote.
func list(items []string, quote func(string) string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func (f Field) render(quote func(string) string) string {
	switch x := f.Value.(type) {
	case []string:
		return list(x, quote)
	case string:
		return quote(x)
	}
	return quote("")
}

// JSON renders the object with one field a line, its closing brace at
// indent ind; unit is one level of indentation and nl the line break.
func (o Object) JSON(ind, unit, nl string) string {
	in := ind + unit
	var b strings.Builder
	b.WriteString("{" + nl)
	for i, f := range o {
		b.WriteString(in + JSONQuote(f.Key) + ": " + f.render(JSONQuote))
		if i < len(o)-1 {
			b.WriteString(",")
		}
		b.WriteString(nl)
	}
	b.WriteString(ind + "}")
	return b.String()
}

// TOML renders the object as the table [table.name].
func (o Object) TOML(table, name, nl string) string {
	var b strings.Builder
	b.WriteString("[" + TOMLKey(table) + "." + TOMLKey(name) + "]" + nl)
	for _, f := range o {
		b.WriteString(TOMLKey(f.Key) + " = " + f.render(TOMLString) + nl)
	}
	return b.String()
}

// JSONSnippet is what to add by hand to a JSON file's key object.
func JSONSnippet(key, name string, o Object) string {
	return JSONQuote(key) + ": {\n  " + JSONQuote(name) + ": " + o.JSON("  ", "  ", "\n") + "\n}\n"
}
