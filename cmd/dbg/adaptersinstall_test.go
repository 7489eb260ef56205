package main

import (
	"strings"
	"testing"
)

// --python installs debugpy into the interpreter given, with the exact
// pip command printed; it is refused for other languages.
func TestAdaptersInstallPython(t *testing.T) {
	t.Parallel()
	o, err := parseFlags(t, newCmdAdaptersInstall, "python", "--python", "/usr/bin/python3", "--dry-run")
	if err != nil || o.python != "/usr/bin/python3" || !o.dryRun {
		t.Fatalf("%+v %v", o, err)
	}
	requireTool(t, "/usr/bin/python3", "--version")
	out, _, err := runCLI(t, "adapters", "install", "python", "--python", "/usr/bin/python3", "--dry-run")
	if err != nil || !strings.HasPrefix(out, "+ /usr/bin/python3 -m pip install debugpy==") {
		t.Fatalf("dry run printed %q (%v)", out, err)
	}
	if _, _, err := runCLI(t, "adapters", "install", "go", "--python", "/usr/bin/python3", "--dry-run"); err == nil || !strings.Contains(err.Error(), "--python is for python") {
		t.Fatalf("--python with go: %v", err)
	}
}
