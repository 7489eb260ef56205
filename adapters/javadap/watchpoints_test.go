package javadap

import "testing"

func TestFieldDataID(t *testing.T) {
	want := fieldTarget{class: 12, field: 34, object: 56, name: "a.b:c"}
	got, err := parseDataID(want.dataID())
	if err != nil || got != want {
		t.Errorf("parseDataID(%q) = %+v, %v; want %+v", want.dataID(), got, err, want)
	}
	for _, bad := range []string{"", "field:1:2", "field:x:2:3:n", "local:1:2:3:n"} {
		if _, err := parseDataID(bad); err == nil {
			t.Errorf("parseDataID(%q) succeeded", bad)
		}
	}
}
