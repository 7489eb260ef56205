package adapters

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// fakeExec writes an executable shell script named name into dir.
func fakeExec(t *testing.T, dir, name, script string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestToolFindDescribeInstall(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", dir)
	t.Setenv("HOME", t.TempDir())
	t.Setenv("GOBIN", "")
	t.Setenv("GOPATH", "")
	tool := Tool{Language: "ruby", What: "rdbg", Names: []string{"rdbg"},
		Versioned: regexp.MustCompile(`^rdbg(\d+(?:\.\d+)?)?$`), VersionArgs: []string{"--version"},
		Install: [][]string{{"apt-get", "install", "-y", "ruby=1:3.1"}}}

	info := tool.Describe(context.Background(), Info{Language: "ruby", Note: "when found"})
	var nf *NotFoundError
	if _, err := tool.Path(); !errors.As(err, &nf) || !errors.Is(err, ErrNotFound) || nf.Install != "dbg adapters install ruby" {
		t.Fatalf("missing tool: %v", err)
	}
	if info.Found || info.InstallCommand != "dbg adapters install ruby" || !strings.Contains(info.Note, "rdbg, which is not installed") {
		t.Fatalf("missing tool described as %+v", info)
	}

	fakeExec(t, dir, "rdbg3.1", "echo rdbg 1.4.0")
	newest := fakeExec(t, dir, "rdbg3.3", "echo rdbg 1.9.2")
	fakeExec(t, dir, "rdbgx", "echo no")
	if p, err := tool.Path(); err != nil || p != newest {
		t.Fatalf("versioned: %q %v, want %s", p, err, newest)
	}
	plain := fakeExec(t, dir, "rdbg", "echo rdbg 1.10.0")
	info = tool.Describe(context.Background(), Info{Language: "ruby", Note: "when found"})
	if !info.Found || info.Path != plain || info.Version != "1.10.0" || info.Note != "when found" {
		t.Fatalf("found tool described as %+v", info)
	}
	if got := tool.InstallCommands(); len(got) != 1 || got[0][0] != "apt-get" {
		t.Fatalf("install commands %v", got)
	}
}
