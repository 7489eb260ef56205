package main

import (
	"encoding/xml"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{9, 9, 1, 9, 1}, 9},
	} {
		in := append([]float64(nil), c.in...)
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
		for i := range in {
			if in[i] != c.in[i] {
				t.Errorf("median reordered its input: %v", c.in)
			}
		}
	}
	if !math.IsNaN(median(nil)) {
		t.Error("median of nothing is not NaN")
	}
	if r := ratio(1, 4); r != 0.25 {
		t.Errorf("ratio(1, 4) = %v", r)
	}
	for _, r := range []float64{ratio(1, 0), ratio(math.NaN(), 1), ratio(1, math.NaN())} {
		if !math.IsNaN(r) {
			t.Errorf("ratio without both values = %v, want NaN", r)
		}
	}
}

func TestTreeRSS(t *testing.T) {
	tree := map[int][]int{10: {11, 12, 13}}
	rss := map[int]int64{10: 100, 11: 20, 12: 3}
	desc := func(root int) []int { return tree[root] }
	read := func(pid int) (int64, error) {
		if n, ok := rss[pid]; ok {
			return n, nil
		}
		return 0, errors.New("gone") // 13 ended between the two reads
	}
	total, n := treeRSS(10, desc, read)
	if total != 123 || n != 3 {
		t.Errorf("treeRSS = %d over %d processes, want 123 over 3", total, n)
	}
	if total, n := treeRSS(99, desc, read); total != 0 || n != 0 {
		t.Errorf("treeRSS of a missing root = %d, %d", total, n)
	}
	// The real reader sees at least this process.
	if total, n := processTreeRSS(os.Getpid()); total < 1<<20 || n < 1 {
		t.Skipf("no /proc here (%d bytes over %d processes)", total, n)
	}
}

func TestAddSession(t *testing.T) {
	var s samples
	s.addSession(1, timings{firstStop: 2 * time.Second, rss: 3 << 20, ownRSS: 1 << 20, steps: []time.Duration{time.Millisecond}, evals: []time.Duration{2 * time.Millisecond}})
	s.addSession(2, timings{firstStop: time.Second, steps: []time.Duration{3 * time.Millisecond}})
	s.addSession(2, timings{}) // a session that never stopped adds nothing
	want := map[figure][]float64{coldStop: {2000}, firstStop: {1000}, memory: {3}, ownMemory: {1}, helperMemory: {2}, stepOver: {1, 3}, evaluate: {2}}
	for f, vs := range want {
		if got := s.values[f]; !slices.Equal(got, vs) {
			t.Errorf("%s = %v, want %v", f.label(), got, vs)
		}
	}
}

// sampleReport has python measured by both, go failed by the peer in its
// second session, and java never started by the peer.
func sampleReport() *report {
	var py, gol, java [2]samples
	for _, v := range []float64{1000, 1200, 1100} {
		py[0].add(coldStop, v)
		py[0].add(firstStop, v/2)
		py[1].add(coldStop, 3*v)
		py[1].add(firstStop, 3*v)
	}
	for s, base := range []float64{2, 100} {
		py[s].add(stepOver, base)
		py[s].add(evaluate, base/2)
		py[s].add(memory, 50*float64(s+1))
		py[s].add(startup, 10*float64(s*100+1))
		py[s].add(ownMemory, 20*float64(s+1))
		py[s].add(helperMemory, 30*float64(s+1))
		py[s].add(flowBytes, 4.5+float64(s))
		py[s].add(answerBytes, 300+100*float64(s))
		py[s].add(listBytes, 40-20*float64(s))
		gol[s].add(flowBytes, 5)
		gol[s].add(answerBytes, 350)
		gol[s].add(ownMemory, 20)
		gol[s].add(helperMemory, 40)
		gol[s].add(coldStop, base*10)
		gol[s].add(stepOver, base)
		gol[s].add(evaluate, base)
		gol[s].add(memory, 60)
	}
	gol[0].add(firstStop, 300)
	gol[1].errs = []string{`session 2 of 2: state "running" 30s after start_debugging, never paused`}
	for _, f := range langFigures {
		java[0].add(f, 5)
	}
	java[1].errs = []string{"session 1 of 2: start_debugging: JDK 21 | newer needed"}
	return &report{
		langs:   []string{"python", "go", "java"},
		results: map[string]*[2]samples{"python": &py, "go": &gol, "java": &java},
		runs:    3, steps: 4, command: "bash bench/peer.sh -n 3",
		started: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC), finished: time.Date(2026, 12, 1, 9, 10, 0, 0, time.UTC),
		machine: []string{"2 CPUs (nproc), Test CPU"}, versions: []string{"dbg test"}, loadEnd: "1.00 2.00 3.00",
	}
}

func TestTable(t *testing.T) {
	table := sampleReport().table()
	for _, want := range []string{
		"| language | figure (median) | dbg | mcp-debugger 0.24.2 | dbg/peer |\n|---|---|---:|---:|---:|\n",
		"| python | first stop, new server | 1100 ms | 3300 ms | 0.33 |\n",
		"| python | first stop | 550 ms | 3300 ms | 0.17 |\n",
		"| python | step_over | 2.00 ms | 100 ms | 0.020 |\n",
		"| python | evaluate | 1.00 ms | 50.0 ms | 0.020 |\n",
		"| python | memory: the server | 20.0 MB | 40.0 MB | 0.50 |\n",
		"| python | memory: adapters, program | 30.0 MB | 60.0 MB | 0.50 |\n",
		"| python | bytes per answer | 300 B | 400 B | 0.75 |\n",
		"| python | memory, first stop | 50.0 MB | 100 MB | 0.50 |\n",
		// The peer's go failed only in its second session: that row says
		// so with the error, the others keep their values.
		"| go | first stop | 300 ms | failed: session 2 of 2: state \"running\" 30s after start_debugging, never paused | — |\n",
		"| go | step_over | 2.00 ms | 100 ms | 0.020 |\n",
		// Java's rows stay, failed; the error once, escaped.
		"| java | first stop, new server | 5.00 ms | failed: session 1 of 2: start_debugging: JDK 21 \\| newer needed | — |\n",
		"| java | memory, first stop | 5.00 MB | failed | — |\n",
		"| all | start to initialize | 10.0 ms | 1010 ms | 0.010 |\n",
		"| python | answers, 14-call flow | 4.50 KB | 5.50 KB | 0.82 |\n",
		"| java | answers, 14-call flow | 5.00 KB | failed | — |\n",
		"| all | tools/list | 40.0 KB | 20.0 KB | 2.00 |\n",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	if n := strings.Count(table, "\n"); n != 2+3*len(langFigures)+len(serverFigures) {
		t.Errorf("table has %d lines, want every language's rows:\n%s", n, table)
	}
}

func TestMarkdown(t *testing.T) {
	md := sampleReport().markdown()
	for _, want := range []string{
		"`bash bench/peer.sh -n 3`, 2026-12-01 09:00 to 09:10 (UTC): 3 alternating runs",
		"- go, mcp-debugger 0.24.2: 1 of 3 runs ended in an error (the first: session 2 of 2:",
		"![dbg/peer ratios](peer.svg)",
		"- 2 CPUs (nproc), Test CPU\n",
		"- load average at the end: 1.00 2.00 3.00\n",
		"## Versions\n\n- dbg test\n",
		"## Method",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("peer.md lacks %q:\n%s", want, md)
		}
	}
}

func TestSVG(t *testing.T) {
	svg := sampleReport().svg()
	dec := xml.NewDecoder(strings.NewReader(svg))
	rects, failed := 0, 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, svg)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			if el.Name.Local == "title" {
				rects++
			}
		case xml.CharData:
			if string(el) == "failed" {
				failed++
			}
		}
	}
	// 29 rows: the go and java figures the peer failed (1 and 9) have no bar.
	if rects != 29-1-9 || failed != 10 {
		t.Errorf("%d bars and %d failed marks, want 19 and 10:\n%s", rects, failed, svg)
	}
	for _, want := range []string{"0.01×", "1×", "10×", ">python<", ">all<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("chart lacks %q", want)
		}
	}
}

func TestRatioRange(t *testing.T) {
	lo, hi := ratioRange([]row{{values: [2]float64{1, 400}}, {values: [2]float64{30, 1}}})
	if lo != 0.001 || hi != 100 {
		t.Errorf("ratioRange = %v..%v, want 0.001..100", lo, hi)
	}
	if lo, hi := ratioRange(nil); lo != 0.1 || hi != 10 {
		t.Errorf("ratioRange of nothing = %v..%v, want 0.1..10", lo, hi)
	}
}

func TestSplice(t *testing.T) {
	text := "# x\n\n" + beginMarker + "\nold\n" + endMarker + "\nrest\n"
	got, err := splice(text, "new\n")
	if want := "# x\n\n" + beginMarker + "\nnew\n" + endMarker + "\nrest\n"; err != nil || got != want {
		t.Errorf("splice = %q, %v; want %q", got, err, want)
	}
	if _, err := splice("# no markers\n", "new\n"); err == nil {
		t.Error("splice without markers succeeded")
	}
}

func TestWrite(t *testing.T) {
	root := t.TempDir()
	readme := filepath.Join(root, "README.md")
	if err := os.WriteFile(readme, []byte("intro\n"+beginMarker+"\n"+endMarker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout, _ = os.Open(os.DevNull)
	err := sampleReport().write(root, "bench/results", "README.md")
	os.Stdout = stdout
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"bench/results/peer.md", "bench/results/peer.svg"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Error(err)
		}
	}
	b, _ := os.ReadFile(readme)
	if s := string(b); !strings.Contains(s, "with `bash bench/peer.sh -n 3`") || !strings.Contains(s, "| python | step_over |") ||
		!strings.Contains(s, "- go, mcp-debugger 0.24.2: 1 of 3 runs ended in an error") {
		t.Errorf("README not updated:\n%s", s)
	}
}

func TestNodeEngine(t *testing.T) {
	p := filepath.Join(t.TempDir(), "package.json")
	if err := os.WriteFile(p, []byte(`{"name": "x", "version": "1.0.0", "engines": {"node": ">=22.0.0"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := nodeEngine(p); got != ">=22.0.0" {
		t.Errorf("nodeEngine = %q", got)
	}
	if got := jsonVersion(p); got != "1.0.0" {
		t.Errorf("jsonVersion = %q", got)
	}
}

func TestFixtures(t *testing.T) {
	if got := markerLine("a\nb // BP:loop\nc // BP:loop\n", "// BP:loop"); got != 2 {
		t.Errorf("markerLine = %d, want 2", got)
	}
	if got := markerLine("a\n", "# BREAK"); got != 0 {
		t.Errorf("markerLine without the marker = %d", got)
	}
	for _, lang := range []string{"python", "go", "javascript"} {
		fx, err := loadFixture("../..", lang, "", t.TempDir())
		if err != nil || fx.line == 0 || fx.program != fx.source {
			t.Errorf("%s fixture = %+v, %v", lang, fx, err)
		}
	}
	if _, err := loadFixture("../..", "cobol", "", t.TempDir()); err == nil {
		t.Error("a language without a fixture loaded")
	}
	fx := fixture{lang: "java", source: "/t/java/Loop.java", program: "/t/java/Loop.java", classpath: "/c"}
	d, p := dbgStart(fx), peerStart(fx)
	if d["scriptPath"] != "Loop" || d["adapterLaunchConfig"].(map[string]any)["classpath"] != "/c" {
		t.Errorf("dbg's Java start = %v", d)
	}
	if l := p["dapLaunchArgs"].(map[string]any); p["scriptPath"] != fx.program || l["classpath"] != "/c" || l["sourcePath"] != "/t/java" || l["stopOnEntry"] != false {
		t.Errorf("the peer's Java start = %v", p)
	}
}

func TestAnswers(t *testing.T) {
	if got := errorText(map[string]any{"error": map[string]any{"message": "no  such\nsession"}}, ""); got != "no such session" {
		t.Errorf("errorText of dbg's envelope = %q", got)
	}
	if got := errorText(map[string]any{"error": "boom"}, ""); got != "boom" {
		t.Errorf("errorText of a string error = %q", got)
	}
	if got := errorText(map[string]any{}, strings.Repeat("x", 500)); len(got) != 160 {
		t.Errorf("errorText is not clipped: %d characters", len(got))
	}
	list := map[string]any{"sessions": []any{map[string]any{"id": "a", "state": "running"}, map[string]any{"sessionId": "b", "state": "paused"}}}
	if sessionState(list, "a") != "running" || sessionState(list, "b") != "paused" || sessionState(list, "c") != "" {
		t.Errorf("sessionState misreads %v", list)
	}
	if !paused(map[string]any{"state": "Paused"}) || paused(map[string]any{"state": "stopped"}) {
		t.Error("paused misreads a state")
	}
}
