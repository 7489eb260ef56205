package toolkit

import (
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// compactSchema returns an input schema as small as what it says allows,
// since every byte of tools/list is paid by the agent reading it: a
// list or map that may be null is just a list or a map (an omitted
// argument is the same), and enums declared with [Enum] are set on
// their arguments. It changes s in place.
func compactSchema(s *jsonschema.Schema, enums map[string][]any) *jsonschema.Schema {
	seen := map[*jsonschema.Schema]bool{}
	var walk func(s *jsonschema.Schema)
	walk = func(s *jsonschema.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		if len(s.Types) == 2 && slices.Contains(s.Types, "null") {
			t := s.Types[0]
			if t == "null" {
				t = s.Types[1]
			}
			s.Types, s.Type = nil, t
		}
		for _, p := range s.Properties {
			walk(p)
		}
		walk(s.Items)
		walk(s.AdditionalProperties)
	}
	walk(s)
	for name, values := range enums {
		p := s.Properties[name]
		if p == nil {
			panic("enum on " + name + ", which is no argument")
		}
		p.Enum = values
	}
	return s
}
