package toolkit

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Prompt is a short recipe a capability offers clients (an MCP prompt):
// a sequence of dbg's own tool calls with their real argument names.
// Steps are data, so that a test can run a prompt's sequence against a
// fixture and the text a client receives is rendered from them.
type Prompt struct {
	Name        string
	Title       string
	Description string // one line
	Arguments   []PromptArgument
	Intro       string // what the sequence does, one or two sentences
	Steps       []PromptStep
}

// PromptArgument is one argument a client fills in.
type PromptArgument struct {
	Name        string
	Description string
	Required    bool
}

// PromptStep is one call of a prompt's sequence. String values of Args
// may hold placeholders: {name} of one of the prompt's arguments is its
// value (a value that is only the placeholder of an argument left empty
// drops the key; one of digits becomes a number), and any other {name}
// is the field name of an earlier answer's data (sessionId,
// connectionId), which the client fills in.
type PromptStep struct {
	Tool string
	Args map[string]any
	Why  string // what to look at in the answer, or why the call
}

// PromptServer serves prompts to clients: package mcpbind's serves them
// on an MCP server.
type PromptServer interface {
	AddPrompt(p Prompt)
}

// SetPromptServer sets where the Toolbox's prompts are served.
func (tb *Toolbox) SetPromptServer(ps PromptServer) {
	tb.mu.Lock()
	tb.prompts = ps
	tb.mu.Unlock()
}

// AddPrompt serves a prompt (a Toolbox without a PromptServer drops it).
// It panics when a step names no tool of the toolbox or an argument its
// input does not have: a prompt never teaches a call that cannot work.
func (tb *Toolbox) AddPrompt(p Prompt) {
	for i, st := range p.Steps {
		t, ok := tb.Lookup(st.Tool)
		if !ok {
			panic(fmt.Sprintf("prompt %s step %d: no tool %s", p.Name, i+1, st.Tool))
		}
		for k := range st.Args {
			if _, ok := t.InputSchema.Properties[k]; !ok {
				panic(fmt.Sprintf("prompt %s step %d: %s takes no argument %s", p.Name, i+1, st.Tool, k))
			}
		}
	}
	tb.mu.Lock()
	ps := tb.prompts
	tb.allPrompts = append(tb.allPrompts, p)
	tb.mu.Unlock()
	if ps != nil {
		ps.AddPrompt(p)
	}
}

// Prompts returns the prompts added so far.
func (tb *Toolbox) Prompts() []Prompt {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return slices.Clone(tb.allPrompts)
}

var placeholder = regexp.MustCompile(`\{([A-Za-z]+)\}`)

// StepArgs returns a step's arguments with the placeholders of the
// prompt's arguments filled from values. A required argument left empty
// is an error.
func (p Prompt) StepArgs(st PromptStep, values map[string]string) (map[string]any, error) {
	out := map[string]any{}
	for k, v := range st.Args {
		s, ok := v.(string)
		if !ok {
			out[k] = v
			continue
		}
		if m := placeholder.FindStringSubmatch(s); m != nil && m[0] == s && p.argument(m[1]) != nil {
			val := strings.TrimSpace(values[m[1]])
			switch {
			case val == "" && p.argument(m[1]).Required:
				return nil, fmt.Errorf("prompt %s: argument %s is required", p.Name, m[1])
			case val == "":
				continue
			}
			if n, err := strconv.ParseInt(val, 10, 64); err == nil {
				out[k] = n
			} else {
				out[k] = val
			}
			continue
		}
		out[k] = placeholder.ReplaceAllStringFunc(s, func(ph string) string {
			if p.argument(ph[1:len(ph)-1]) != nil {
				return values[ph[1:len(ph)-1]]
			}
			return ph
		})
	}
	return out, nil
}

func (p Prompt) argument(name string) *PromptArgument {
	for i := range p.Arguments {
		if p.Arguments[i].Name == name {
			return &p.Arguments[i]
		}
	}
	return nil
}

// Render is the prompt's text for the given arguments: the intro, then
// one numbered line per step with the call's JSON arguments.
func (p Prompt) Render(values map[string]string) (string, error) {
	return p.render(values, nil)
}

// RenderPrompt is p's text for the given arguments as this server's
// clients get it: a step whose tool the server does not list says how
// to list it, or that the profile refuses it (as answers do: mention.go).
func (tb *Toolbox) RenderPrompt(p Prompt, values map[string]string) (string, error) {
	return p.render(values, tb.mentionNotes())
}

// render is Render with notes on the steps whose tool is a key of notes,
// each note on the first step that needs it.
func (p Prompt) render(values map[string]string, notes map[string]string) (string, error) {
	var noted []string
	var b strings.Builder
	b.WriteString(p.Intro)
	b.WriteString(" Fill each {name} left below with the field of that name in an earlier answer.\n")
	for i, st := range p.Steps {
		args, err := p.StepArgs(st, values)
		if err != nil {
			return "", err
		}
		js, _ := json.Marshal(args)
		fmt.Fprintf(&b, "%d. %s %s", i+1, st.Tool, js)
		why := st.Why
		if note, ok := notes[st.Tool]; ok && !slices.Contains(noted, note) { // once per toolset
			noted = append(noted, note)
			why = strings.TrimSpace(why + " (" + note + ")")
		}
		if why != "" {
			b.WriteString(" — " + why)
		}
		b.WriteString("\n")
	}
	return b.String(), nil
}
