package toolkit

import "testing"

// WriteWhole's lines stand alone: never joined to another write's
// unterminated text, which still ends with its own next write.
func TestWriteWhole(t *testing.T) {
	r := NewOutputRing(1<<10, nil)
	r.Write("stdout", "trace-done")
	r.WriteWhole("stdout", "lp 325 3\nlp 326 3")
	r.Write("stdout", "p\n")
	if got := r.Text("stdout"); got != "lp 325 3\nlp 326 3\ntrace-donep\n" {
		t.Errorf("text %q", got)
	}
}
