package adapters

import (
	"context"
	"strings"
	"testing"
)

func TestGoCoreArgs(t *testing.T) {
	t.Parallel()
	mode, args, err := goCore(context.Background(), Target{Mode: Core, CoreFile: "/c/core.1", Program: "/b/app", Extra: map[string]any{"mode": "debug"}})
	if err != nil || mode != Launch || args["mode"] != "core" || args["program"] != "/b/app" || args["coreFilePath"] != "/c/core.1" {
		t.Fatalf("goCore = %s %v %v", mode, args, err)
	}
	if _, _, err := goCore(context.Background(), Target{Mode: Core, CoreFile: "/c/core.1"}); err == nil || !strings.Contains(err.Error(), "program") {
		t.Errorf("a core without its program: %v", err)
	}
}

func TestParseTargetList(t *testing.T) {
	t.Parallel()
	out := "\t30303\t/tmp/parent /tmp/child\n*\t30559\t/tmp/child 7\n"
	if pid, err := parseTargetList(out); err != nil || pid != 30559 {
		t.Errorf("selected %d, %v; want 30559", pid, err)
	}
	if _, err := parseTargetList("\t1\tx\n"); err == nil {
		t.Errorf("a list without a selected target parsed")
	}
}

func TestPythonChildNeedsPort(t *testing.T) {
	t.Parallel()
	if _, err := pythonChild(context.Background(), map[string]any{"connect": map[string]any{"host": "127.0.0.1"}}); err == nil {
		t.Errorf("a startDebugging without a port connected")
	}
}

// Every language declares whether it follows children and reads cores,
// with a reason where it does not.
func TestBeyondOneProcessDeclared(t *testing.T) {
	t.Parallel()
	r := Default()
	for _, lang := range r.Languages() {
		a, _ := r.Lookup(lang)
		tr := a.Traits()
		if tr.Children.Reason == "" {
			t.Errorf("%s says nothing of child processes", lang)
		}
		if tr.Core == nil && tr.NoCore == "" {
			t.Errorf("%s has no core target and no reason", lang)
		}
		if tr.Children.Shared && (tr.Children.Selected == nil || tr.Children.Select == nil) {
			t.Errorf("%s shares children without saying how to select them", lang)
		}
	}
}
