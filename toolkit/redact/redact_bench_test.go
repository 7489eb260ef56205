package redact

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// localsAnswer is a get_local_variables answer with n locals of the
// shapes programs have: numbers, strings, struct and map summaries, a
// few named like credentials, one holding a URL with a password.
func localsAnswer(n int) []byte {
	type variable struct {
		Name               string `json:"name"`
		Value              string `json:"value"`
		Type               string `json:"type"`
		VariablesReference int    `json:"variablesReference"`
	}
	vars := make([]variable, n)
	for i := range vars {
		v := variable{Name: fmt.Sprintf("local%d", i), Type: "int", Value: fmt.Sprint(i * 7)}
		switch i % 10 {
		case 1:
			v.Type, v.Value = "str", fmt.Sprintf("'item number %d of the order, shipped'", i)
		case 2:
			v.Type, v.Value = "main.Order", fmt.Sprintf("main.Order {ID: %d, Customer: \"bob\", Total: 12.5, Lines: []main.Line len: 3, cap: 4}", i)
			v.VariablesReference = i + 1000
		case 3:
			v.Type, v.Value = "dict", "{'host': 'db.internal', 'port': 5432, 'user': 'app', 'timeout': 30}"
		case 4:
			v.Name, v.Type, v.Value = fmt.Sprintf("apiKey%d", i), "str", "'k-3f9a8b7c6d5e4f3a2b1c'"
		case 5:
			v.Type, v.Value = "str", "'postgres://app:s3cr3t@db.internal:5432/shop'"
		case 6:
			v.Type, v.Value = "list", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]"
		}
		vars[i] = v
	}
	b, _ := json.Marshal(map[string]any{"success": true, "data": map[string]any{"variables": vars}, "requestId": "r-1", "timestamp": "2026-01-01T00:00:00Z"})
	return b
}

// adversarial are 64 KiB strings shaped to make a redactor work hardest:
// pair separators everywhere, quotes that never close, nested escaped
// JSON, encoded pairs, and prefixes of every token shape.
func adversarial() map[string]string {
	const size = 64 << 10
	fill := func(unit string) string { return strings.Repeat(unit, size/len(unit)+1)[:size] }
	nested := `{"password":"x"}`
	for len(nested) < size {
		b, _ := json.Marshal(map[string]string{"v": nested})
		nested = string(b)
	}
	return map[string]string{
		"pairs":     fill("a=b:c=>d "),
		"quotes":    fill(`password="\"`),
		"nested":    nested[:size],
		"encoded":   fill("password%3Dx%26"),
		"prefixes":  fill("Bearer ghp_ AKIA eyJ.eyJ. -----BEGIN ://u:p@ npm_ hf_ "),
		"separated": fill("x,y;z}]&"),
	}
}

// BenchmarkRedactLocals100 redacts a 100-local answer.
func BenchmarkRedactLocals100(b *testing.B) {
	data := localsAnswer(100)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		JSON(data, false)
	}
}

// BenchmarkRedactAdversarial64K redacts each 64 KiB adversarial string
// as a value of an answer.
func BenchmarkRedactAdversarial64K(b *testing.B) {
	for name, s := range adversarial() {
		data, _ := json.Marshal(map[string]string{"value": s})
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				JSON(data, false)
			}
		})
	}
}
