package proc

import (
	"os"
	"testing"
)

func TestParseMaps(t *testing.T) {
	t.Parallel()
	in := "00400000-00cd4000 r-xp 00000000 08:01 123 /usr/bin/dbg\n" +
		"7ffd1000-7ffd2000 rw-p 00000000 00:00 0 \n" +
		"7f00-7e00 r--p 0 0 0 /backwards\n" +
		"garbage\n" +
		"01000000-01001000 r--p 00000000 08:01 9 /a path/with spaces\n"
	got := ParseMaps(in)
	want := []Mapping{
		{Start: 0x400000, End: 0xcd4000, Perms: "r-xp", Path: "/usr/bin/dbg"},
		{Start: 0x7ffd1000, End: 0x7ffd2000, Perms: "rw-p"},
		{Start: 0x1000000, End: 0x1001000, Perms: "r--p", Path: "/a path/with spaces"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("mapping %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestMappingsOfThisProcess(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ms, err := Mappings(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.Path == exe && m.Perms == "r-xp" {
			return
		}
	}
	t.Errorf("no r-xp mapping of %s among %d", exe, len(ms))
}
