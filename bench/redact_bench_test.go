package bench

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
	"github.com/dbg-dev/dbg/toolkit/redact"
)

// localsAnswer is the envelope of a get_local_variables answer of n
// variables, one in ten named like a credential, one in ten holding a
// URL with a password.
func localsAnswer(n int) []byte {
	vars := make([]sessions.Variable, n)
	for i := range vars {
		v := sessions.Variable{Name: fmt.Sprintf("item%d", i), Value: fmt.Sprintf(`"value number %d of the list"`, i), Type: "str"}
		switch i % 10 {
		case 3:
			v.Name = fmt.Sprintf("apiToken%d", i)
		case 7:
			v.Value = fmt.Sprintf(`"postgres://bob:pw%d@db/app"`, i)
		}
		vars[i] = v
	}
	data := struct {
		Variables []sessions.Variable `json:"variables"`
	}{vars}
	b, _ := json.Marshal(toolkit.Envelope[any]{Success: true, Data: new(any(data)), RequestID: "r-1", Timestamp: "t"})
	return b
}

// BenchmarkRedactLocals is the cost redaction adds to an answer of 100
// locals, against encoding that answer (BenchmarkEncodeLocals).
func BenchmarkRedactLocals(b *testing.B) {
	answer := localsAnswer(100)
	b.SetBytes(int64(len(answer)))
	for b.Loop() {
		_ = redact.JSON(answer, false)
	}
}

// BenchmarkEncodeLocals encodes the same answer of 100 locals, the work
// every answer does with or without redaction.
func BenchmarkEncodeLocals(b *testing.B) {
	vars := make([]sessions.Variable, 100)
	for i := range vars {
		vars[i] = sessions.Variable{Name: fmt.Sprintf("item%d", i), Value: fmt.Sprintf(`"value number %d of the list"`, i), Type: "str"}
	}
	for b.Loop() {
		_, _ = json.Marshal(toolkit.Envelope[[]sessions.Variable]{Success: true, Data: &vars, RequestID: "r-1", Timestamp: "t"})
	}
}
