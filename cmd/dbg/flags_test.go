package main

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/dbg-dev/dbg/sessions"
)

// parseFlags runs a verb's command with runF capturing its options, so
// only flag and argument parsing runs.
func parseFlags[T any](t *testing.T, newCmd func(*factory, func(context.Context, *T) error) *cobra.Command, args ...string) (*T, error) {
	t.Helper()
	f, _, _ := cliFactory(t)
	var got *T
	cmd := newCmd(f, func(_ context.Context, o *T) error { got = o; return nil })
	cmd.SetArgs(args)
	cmd.SetOut(f.io.Out)
	cmd.SetErr(f.io.ErrOut)
	err := cmd.Execute()
	if err == nil && got == nil {
		t.Fatalf("%v: the run function was not called", args)
	}
	return got, err
}

func TestFlagsMCP(t *testing.T) {
	t.Parallel()
	o, err := parseFlags(t, newCmdMCP, "--project", "/p")
	if err != nil || o.project != "/p" || o.NewServer == nil || o.Transport == nil {
		t.Fatalf("%+v %v", o, err)
	}
	i, err := parseFlags(t, newCmdMCPInstall, "--client", "codex", "--path", "/c.toml", "--name", "d", "--project", "/p", "--command", "/bin/dbg", "--dry-run")
	if err != nil || i.client != "codex" || i.path != "/c.toml" || i.name != "d" || i.project != "/p" || i.command != "/bin/dbg" || !i.dryRun || i.Getenv == nil {
		t.Fatalf("%+v %v", i, err)
	}
	if i, _ = parseFlags(t, newCmdMCPInstall); i.name != "dbg" || i.dryRun {
		t.Fatalf("defaults %+v", i)
	}
}

func TestFlagsAdapters(t *testing.T) {
	t.Parallel()
	o, err := parseFlags(t, newCmdAdapters, "--json")
	if err != nil || !o.asJSON || o.ToolClient == nil {
		t.Fatalf("%+v %v", o, err)
	}
	i, err := parseFlags(t, newCmdAdaptersInstall, "go", "python", "--dry-run")
	if err != nil || !reflect.DeepEqual(i.languages, []string{"go", "python"}) || !i.dryRun || i.Registry == nil {
		t.Fatalf("%+v %v", i, err)
	}
	if _, err := parseFlags(t, newCmdAdaptersInstall); err == nil {
		t.Fatal("install without a language")
	}
}

func TestFlagsDAP(t *testing.T) {
	t.Parallel()
	o, err := parseFlags(t, newCmdDAP, "node")
	if err != nil || o.name != "node" {
		t.Fatalf("%+v %v", o, err)
	}
	if _, err := parseFlags(t, newCmdDAP, "cobol"); err == nil || !strings.Contains(err.Error(), `no built-in adapter "cobol"`) {
		t.Fatalf("unknown adapter: %v", err)
	}
}

func TestFlagsDemo(t *testing.T) {
	t.Parallel()
	o, err := parseFlags(t, newCmdDemo)
	if err != nil || o.language != "go" || o.program != "testdata/go/loop/main.go" || o.line != 0 || o.ToolClient == nil {
		t.Fatalf("defaults %+v %v", o, err)
	}
	o, err = parseFlags(t, newCmdDemo, "--language", "mock", "--program", "x.mock", "--line", "7")
	if err != nil || o.language != "mock" || o.program != "x.mock" || o.line != 7 {
		t.Fatalf("%+v %v", o, err)
	}
}

func TestFlagsServe(t *testing.T) {
	t.Parallel()
	o, err := parseFlags(t, newCmdServe, "--project", "/p", "--rotate-token")
	if err != nil || o.addr != "127.0.0.1:7077" || o.project != "/p" || !o.rotateToken || o.StateDir == "" || o.NewServer == nil || o.grace != time.Minute {
		t.Fatalf("%+v %v", o, err)
	}
	if o, err := parseFlags(t, newCmdServe, "--client-grace", "5s"); err != nil || o.grace != 5*time.Second {
		t.Fatalf("--client-grace 5s: %+v %v", o, err)
	}
	if _, err := parseFlags(t, newCmdServe, "--client-grace", "0s"); err == nil || !strings.Contains(err.Error(), "positive") {
		t.Fatalf("--client-grace 0s: %v", err)
	}
	if _, err := parseFlags(t, newCmdServe, "--addr", "0.0.0.0:7077"); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Fatalf("non-loopback address: %v", err)
	}
}

func TestFlagsSessions(t *testing.T) {
	t.Parallel()
	o, err := parseFlags(t, newCmdSessions, "--project", "/p", "--json")
	if err != nil || o.project != "/p" || !o.asJSON {
		t.Fatalf("%+v %v", o, err)
	}
}

func TestFlagsAttach(t *testing.T) {
	t.Parallel()
	o, err := parseFlags(t, newCmdAttach, "--pid", "42", "--no-pause", "--json")
	if err != nil || o.pid != 42 || !o.noPause || !o.asJSON {
		t.Fatalf("%+v %v", o, err)
	}
	o.DetectLanguage = func(pid int) (string, error) { return "python", nil }
	args, err := attachArgs(context.Background(), o)
	if want := map[string]any{"language": "python", "stopOnEntry": false, "processId": 42}; err != nil || !reflect.DeepEqual(args, want) {
		t.Fatalf("arguments %v, want %v (%v)", args, want, err)
	}
	o, err = parseFlags(t, newCmdAttach, "--port", "5678", "--language", "python")
	if err != nil {
		t.Fatal(err)
	}
	if args, _ := attachArgs(context.Background(), o); !reflect.DeepEqual(args, map[string]any{"language": "python", "stopOnEntry": true, "port": 5678}) {
		t.Fatalf("port arguments %v", args)
	}
	if _, err := parseFlags(t, newCmdAttach, "--port", "1"); err == nil || !strings.Contains(err.Error(), "--language is required with --port") {
		t.Errorf("--port without --language: %v", err)
	}
	// Without --pid a terminal gets the picker; elsewhere it is an error
	// (TestAttachNeedsPID).
	if o, err = parseFlags(t, newCmdAttach, "--no-prompt"); err != nil || o.pid != 0 || !o.noPrompt || o.DaemonClient == nil || o.Processes == nil {
		t.Fatalf("--no-prompt %+v %v", o, err)
	}
}

func TestFlagsLaunch(t *testing.T) {
	t.Parallel()
	o, err := parseFlags(t, newCmdLaunch, "--break", "a.py:3", "--break", "b.py:4", "prog.py", "--", "-x", "y")
	if err != nil || o.program != "prog.py" || o.language != "python" || !reflect.DeepEqual(o.args, []string{"-x", "y"}) ||
		!reflect.DeepEqual(o.breaks, []string{"a.py:3", "b.py:4"}) {
		t.Fatalf("%+v %v", o, err)
	}
	if o, _ = parseFlags(t, newCmdLaunch, "--language", "go", "./bin"); o.language != "go" {
		t.Fatalf("--language %+v", o)
	}
	if _, err := parseFlags(t, newCmdLaunch, "notes.txt"); err == nil || !strings.Contains(err.Error(), "cannot tell the language") {
		t.Fatalf("unknown language: %v", err)
	}
}

func TestFlagsJVMList(t *testing.T) {
	t.Parallel()
	o, err := parseFlags(t, newCmdJVMList, "--project", "/p", "--json")
	if err != nil || o.project != "/p" || !o.asJSON {
		t.Fatalf("%+v %v", o, err)
	}
}

func TestFlagsVersion(t *testing.T) {
	t.Parallel()
	if _, err := parseFlags(t, newCmdVersion); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "version")
	if err != nil || out != "dbg "+version+"\n" {
		t.Fatalf("version printed %q (%v)", out, err)
	}
}

func TestFlagsAttachVia(t *testing.T) {
	t.Parallel()
	o, err := parseFlags(t, newCmdAttach, "--via", "ssh://deploy@api:2222", "--pid", "42", "--language", "go")
	if err != nil || o.viaSpec == nil || o.viaSpec.Host != "api" || o.viaSpec.User != "deploy" || o.viaSpec.Port != 2222 {
		t.Fatalf("%+v %v", o, err)
	}
	args, err := attachArgs(context.Background(), o)
	if err != nil || args["via"] != o.viaSpec || args["processId"] != 42 || args["language"] != "go" {
		t.Fatalf("arguments %v %v", args, err)
	}
	o, err = parseFlags(t, newCmdAttach, "--via", "k8s://shop/web/app", "--pid", "7")
	if err != nil {
		t.Fatal(err)
	}
	o.RemoteLanguage = func(_ context.Context, v sessions.Via, pid int) (string, error) {
		if v.Pod != "web" || v.Container != "app" || pid != 7 {
			t.Errorf("asked %+v %d", v, pid)
		}
		return "python", nil
	}
	if args, err := attachArgs(context.Background(), o); err != nil || args["language"] != "python" {
		t.Errorf("the remote process's language: %v %v", args, err)
	}
	if _, err := parseFlags(t, newCmdAttach, "--via", "docker://web"); err == nil || !strings.Contains(err.Error(), "--pid") {
		t.Errorf("--via without --pid: %v", err)
	}
	if _, err := parseFlags(t, newCmdAttach, "--via", "web", "--pid", "1"); err == nil || !strings.Contains(err.Error(), "no scheme") {
		t.Errorf("a --via without a scheme: %v", err)
	}
}
