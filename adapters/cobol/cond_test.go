package cobol

import "testing"

func TestCond(t *testing.T) {
	values := map[string]string{"WS-I": "3", "WS-TOTAL": "100", "WS-NAME": `"COBOL     "`, "WS-COUNT": "-7", "WS-BLANK": `"   "`}
	cases := map[string]bool{
		"WS-I = 3":                      true,
		"ws-i = 3":                      true,
		"WS-I == 3":                     true,
		"WS-I = 4":                      false,
		"WS-I NOT = 4":                  true,
		"WS-I <> 3":                     false,
		"WS-I != 4":                     true,
		"WS-I IS GREATER THAN 2":        true,
		"WS-I LESS 3":                   false,
		"WS-I >= 3 AND WS-TOTAL <= 100": true,
		"WS-I > 3 OR WS-TOTAL < 100":    false,
		"NOT (WS-I < 2 OR WS-I > 4)":    true,
		"!(WS-I = 3) || WS-TOTAL = 100": true,
		`WS-NAME = "COBOL"`:             true,
		`WS-NAME = 'COBOL     '`:        true,
		`WS-NAME > "ABC"`:               true,
		"WS-COUNT = -7":                 true,
		"WS-COUNT < ZERO":               true,
		"WS-BLANK = SPACES":             true,
		"WS-I IS EQUAL TO WS-I":         true,
		"WS-TOTAL = 100.00":             true,
		"WS-I = 3 AND (WS-NAME = \"X\" OR WS-I = 3)": true,
	}
	for src, want := range cases {
		c, err := ParseCond(src, nil)
		if err != nil {
			t.Errorf("ParseCond(%q): %v", src, err)
			continue
		}
		got, err := c.Eval(values)
		if err != nil || got != want {
			t.Errorf("%q = %v, %v; want %v", src, got, err, want)
		}
	}
}

func TestCondErrors(t *testing.T) {
	known := func(n string) bool { return n == "WS-I" }
	for _, src := range []string{"", "WS-I", "WS-I =", "WS-X = 1", "(WS-I = 1", "WS-I = 1 WS-I", `WS-I = "x`, "WS-I = 1 AND", "AND = 1", "WS-I @ 1"} {
		if _, err := ParseCond(src, known); err == nil {
			t.Errorf("ParseCond(%q) accepted", src)
		}
	}
	c, err := ParseCond("WS-I = 1", known)
	if err != nil || len(c.Names) != 1 || c.Names[0] != "WS-I" {
		t.Fatalf("names %v, %v", c, err)
	}
	if _, err := c.Eval(map[string]string{}); err == nil {
		t.Error("a missing value evaluated")
	}
}

func FuzzParseCond(f *testing.F) {
	f.Add("WS-I = 3 AND NOT (WS-NAME = \"X\" OR WS-I > -2.5)")
	f.Add("!(a<>b)||c>=ZERO")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCond(s, nil)
		if err != nil {
			return
		}
		v := map[string]string{}
		for _, n := range c.Names {
			v[n] = "1"
		}
		_, _ = c.Eval(v)
	})
}
