package toolkit

import (
	"encoding/json"
	"errors"
	"testing"
)

type decodeIn struct {
	Line  Int    `json:"line"`
	Flag  Bool   `json:"flag"`
	Names []int  `json:"names"`
	Text  string `json:"text"`
}

func TestDecodeArgs(t *testing.T) {
	var in decodeIn
	if err := decodeArgs(json.RawMessage(`{"line":"12","flag":"true","text":"x"}`), &in); err != nil || in.Line != 12 || !in.Flag.Or(false) {
		t.Fatalf("%+v %v", in, err)
	}
	for _, bad := range []string{`{"line":"abc"}`, `{"line":1.5}`, `{"flag":"maybe"}`, `{"names":"x"}`, `[1]`, `{`} {
		var in decodeIn
		err := decodeArgs(json.RawMessage(bad), &in)
		var te *ToolError
		if !errors.As(err, &te) || te.Code != CodeInvalidArgument || te.Hint == "" {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

func FuzzDecodeArgs(f *testing.F) {
	f.Add([]byte(`{"line":"12","flag":true}`))
	f.Add([]byte(`{"names":[1,2],"text":"\u0000"}`))
	f.Add([]byte(`{"id":3,"probes":[{"id":"t","lin":1}],"reveal":true}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var in decodeIn
		_ = decodeArgs(data, &in)
		var a aliasIn
		if decodeArgs(data, &a, "reveal") == nil && a.BreakpointID != 0 && !json.Valid(data) {
			t.Fatalf("decoded invalid JSON %q", data)
		}
	})
}
