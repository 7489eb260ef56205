package mockdap

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// spinProgram loops for as long as a benchmark steps it.
const spinProgram = `let total = 0
for i in 1..1000000000
  let total = total + i
end
`

// BenchmarkStepEvaluate steps the mock adapter over DAP and evaluates a
// local at each stop: the path of every request a session sends (frame,
// decode, route, answer, events).
//
//	go test -run XXX -bench StepEvaluate ./adapters/mockdap/
func BenchmarkStepEvaluate(b *testing.B) {
	c := newMockClient(b)
	prog := filepath.Join(b.TempDir(), "spin.mock")
	if err := os.WriteFile(prog, []byte(spinProgram), 0o644); err != nil {
		b.Fatal(err)
	}
	c.start(prog, map[string]any{"line": 3})
	c.stopped(b)
	b.Run("step", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			c.req("next", map[string]any{"threadId": 1})
			c.stopped(b)
		}
	})
	b.Run("evaluate", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var ev struct{ Result string }
			if err := json.Unmarshal(c.req("evaluate", map[string]any{"expression": "total + i"}), &ev); err != nil || ev.Result == "" {
				b.Fatalf("evaluate: %q, %v", ev.Result, err)
			}
		}
	})
}

// stopped waits for the next stopped event.
func (c *mockClient) stopped(b *testing.B) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		select {
		case m := <-c.events:
			if m.Event == "stopped" {
				return
			}
		case <-ctx.Done():
			b.Fatal("no stop")
		}
	}
}
