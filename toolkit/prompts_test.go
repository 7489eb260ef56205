package toolkit

import (
	"context"
	"strings"
	"testing"
)

type promptIn struct {
	SessionID string `json:"sessionId"`
	Line      Int    `json:"line"`
	File      string `json:"file"`
}

func promptToolbox() *Toolbox {
	tb := NewToolbox(func(Tool) {}, nil)
	AddTool(tb, "go_to", "", func(context.Context, promptIn) (nameOut, error) { return nameOut{}, nil }, Hints{Title: "Go"})
	return tb
}

var testPrompt = Prompt{
	Name: "p", Intro: "Do it.",
	Arguments: []PromptArgument{{Name: "file", Required: true}, {Name: "line"}},
	Steps:     []PromptStep{{Tool: "go_to", Args: map[string]any{"sessionId": "{sessionId}", "file": "{file}", "line": "{line}"}, Why: "look"}},
}

// Arguments fill their placeholders (digits as numbers); an empty
// optional one drops its key, an empty required one is an error; other
// placeholders are left for answer fields.
func TestPromptRender(t *testing.T) {
	t.Parallel()
	got, err := testPrompt.Render(map[string]string{"file": "a.go", "line": "12"})
	if err != nil || !strings.Contains(got, `1. go_to {"file":"a.go","line":12,"sessionId":"{sessionId}"} — look`) || !strings.HasPrefix(got, "Do it.") {
		t.Errorf("%q %v", got, err)
	}
	got, err = testPrompt.Render(map[string]string{"file": "a.go"})
	if err != nil || strings.Contains(got, "line") {
		t.Errorf("without the optional line: %q %v", got, err)
	}
	if _, err := testPrompt.Render(nil); err == nil || !strings.Contains(err.Error(), "file") {
		t.Errorf("without the required file: %v", err)
	}
}

// A prompt naming a tool or an argument that does not exist is refused
// when added.
func TestAddPromptChecksSteps(t *testing.T) {
	t.Parallel()
	tb := promptToolbox()
	tb.AddPrompt(testPrompt)
	if len(tb.Prompts()) != 1 {
		t.Fatal("the prompt was not kept")
	}
	for _, st := range []PromptStep{{Tool: "nosuch"}, {Tool: "go_to", Args: map[string]any{"lines": 1}}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("step %+v was accepted", st)
				}
			}()
			tb.AddPrompt(Prompt{Name: "bad", Steps: []PromptStep{st}})
		}()
	}
}
