package mockdap

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Hostile expressions end fast with an error: long identifiers lex in
// linear time, deep nesting and runaway string building are bounded.
func TestEvalExprBounds(t *testing.T) {
	one := func(string) (value, bool) { return int64(1), true }
	for name, src := range map[string]string{
		"identifier 128K": strings.Repeat("a", 128<<10),
		"identifier 1M":   strings.Repeat("b", 1<<20) + " +",
		"nesting 1M":      strings.Repeat("(", 1<<20),
		"negation 1M":     strings.Repeat("-", 1<<20) + "1",
		"string 1M":       `"` + strings.Repeat("s", 1<<20),
		"concat":          strings.Repeat(`"`+strings.Repeat("c", 1000)+`" + `, 60000) + `"x"`,
	} {
		start := time.Now()
		v, err := evalExpr(src, one)
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s took %s", name, d)
		}
		if name == "identifier 128K" {
			if err != nil || v != int64(1) {
				t.Errorf("%s: %v %v", name, v, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s evaluated", name)
		} else if len(err.Error()) > 200 {
			t.Errorf("%s: error of %d bytes", name, len(err.Error()))
		}
	}
}

// An evaluation stops when its context ends.
func TestEvalExprStopsWithContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	src := strings.Repeat("1 + ", 100000) + "1"
	if _, err := evalExprCtx(ctx, src, func(string) (value, bool) { return nil, false }); err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Fatalf("err = %v", err)
	}
}

// Programs are regular files of bounded size: never devices or kernel
// files.
func TestLoadProgramRefusesSpecialFiles(t *testing.T) {
	for _, p := range []string{"/dev/zero", "/dev/null", os.DevNull, "/proc/self/mem"} {
		start := time.Now()
		if _, err := loadProgram(p); err == nil && p != "/proc/self/mem" {
			t.Errorf("%s loaded", p)
		}
		if time.Since(start) > time.Second {
			t.Errorf("%s took %s", p, time.Since(start))
		}
	}
	big := filepath.Join(t.TempDir(), "big.mock")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, maxProgramBytes+1); err != nil {
		t.Fatal(err)
	}
	if _, err := loadProgram(big); err == nil {
		t.Error("a program over the limit loaded")
	}
}
