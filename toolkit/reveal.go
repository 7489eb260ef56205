package toolkit

import (
	"encoding/json"
	"maps"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/dbg-dev/dbg/toolkit/redact"
)

// RevealParam is the argument with which a call asks for the raw values
// of credentials. Every tool whose answer holds values accepts it.
const RevealParam = "reveal"

// SetRevealSecrets turns the redaction of credentials off (true: every
// answer shows raw values, as a server started with --reveal-secrets
// does) or back on. Redaction is on by default.
func (tb *Toolbox) SetRevealSecrets(reveal bool) { tb.revealAll.Store(reveal) }

// RevealsSecrets reports whether redaction is off for the whole server.
func (tb *Toolbox) RevealsSecrets() bool { return tb.revealAll.Load() }

// SetNoReveal makes reveal: true an error in every call (true, as a
// server started with --no-reveal does): no argument lifts redaction.
func (tb *Toolbox) SetNoReveal(no bool) { tb.noReveal.Store(no) }

// Redact returns data, JSON a capability hands to a client outside a
// tool answer (a resource), with credentials redacted unless the server
// reveals them.
func (tb *Toolbox) Redact(data []byte) []byte {
	if tb.revealAll.Load() {
		return data
	}
	return redact.JSON(data, false)
}

// holdsValues reports whether answers of type t (encoded as JSON) can
// hold a program's values: some field at any depth is a value field. It
// reads the Go type, not a schema of it: answers have no schema.
func holdsValues(t reflect.Type) bool {
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type) bool
	walk = func(t reflect.Type) bool {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if seen[t] {
			return false
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.Slice, reflect.Array, reflect.Map:
			return walk(t.Elem())
		case reflect.Struct:
		default:
			return false
		}
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			switch {
			case name == "-" || (!f.IsExported() && !f.Anonymous):
				continue
			case f.Anonymous && name == "": // its fields are the struct's
				if walk(f.Type) {
					return true
				}
				continue
			case name == "":
				name = f.Name
			}
			if redact.ValueKey(name) || walk(f.Type) {
				return true
			}
		}
		return false
	}
	return walk(t)
}

// withRevealParam returns in with the reveal argument described.
func withRevealParam(in *jsonschema.Schema) *jsonschema.Schema {
	c := *in
	c.Properties = maps.Clone(in.Properties)
	if c.Properties == nil {
		c.Properties = map[string]*jsonschema.Schema{}
	}
	if _, ok := c.Properties[RevealParam]; !ok {
		// Undescribed: the name says it, and a redacted value shows ‹redacted›.
		c.Properties[RevealParam] = &jsonschema.Schema{Type: "boolean"}
	}
	return &c
}

// redactArgs are the arguments redaction reads: reveal, and the name of
// the value the answer is (an evaluated expression, a set variable).
type redactArgs struct {
	Reveal     Bool   `json:"reveal"`
	Expression string `json:"expression"`
	Name       string `json:"name"`
}

// redactArgsOf reads the redaction arguments of a decoded call: reveal
// from its raw value (the toolbox reads it, not the tool), the names
// from the input. A reveal that is no boolean is INVALID_ARGUMENT, and
// reveal: true on a server that refuses it (SetNoReveal) is UNSUPPORTED.
func (tb *Toolbox) redactArgsOf(a *callArgs) (redactArgs, error) {
	ra := redactArgs{Expression: a.stringArg("expression"), Name: a.stringArg("name")}
	fields, _ := a.object()
	if raw, ok := fields[RevealParam]; ok {
		if err := json.Unmarshal(raw, &ra.Reveal); err != nil {
			return ra, NewError(CodeInvalidArgument, "argument \"reveal\" must be a boolean, not "+DescribeJSON(raw),
				"pass reveal: true to show credentials, or leave it out")
		}
	}
	if ra.Reveal.Or(false) && tb.noReveal.Load() {
		return ra, NewError(CodeUnsupported, "reveal: true is refused: this server runs with --no-reveal, so credentials stay redacted in every answer",
			"leave reveal out; only the server's owner can restart it without --no-reveal")
	}
	return ra, nil
}

// redactAnswer redacts the credentials of an encoded envelope unless the
// call or the server reveals them.
func (tb *Toolbox) redactAnswer(ra redactArgs, envelope []byte) []byte {
	if tb.revealAll.Load() || ra.Reveal.Or(false) {
		return envelope
	}
	return redact.JSON(envelope, redact.SecretName(ra.Expression) || redact.SecretName(ra.Name))
}
