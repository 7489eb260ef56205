package cobol

import (
	"bytes"
	"testing"
)

func TestParseMemoryRead(t *testing.T) {
	out := "(lldb) memory read -s1 -fx -c 10 &b_8[0]\n0x555555558180: 0x30 0x30 0x31 0x30 0x30 0x20 0x41 0x42\n0x555555558188: 0x7d 0x0c\n"
	got := ParseMemoryRead(out)
	want := []byte{0x30, 0x30, 0x31, 0x30, 0x30, 0x20, 0x41, 0x42, 0x7d, 0x0c}
	if !bytes.Equal(got, want) {
		t.Errorf("got % x, want % x", got, want)
	}
	if got := ParseMemoryRead("error: invalid start address expression.\n"); len(got) != 0 {
		t.Errorf("error text parsed as % x", got)
	}
}

func TestValidStorage(t *testing.T) {
	for s, want := range map[string]bool{"b_8": true, "b_123": true, "b_": false, "b_8;rm": false, "x_8": false, "": false} {
		if validStorage(s) != want {
			t.Errorf("validStorage(%q) = %v", s, !want)
		}
	}
}

func FuzzParseMemoryRead(f *testing.F) {
	f.Add("0x1000: 0x30 0x31\n")
	f.Add("0xzz: 0x30\n0x10: 0x300 0x1")
	f.Fuzz(func(t *testing.T, s string) {
		_ = ParseMemoryRead(s)
	})
}
