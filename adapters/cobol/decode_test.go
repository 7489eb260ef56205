package cobol

import "testing"

func TestDecode(t *testing.T) {
	cases := []struct {
		f    Field
		data []byte
		want string
	}{
		{Field{Numeric: true, Size: 5, Digits: 5}, []byte("00100"), "100"},
		{Field{Numeric: true, Size: 4, Digits: 4, Signed: true}, []byte("000w"), "-7"},
		{Field{Numeric: true, Size: 4, Digits: 4, Signed: true}, []byte("012}"), "-120"},
		{Field{Numeric: true, Size: 4, Digits: 4, Signed: true}, []byte("012A"), "121"},
		{Field{Numeric: true, Size: 5, Digits: 5, Scale: 2}, []byte("00125"), "1.25"},
		{Field{Numeric: true, Size: 3, Digits: 5, Signed: true, Usage: Packed}, []byte{0x00, 0x00, 0x1c}, "1"},
		{Field{Numeric: true, Size: 3, Digits: 5, Signed: true, Usage: Packed}, []byte{0x12, 0x34, 0x5d}, "-12345"},
		{Field{Numeric: true, Size: 4, Digits: 7, Scale: 2, Usage: Packed}, []byte{0x00, 0x01, 0x23, 0x4f}, "12.34"},
		{Field{Numeric: true, Size: 2, Signed: true, Usage: Binary}, []byte{0xff, 0xfe}, "-2"},
		{Field{Numeric: true, Size: 2, Usage: Binary}, []byte{0x01, 0x00}, "256"},
		{Field{Numeric: true, Size: 2, Usage: Native}, []byte{0x01, 0x00}, "1"},
		{Field{Size: 5}, []byte("AB\"C\x01"), `"AB\"C\x01"`},
		{Field{Size: 3, Usage: Group}, []byte("1A "), `"1A "`},
		{Field{Numeric: true, Size: 2, Digits: 2}, []byte("4x"), `invalid DISPLAY number "4x"`},
		{Field{Numeric: true, Size: 2, Digits: 3, Usage: Packed}, []byte{0xa0, 0x0c}, "invalid COMP-3 number A00C"},
	}
	for _, c := range cases {
		if got := Decode(&c.f, c.data); got != c.want {
			t.Errorf("Decode(%+v, %q) = %q, want %q", c.f, c.data, got, c.want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte("000w"), uint8(0), true, uint8(2))
	f.Add([]byte{0x12, 0x3d}, uint8(1), true, uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, usage uint8, signed bool, scale uint8) {
		fl := Field{Numeric: true, Size: len(data), Signed: signed, Scale: int(scale % 40), Usage: Usage(usage % 5)}
		_ = Decode(&fl, data)
	})
}
