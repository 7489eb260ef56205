package toolkit

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type refIn struct {
	SessionID string `json:"sessionId"`
}

type embeddedIn struct {
	refIn
	TimeoutMillis Int    `json:"timeoutMillis"`
	Items         []item `json:"items"`
	File          string `json:"file"`
	Big           string `json:"big" maxBytes:"200000"`
}

type item struct {
	Name string `json:"name"`
}

func decodeErr(t *testing.T, raw string) *ToolError {
	t.Helper()
	var in embeddedIn
	err := decodeArgs(json.RawMessage(raw), &in)
	var te *ToolError
	if !errors.As(err, &te) || te.Code != CodeInvalidArgument {
		t.Fatalf("%.80s: want INVALID_ARGUMENT, got %v", raw, err)
	}
	return te
}

// A key that differs from a known one only by case never overrides it:
// it is refused, naming the right key.
func TestDecodeKeysExactCase(t *testing.T) {
	te := decodeErr(t, `{"sessionId":"a","sessionID":"b"}`)
	if !strings.Contains(te.Message, `"sessionId"`) || len(te.AvailableOptions) != 1 || te.AvailableOptions[0] != "sessionId" {
		t.Fatalf("%+v", te)
	}
	if te := decodeErr(t, `{"items":[{"NAME":"x"}]}`); !strings.Contains(te.Message, "items.0.name") {
		t.Fatalf("nested: %+v", te)
	}
}

type aliasIn struct {
	refIn
	BreakpointID Int          `json:"breakpointId" alias:"id"`
	Verbose      Bool         `json:"verbose"`
	Probes       []aliasProbe `json:"probes"`
}

type aliasProbe struct {
	TraceID string `json:"traceId" alias:"id"`
	Line    Int    `json:"line"`
}

// A name that is no argument is refused, naming the closest argument, or
// listing them all when none is close; the names the toolbox reads
// itself pass.
func TestDecodeUnknownArguments(t *testing.T) {
	for raw, want := range map[string]string{
		`{"sessionId":"a","other":1}`:     `unknown argument "other": the arguments are big, file, items, sessionId, timeoutMillis`,
		`{"session":"a"}`:                 `unknown argument "session": did you mean "sessionId"?`,
		`{"session_id":"a"}`:              `unknown argument "session_id": did you mean "sessionId"?`,
		`{"timeoutMilis":1}`:              `unknown argument "timeoutMilis": did you mean "timeoutMillis"?`,
		`{"items":[{"nam":"x"}]}`:         `unknown argument "items.0.nam": did you mean "items.0.name"?`,
		`{"files":"x"}`:                   `unknown argument "files": did you mean "file"?`,
		`{"reveal":true}`:                 `unknown argument "reveal": the arguments are`,
		`{"sessionId":"a","SESSIONID":1}`: `unknown argument "SESSIONID": did you mean "sessionId"?`,
	} {
		te := decodeErr(t, raw)
		if !strings.HasPrefix(te.Message, want) {
			t.Errorf("%s:\n got %s\nwant %s", raw, te.Message, want)
		}
		if len(te.AvailableOptions) == 0 {
			t.Errorf("%s: no availableOptions in %+v", raw, te)
		}
	}
	var in embeddedIn
	if err := decodeArgs(json.RawMessage(`{"sessionId":"a","reveal":true}`), &in, "reveal"); err != nil || in.SessionID != "a" {
		t.Fatalf("an extra name the toolbox reads: %+v %v", in, err)
	}
	var none struct{}
	if err := decodeArgs(json.RawMessage(`{"x":1}`), &none); err == nil || !strings.Contains(err.Error(), "takes no arguments") {
		t.Fatalf("a tool without arguments: %v", err)
	}
}

// A field's alias (id, as dbg's list answers call it) sets the field, at
// every level; passing both names is refused.
func TestDecodeAlias(t *testing.T) {
	var in aliasIn
	if err := decodeArgs(json.RawMessage(`{"sessionId":"s","id":"7","verbose":"true","probes":[{"id":"t1","line":3}]}`), &in); err != nil {
		t.Fatal(err)
	}
	if in.BreakpointID != 7 || in.SessionID != "s" || !in.Verbose.Or(false) || len(in.Probes) != 1 || in.Probes[0].TraceID != "t1" || in.Probes[0].Line != 3 {
		t.Fatalf("%+v", in)
	}
	var both aliasIn
	err := decodeArgs(json.RawMessage(`{"id":1,"breakpointId":2}`), &both)
	var te *ToolError
	if !errors.As(err, &te) || te.Code != CodeInvalidArgument || !strings.Contains(te.Message, "pass one") {
		t.Fatalf("both names: %v", err)
	}
}

// Type errors name the field as the client wrote it and the kind it sent.
func TestDecodeTypeMessages(t *testing.T) {
	for raw, want := range map[string]string{
		`{"timeoutMillis":true}`:    `argument "timeoutMillis" must be a number, not the boolean true`,
		`{"sessionId":5}`:           `argument "sessionId" must be a string, not a number`,
		`{"timeoutMillis":"abc"}`:   `argument "timeoutMillis" must be a number, not the string "abc"`,
		`{"timeoutMillis":1e40}`:    `argument "timeoutMillis" must be a number, not the number 1e40`,
		`{"items":{}}`:              `argument "items" must be an array, not an object`,
		`{"items":[{},{"name":5}]}`: `argument "items.1.name" must be a string, not a number`,
		`[1]`:                       `argument "arguments" must be an object, not an array`,
	} {
		te := decodeErr(t, raw)
		if te.Message != want {
			t.Errorf("%s:\n got %s\nwant %s", raw, te.Message, want)
		}
		if strings.Contains(te.Message, "refIn") || strings.Contains(te.Message, "embeddedIn") {
			t.Errorf("%s leaks a Go name: %s", raw, te.Message)
		}
	}
}

// Strings are held to their limits, and no error echoes a long input.
func TestDecodeLimits(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	for _, raw := range []string{
		`{"sessionId":"` + strings.Repeat("i", MaxIDBytes+1) + `"}`,
		`{"file":"` + strings.Repeat("p", MaxPathBytes+1) + `"}`,
		`{"items":[{"name":"` + long + `"}]}`,
		`{"big":"` + long + `"}`,
		`{"sessionId":"a\u0000b"}`,
		`{"` + long + `":1, "SESSIONID":"x"}`,
		`{"timeoutMillis":"` + long + `"}`,
	} {
		te := decodeErr(t, raw)
		if b, _ := json.Marshal(te); len(b) > 2000 {
			t.Errorf("error of %d bytes for %.40s: %.200s", len(b), raw, b)
		}
	}
	var in embeddedIn
	if err := decodeArgs(json.RawMessage(`{"big":"`+strings.Repeat("b", 150000)+`"}`), &in); err != nil {
		t.Fatalf("maxBytes tag: %v", err)
	}
	if len(Clip(long)) > 200 || !strings.Contains(Clip(long), "1048576 bytes") {
		t.Fatalf("clip: %s", Clip(long))
	}
}

// Each value is decoded into its field once: nulls leave fields empty,
// embedded pointers are made on the way, numbers in an interface stay
// numbers as sent.
type ptrIn struct {
	*PtrRef
	Config map[string]any `json:"config"`
	Items  []item         `json:"items"`
	Opt    *item          `json:"opt"`
}

// PtrRef is embedded as a pointer, exported as encoding/json wants it.
type PtrRef struct {
	SessionID string `json:"sessionId"`
}

func TestDecodeFieldByField(t *testing.T) {
	var in ptrIn
	if err := decodeArgs(json.RawMessage(`{"sessionId":"s","config":{"n":12345678901234567890,"x":[1]},"items":null,"opt":{"name":"o"}}`), &in); err != nil {
		t.Fatal(err)
	}
	if in.PtrRef == nil || in.SessionID != "s" || in.Items != nil || in.Opt == nil || in.Opt.Name != "o" {
		t.Fatalf("%+v", in)
	}
	if n, ok := in.Config["n"].(json.Number); !ok || n.String() != "12345678901234567890" {
		t.Errorf("a number in an interface: %#v", in.Config["n"])
	}
	var none ptrIn
	if err := decodeArgs(json.RawMessage(`{"opt":null}`), &none); err != nil || none.PtrRef != nil || none.Opt != nil {
		t.Errorf("nulls: %+v %v", none, err)
	}
	if te := decodeErr(t, `{"sessionId":"a"`); !strings.Contains(te.Message, "not a valid JSON object") {
		t.Errorf("a cut object: %s", te.Message)
	}
}

// A business failure keeps the tool's data in a failed envelope.
func TestKeepData(t *testing.T) {
	var got json.RawMessage
	tb := NewToolbox(func(tl Tool) {
		got, _ = tl.Call(context.Background(), nil)
	}, nil)
	type out struct {
		Success   bool   `json:"success"`
		Throwable string `json:"throwable"`
	}
	AddTool(tb, "t", "", func(context.Context, struct{}) (out, error) {
		return out{Throwable: "boom"}, NewError(CodeInvocationFailed, "the method threw", "").KeepData()
	})
	var env Envelope[out]
	if err := json.Unmarshal(got, &env); err != nil || env.Success || env.Error == nil || env.Error.Code != CodeInvocationFailed || env.Data == nil || env.Data.Throwable != "boom" {
		t.Fatalf("%s", got)
	}
}

// Devices, kernel files and huge files are never read as sources.
func TestCheckReadable(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(src, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckReadable("file", src, 100, false); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/dev/zero", "/proc/self/mem", "/proc/self/status", dir, filepath.Join(dir, "none")} {
		if err := CheckReadable("file", p, 100, false); err == nil {
			t.Errorf("%s accepted", p)
		}
	}
	if err := CheckReadable("file", src, 3, false); err == nil {
		t.Error("size limit not applied")
	}
}
