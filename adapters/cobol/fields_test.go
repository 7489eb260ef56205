package cobol

import "testing"

const sampleListing = `
SIZE  TYPE           LVL  NAME                           PICTURE

      WORKING-STORAGE SECTION

00005 NUMERIC        01   WS-TOTAL                       9(5)

00004 NUMERIC        01   WS-AMOUNT                      S9(5)V99 COMP-3

00007 GROUP          01   WS-REC
00004 NUMERIC        05   WS-COUNT                       S9(4)
00003 ALPHANUMERIC   05   WS-CODE                        X(3)

00002 NUMERIC        77   WS-BIN                         S9(4) COMP

      LINKAGE SECTION

00005 NUMERIC        01   LK-X                           9(5)
`

const sampleHeader = `
static int	b_2;	/* RETURN-CODE */
static cob_u8_t	b_8[5] __attribute__((aligned));	/* WS-TOTAL */
static cob_u8_t	b_9[4] __attribute__((aligned));	/* WS-AMOUNT */
static cob_u8_t	b_12[7] __attribute__((aligned));	/* WS-REC */
static cob_u8_t	b_13[2] __attribute__((aligned));	/* WS-BIN */
`

func TestParseListing(t *testing.T) {
	roots := Attach(ParseListing(sampleListing), ParseStorage(sampleHeader))
	if len(roots) != 4 {
		t.Fatalf("got %d records, want 4 (LINKAGE skipped): %v", len(roots), roots)
	}
	amt := roots[1]
	if amt.Name != "WS-AMOUNT" || amt.Usage != Packed || !amt.Signed || amt.Digits != 7 || amt.Scale != 2 || amt.Storage != "b_9" {
		t.Errorf("WS-AMOUNT %+v", amt)
	}
	rec := roots[2]
	if rec.Usage != Group || len(rec.Children) != 2 {
		t.Fatalf("WS-REC %+v", rec)
	}
	code := rec.Children[1]
	if code.Name != "WS-CODE" || code.Offset != 4 || code.Size != 3 || code.Storage != "b_12" || code.Numeric {
		t.Errorf("WS-CODE %+v", code)
	}
	if f, ok := Lookup(roots, "ws-count"); !ok || f.Offset != 0 || !f.Signed || f.Usage != Display {
		t.Errorf("lookup ws-count: %+v %v", f, ok)
	}
	if b := roots[3]; b.Level != 77 || b.Usage != Binary {
		t.Errorf("WS-BIN %+v", b)
	}
	if _, ok := Lookup(roots, "LK-X"); ok {
		t.Error("a LINKAGE item was listed")
	}
}

func TestCountNines(t *testing.T) {
	for in, want := range map[string]int{"9(5)": 5, "99": 2, "9(3)99": 5, "": 0, "9(": 1, "9(x)": 1} {
		if got := countNines(in); got != want {
			t.Errorf("countNines(%q) = %d, want %d", in, got, want)
		}
	}
}

func FuzzParseListing(f *testing.F) {
	f.Add(sampleListing)
	f.Add("WORKING-STORAGE SECTION\n00001 GROUP 01 A\n00009 NUMERIC 05 B 9(9999999999)\n")
	f.Fuzz(func(t *testing.T, s string) {
		roots := ParseListing(s)
		for _, r := range roots {
			for _, c := range r.Children {
				if c.Offset < 0 || c.Offset+c.Size > r.Size {
					t.Fatalf("child %v outside record %v", c, r)
				}
			}
			_ = Decode(r, make([]byte, r.Size%4096))
		}
	})
}
