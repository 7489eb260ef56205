package cobol

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
)

const sampleC = `static int x;
  /* PROCEDURE DIVISION */
  /* Line: 15        : Entry     LOOP                    : /src/loop.cob */
  l_2:;
#line 15 "/src/loop.cob"
  ENTRY_LOOP:;
#line 104 "loop.c"

  /* Line: 19        : ADD                : /src/loop.cob */
    module->module_stmt = 0x00100013;
#line 19 "/src/loop.cob"
    cob_trace_stmt (st_2);
#line 144 "loop.c"
    cob_add_int (&f_8, cob_get_packed_int (&f_10), 0);
  /* Program exit */
  return 0;`

func TestRewriteLines(t *testing.T) {
	out := RewriteLines(sampleC, "loop.c")
	lines := strings.Split(out, "\n")
	directiveFor := func(code string) string {
		for i, l := range lines {
			if strings.Contains(l, code) && i > 0 {
				return lines[i-1]
			}
		}
		t.Fatalf("%q missing from\n%s", code, out)
		return ""
	}
	if d := directiveFor("cob_add_int"); d != `#line 19 "/src/loop.cob"` {
		t.Errorf("cob_add_int preceded by %q", d)
	}
	if d := directiveFor("module_stmt = 0x00100013"); d != `#line 19 "/src/loop.cob"` {
		t.Errorf("statement bookkeeping preceded by %q", d)
	}
	if d := directiveFor("l_2:;"); d != `#line 15 "/src/loop.cob"` {
		t.Errorf("entry preceded by %q", d)
	}
	if strings.Contains(out, `"loop.c"`+"\n    cob") || strings.Contains(out, "#line 144") {
		t.Errorf("C line directives left inside the procedure:\n%s", out)
	}
	// After "Program exit" the C numbering resumes at the right line.
	for i, l := range lines {
		if strings.Contains(l, "/* Program exit */") {
			if lines[i-1] != `#line `+itoa(i+1)+` "loop.c"` {
				t.Errorf("resume directive %q, want line %d", lines[i-1], i+1)
			}
		}
	}
}

func itoa(i int) string {
	b := []byte{}
	for i > 0 {
		b = append([]byte{byte('0' + i%10)}, b...)
		i /= 10
	}
	return string(b)
}

func TestBuildError(t *testing.T) {
	if _, err := exec.LookPath("cobc"); err != nil {
		t.Skip("cobc not installed")
	}
	_, err := Build(context.Background(), "../../testdata/cobol/broken.cob")
	var be *BuildError
	if !errors.As(err, &be) || !strings.Contains(be.Output, "WS-UNDEFINED") {
		t.Fatalf("error %v, want cobc's message about WS-UNDEFINED", err)
	}
}

func TestBuildLayout(t *testing.T) {
	if _, err := exec.LookPath("cobc"); err != nil {
		t.Skip("cobc not installed")
	}
	p, err := Build(context.Background(), "../../testdata/cobol/loop.cob")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range p.Fields {
		names = append(names, f.Name+"@"+f.Storage)
	}
	if got := strings.Join(names, " "); !strings.HasPrefix(got, "WS-TOTAL@b_") || !strings.Contains(got, "WS-REC@b_") || len(p.Fields) != 5 {
		t.Errorf("fields %s", got)
	}
	if f, ok := Lookup(p.Fields, "WS-CODE"); !ok || f.Offset != 4 {
		t.Errorf("WS-CODE %+v", f)
	}
}

func TestLoadBinary(t *testing.T) {
	if _, err := exec.LookPath("cobc"); err != nil {
		t.Skip("cobc not installed")
	}
	p, err := Build(context.Background(), "../../testdata/cobol/spin.cob")
	if err != nil {
		t.Fatal(err)
	}
	q, err := LoadBinary(p.Binary)
	if err != nil {
		t.Fatal(err)
	}
	if q.Source != p.Source || len(q.Fields) != 1 || q.Fields[0].Name != "WS-TICK" {
		t.Errorf("LoadBinary = %+v, want the source %s and WS-TICK", q, p.Source)
	}
	if _, err := LoadBinary("/bin/true"); err == nil {
		t.Error("a binary dbg did not build was accepted")
	}
}
