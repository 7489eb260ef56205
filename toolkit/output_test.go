package toolkit

import (
	"strings"
	"testing"
)

func TestOutputRing(t *testing.T) {
	r := NewOutputRing(40, nil)
	r.Write("stdout", "one\ntw")
	r.Write("stdout", "o\n")
	r.Write("stderr", "err\n")
	lines, dropped, next := r.Since(0, 0, "")
	if len(lines) != 3 || lines[1].Text != "two" || dropped != 0 || next != 3 {
		t.Fatalf("lines %+v dropped %d next %d", lines, dropped, next)
	}
	if got, _, _ := r.Since(0, 0, "stderr"); len(got) != 1 || got[0].Text != "err" {
		t.Fatalf("by category %+v", got)
	}
	if got, _, _ := r.Since(2, 0, ""); len(got) != 1 || got[0].Seq != 3 {
		t.Fatalf("since %+v", got)
	}
	for i := 0; i < 20; i++ {
		r.Write("stdout", "0123456789\n")
	}
	lines, dropped, _ = r.Since(0, 0, "")
	if dropped == 0 || len(lines) > 4 {
		t.Fatalf("ring not bounded: %d lines, %d dropped", len(lines), dropped)
	}
	if got, _, _ := r.Since(0, 2, ""); len(got) != 2 {
		t.Fatalf("limit: %d", len(got))
	}
	r.Write("stdout", "partial")
	if !strings.Contains(r.Text(""), "partial") {
		t.Fatalf("partial line hidden")
	}
	r.Flush()
	if l, _, _ := r.Since(0, 0, ""); l[len(l)-1].Seq == 0 {
		t.Fatalf("flush did not number the partial line")
	}
}
