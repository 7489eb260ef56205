package toolkit

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

type revealVar struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

type revealOut struct {
	Variables []revealVar `json:"variables"`
	File      string      `json:"file"`
}

type evalOut struct {
	Result string `json:"result"`
}

type plainOut struct {
	ID string `json:"id"`
}

// toolsOf returns a Toolbox serving into a map of tools.
func toolsOf() (*Toolbox, map[string]Tool) {
	tools := map[string]Tool{}
	return NewToolbox(func(t Tool) { tools[t.Name] = t }, nil), tools
}

func callData(t *testing.T, tool Tool, args string) (string, bool) {
	t.Helper()
	b, failed := tool.Call(context.Background(), json.RawMessage(args))
	return string(b), failed
}

func TestRedactionOfAnswers(t *testing.T) {
	tb, tools := toolsOf()
	AddTool(tb, "locals", "", func(context.Context, struct{}) (revealOut, error) {
		return revealOut{File: "/src/password.go", Variables: []revealVar{{"password", `"hunter2"`}, {"auth", `"Bearer abcdefgh1234"`}, {"n", "3"}}}, nil
	}, ListReveal())
	AddTool(tb, "eval", "", func(_ context.Context, in struct {
		Expression string `json:"expression"`
	}) (evalOut, error) {
		return evalOut{Result: `"s3cret"`}, nil
	}, ListReveal())
	AddTool(tb, "plain", "", func(context.Context, struct{}) (plainOut, error) { return plainOut{"x"}, nil })
	// A tool whose answer holds values but that does not list reveal
	// (a stop answer's changed values) takes it all the same.
	AddTool(tb, "stop", "", func(context.Context, struct{}) (revealOut, error) {
		return revealOut{Variables: []revealVar{{"password", `"hunter2"`}}}, nil
	})
	if got, failed := callData(t, tools["stop"], `{"reveal":true}`); failed || !strings.Contains(got, "hunter2") {
		t.Errorf("reveal: true on a tool that does not list it: %s", got)
	}
	if got, _ := callData(t, tools["stop"], `{}`); strings.Contains(got, "hunter2") {
		t.Errorf("a stop answer: %s", got)
	}

	got, _ := callData(t, tools["locals"], `{}`)
	if strings.Contains(got, "hunter2") || strings.Contains(got, "abcdefgh1234") || !strings.Contains(got, `"value":"3"`) || !strings.Contains(got, "/src/password.go") {
		t.Errorf("redacted answer: %s", got)
	}
	if got, _ := callData(t, tools["locals"], `{"reveal":true}`); !strings.Contains(got, `hunter2`) || !strings.Contains(got, "abcdefgh1234") {
		t.Errorf("reveal: true: %s", got)
	}
	if got, _ := callData(t, tools["eval"], `{"expression":"db.Password"}`); strings.Contains(got, "s3cret") || !strings.Contains(got, `"result":"‹redacted›"`) {
		t.Errorf("evaluation of a credential: %s", got)
	}
	if got, _ := callData(t, tools["eval"], `{"expression":"user"}`); !strings.Contains(got, "s3cret") {
		t.Errorf("evaluation of a plain name: %s", got)
	}
	if got, failed := callData(t, tools["locals"], `{"reveal":"sometimes"}`); !failed || !strings.Contains(got, CodeInvalidArgument) {
		t.Errorf("a bad reveal: %s", got)
	}
	tb.SetRevealSecrets(true)
	if got, _ := callData(t, tools["locals"], `{}`); !strings.Contains(got, "hunter2") {
		t.Errorf("a server that reveals: %s", got)
	}

	for name, want := range map[string]bool{"locals": true, "eval": true, "plain": false, "stop": false} {
		_, has := tools[name].InputSchema.Properties[RevealParam]
		if has != want {
			t.Errorf("%s: reveal in its input schema = %v, want %v", name, has, want)
		}
	}
}

func TestRedactForResources(t *testing.T) {
	tb, _ := toolsOf()
	in := []byte(`{"lastStop":{"changed":[{"name":"apiKey","old":"a","new":"b"}]}}`)
	if got := string(tb.Redact(in)); strings.Contains(got, `"b"`) {
		t.Errorf("Redact: %s", got)
	}
	tb.SetRevealSecrets(true)
	if got := string(tb.Redact(in)); got != string(in) {
		t.Errorf("Redact on a server that reveals: %s", got)
	}
}

// With SetNoReveal (--no-reveal) no call lifts the redaction: reveal:
// true is UNSUPPORTED naming the flag, and the tool does not run.
func TestNoRevealRefusesReveal(t *testing.T) {
	tb, tools := toolsOf()
	ran := 0
	AddTool(tb, "locals", "", func(context.Context, struct{}) (revealOut, error) {
		ran++
		return revealOut{Variables: []revealVar{{"password", `"hunter2"`}}}, nil
	})
	tb.SetNoReveal(true)
	got, failed := callData(t, tools["locals"], `{"reveal":true}`)
	if !failed || strings.Contains(got, "hunter2") || !strings.Contains(got, `"code":"UNSUPPORTED"`) || !strings.Contains(got, "--no-reveal") || ran != 0 {
		t.Errorf("reveal: true with --no-reveal: %s (ran %d)", got, ran)
	}
	if got, failed := callData(t, tools["locals"], `{"reveal":false}`); failed || strings.Contains(got, "hunter2") {
		t.Errorf("reveal: false: %s", got)
	}
}
