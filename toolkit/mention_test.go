package toolkit

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// guideOut is an answer with guidance fields and others, at several
// depths.
type guideOut struct {
	Hint         string     `json:"hint"`
	Message      string     `json:"message"`
	Items        []guideRow `json:"items"`
	Capabilities []guideRow `json:"capabilities"`
}

type guideRow struct {
	Note   string `json:"note"`
	Text   string `json:"text"`
	Reason string `json:"reason"`
}

// guideToolbox is policyToolbox's with a core tool "guide" whose answer
// names text in its guidance fields and its values, and fails with text
// as its hint when told to.
func guideToolbox(t *testing.T, p Policy, text string) *Toolbox {
	t.Helper()
	tb, _ := policyToolbox(t, p)
	AddTool(tb, "guide", "guides", func(_ context.Context, in struct {
		Fail bool `json:"fail"`
	}) (guideOut, error) {
		if in.Fail {
			return guideOut{}, NewError(CodeInvalidState, "cannot: "+text, "call "+text)
		}
		return guideOut{Hint: "next: " + text, Message: text, Items: []guideRow{{Note: text, Text: text, Reason: text}},
			Capabilities: []guideRow{{Reason: text}}}, nil
	}, Hints{Title: "Guide", ReadOnly: true})
	return tb
}

func guide(t *testing.T, tb *Toolbox, fail bool) (guideOut, *ToolError) {
	t.Helper()
	tool, _ := tb.Lookup("guide")
	b, _ := tool.Call(context.Background(), json.RawMessage(map[bool]string{true: `{"fail":true}`, false: `{}`}[fail]))
	var env Envelope[guideOut]
	if err := json.Unmarshal(b, &env); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if env.Data == nil {
		return guideOut{}, env.Error
	}
	return *env.Data, env.Error
}

// A hint, a note or a capability's reason that names a tool the server
// does not list says how to list it, right after the name; other fields
// are left as they are (the program's words), and so is a mention of a
// listed tool. Once its set is enabled, the mention is plain again.
func TestMentionUnlistedTools(t *testing.T) {
	t.Parallel()
	tb := guideToolbox(t, Policy{}, "other_read or wanted_read")
	const noted = "other_read (enable_toolset other lists it) or wanted_read"
	out, _ := guide(t, tb, false)
	if out.Hint != "next: "+noted || out.Items[0].Note != noted || out.Capabilities[0].Reason != noted {
		t.Errorf("guidance: %+v", out)
	}
	if plain := "other_read or wanted_read"; out.Message != plain || out.Items[0].Text != plain || out.Items[0].Reason != plain {
		t.Errorf("other fields were changed: %+v", out)
	}
	_, te := guide(t, tb, true)
	if te == nil || te.Hint != "call "+noted || te.Message != "cannot: other_read or wanted_read" {
		t.Errorf("error: %+v", te)
	}
	if got := mention("use other_poke, other_reader, xother_read, or guide", tb.mentionNotes(), ""); got != "use other_poke (enable_toolset other lists it), other_reader, xother_read, or guide" {
		t.Errorf("mention: %q", got)
	}
	shell := WithCaller(context.Background(), namedCaller(ShellClient+" 1.0"))
	tool, _ := tb.Lookup("guide")
	if b, _ := tool.Call(shell, json.RawMessage(`{}`)); strings.Contains(string(b), "enable_toolset") {
		t.Errorf("an answer to dbg's own CLI has notes: %s", b)
	}
	if _, err := tb.EnableToolset("other"); err != nil {
		t.Fatal(err)
	}
	if out, _ := guide(t, tb, false); out.Hint != "next: other_read or wanted_read" {
		t.Errorf("after enable_toolset other: %q", out.Hint)
	}
}

// namedCaller is a caller of a client name that cannot be asked.
type namedCaller string

func (c namedCaller) Client() string { return string(c) }

func (namedCaller) Confirm(context.Context, string) (bool, error) { return false, ErrCannotConfirm }

// A tool the profile refuses cannot be listed: a mention says so.
func TestMentionRefusedTools(t *testing.T) {
	t.Parallel()
	tb := guideToolbox(t, Policy{Toolsets: []string{AllToolsets}, Profile: ProfileReadOnly}, "other_poke")
	if out, _ := guide(t, tb, false); out.Hint != "next: other_poke (refused by --profile read-only)" {
		t.Errorf("a refused tool: %q", out.Hint)
	}
}

// The tool answering is not annotated in its own answer: the agent has
// it.
func TestMentionSelf(t *testing.T) {
	t.Parallel()
	tb := guideToolbox(t, Policy{}, "other_read")
	tool, _ := tb.Lookup("guide")
	b := tb.mentionAnswer([]byte(`{"data":{"hint":"guide or other_read"}}`), tool.Name)
	if string(b) != `{"data":{"hint":"guide or other_read (enable_toolset other lists it)"}}` {
		t.Errorf("%s", b)
	}
	if b := tb.mentionAnswer([]byte(`{"data":{"hint":"other_read"}}`), "other_read"); string(b) != `{"data":{"hint":"other_read"}}` {
		t.Errorf("self: %s", b)
	}
}

// A prompt's step whose tool is not listed says how to list it, once per
// toolset.
func TestMentionPromptSteps(t *testing.T) {
	t.Parallel()
	tb, _ := policyToolbox(t, Policy{})
	p := Prompt{Name: "p", Intro: "Read.", Steps: []PromptStep{
		{Tool: "read", Args: map[string]any{}, Why: "first"},
		{Tool: "other_read", Args: map[string]any{}},
		{Tool: "other_poke", Args: map[string]any{}, Why: "then"},
	}}
	text, err := tb.RenderPrompt(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "1. read {} — first\n") || !strings.Contains(text, "2. other_read {} — (enable_toolset other lists it)\n") ||
		!strings.Contains(text, "3. other_poke {} — then\n") {
		t.Errorf("%s", text)
	}
}
