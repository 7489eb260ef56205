package javasrc

import "testing"

func TestLex(t *testing.T) {
	src := "a /* c */ \"s\\\"q\\u0041\" 'x' '\\n' 1.5e-3f 0x1F ... :: -> >>= @ // tail\n/** doc */ b \u00e9t\u00e9"
	want := []struct {
		kind tokKind
		text string
	}{
		{tokIdent, "a"}, {tokString, `s"qA`}, {tokChar, "x"}, {tokChar, "\n"}, {tokNumber, "1.5e-3f"}, {tokNumber, "0x1F"},
		{tokOp, "..."}, {tokOp, "::"}, {tokOp, "->"}, {tokOp, ">"}, {tokOp, ">"}, {tokOp, "="}, {tokOp, "@"},
		{tokIdent, "b"}, {tokIdent, "\u00e9t\u00e9"}, {tokEOF, ""},
	}
	got := lex(src)
	if len(got) != len(want) {
		t.Fatalf("got %d tokens: %+v", len(got), got)
	}
	for i, w := range want {
		if got[i].kind != w.kind || got[i].text != w.text {
			t.Errorf("token %d = %v %q, want %v %q", i, got[i].kind, got[i].text, w.kind, w.text)
		}
	}
	if got[13].doc != "/** doc */" || got[13].line != 2 {
		t.Errorf("doc/line = %q %d", got[13].doc, got[13].line)
	}
}

func TestTextBlock(t *testing.T) {
	toks := lex("x = \"\"\"\n    line one\n      two \\\n    joined\n    \"\"\";")
	if toks[2].kind != tokString || toks[2].text != "line one\n  two joined\n" {
		t.Fatalf("text block = %q", toks[2].text)
	}
	if toks[3].line != 5 {
		t.Errorf("line after block = %d", toks[3].line)
	}
}
