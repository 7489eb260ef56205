package cobol

import (
	"bytes"
	"testing"
)

func TestEncodeRoundTrip(t *testing.T) {
	cases := []struct {
		f     Field
		value string
		bytes []byte
		back  string
	}{
		{Field{Numeric: true, Size: 5, Digits: 5}, "130", []byte("00130"), "130"},
		{Field{Numeric: true, Size: 4, Digits: 4, Signed: true}, "-7", []byte("000w"), "-7"},
		{Field{Numeric: true, Size: 5, Digits: 5, Scale: 2}, "1.257", []byte("00125"), "1.25"},
		{Field{Numeric: true, Size: 3, Digits: 5, Signed: true, Usage: Packed}, "-12345", []byte{0x12, 0x34, 0x5d}, "-12345"},
		{Field{Numeric: true, Size: 3, Digits: 5, Usage: Packed}, "42", []byte{0x00, 0x04, 0x2f}, "42"},
		{Field{Numeric: true, Size: 2, Digits: 4, Signed: true, Usage: Binary}, "-2", []byte{0xff, 0xfe}, "-2"},
		{Field{Numeric: true, Size: 2, Digits: 4, Usage: Native}, "258", []byte{0x02, 0x01}, "258"},
		{Field{Size: 5}, `"AB"`, []byte("AB   "), `"AB   "`},
		{Field{Size: 2}, "ABCD", []byte("AB"), `"AB"`},
	}
	for _, c := range cases {
		got, err := Encode(&c.f, c.value)
		if err != nil || !bytes.Equal(got, c.bytes) {
			t.Errorf("Encode(%+v, %q) = % x, %v; want % x", c.f, c.value, got, err, c.bytes)
			continue
		}
		if back := Decode(&c.f, got); back != c.back {
			t.Errorf("Decode(Encode(%q)) = %q, want %q", c.value, back, c.back)
		}
	}
}

func TestEncodeRefuses(t *testing.T) {
	for _, c := range []struct {
		f     Field
		value string
	}{
		{Field{Name: "A", Numeric: true, Size: 3, Digits: 3}, "1000"},
		{Field{Name: "A", Numeric: true, Size: 3, Digits: 3}, "-1"},
		{Field{Name: "A", Numeric: true, Size: 3, Digits: 3}, "1x"},
		{Field{Name: "A", Numeric: true, Size: 2, Digits: 3, Usage: Packed}, "1234"},
		{Field{Name: "A", Numeric: true, Size: 1, Signed: true, Usage: Binary}, "200"},
	} {
		if b, err := Encode(&c.f, c.value); err == nil {
			t.Errorf("Encode(%+v, %q) = % x, want an error", c.f, c.value, b)
		}
	}
}

func FuzzEncode(f *testing.F) {
	f.Add("-12.5", uint8(3), uint8(1), true, uint8(2))
	f.Fuzz(func(t *testing.T, v string, size uint8, usage uint8, signed bool, scale uint8) {
		fl := Field{Numeric: true, Size: int(size%20) + 1, Usage: Usage(usage % 4), Signed: signed, Scale: int(scale % 10)}
		b, err := Encode(&fl, v)
		if err == nil && len(b) != fl.Size {
			t.Fatalf("Encode gave %d bytes for size %d", len(b), fl.Size)
		}
	})
}
