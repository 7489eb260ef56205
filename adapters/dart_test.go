package adapters

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestDartDiscoveryAndStart(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", dir+string(os.PathListSeparator)+"/usr/bin:/bin")
	a := NewDart()
	natWantMissing(t, a, Target{Mode: Launch})
	natFakeTool(t, dir, "dart", "Dart SDK version: 3.5.4 (stable) on \"linux_x64\"")
	info := a.Find(context.Background())
	if !info.Found || info.Version != "3.5.4" || !info.Launch || !info.AttachPort {
		t.Errorf("info %+v", info)
	}
	if got := natStartFake(t, a, dir, "dart"); got != "debug_adapter" {
		t.Errorf("dart started with %q", got)
	}
}

func TestDartArgs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	prog := filepath.Join(dir, "bin", "main.dart")
	if err := os.MkdirAll(filepath.Dir(prog), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(prog, []byte("void main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	yes := true
	a := NewDart()
	args, err := a.LaunchArgs(context.Background(), Target{Mode: Launch, Program: "bin/main.dart", Cwd: dir,
		Env: map[string]string{"A": "1"}, JustMyCode: &yes, Extra: map[string]any{"toolArgs": []string{"--enable-asserts"}}})
	if err != nil {
		t.Fatal(err)
	}
	if args["program"] != prog || args["cwd"] != dir || args["request"] != "launch" || args["debugSdkLibraries"] != false {
		t.Errorf("launch args %v", args)
	}
	if ta, _ := args["toolArgs"].([]string); len(ta) != 1 {
		t.Errorf("toolArgs %v", args["toolArgs"])
	}
	at, err := a.AttachArgs(context.Background(), Target{Mode: Attach, Port: 8181})
	if err != nil || at["vmServiceUri"] != "ws://127.0.0.1:8181/ws" {
		t.Errorf("attach by port %v %v", at, err)
	}
	uri := "ws://127.0.0.1:8181/abc=/ws"
	at, err = a.AttachArgs(context.Background(), Target{Mode: Attach, Extra: map[string]any{"vmServiceUri": uri}})
	if err != nil || at["vmServiceUri"] != uri {
		t.Errorf("attach by uri %v %v", at, err)
	}
	if _, err := a.AttachArgs(context.Background(), Target{Mode: Attach}); err == nil {
		t.Error("attach without uri or port accepted")
	}
	if _, err := a.LaunchArgs(context.Background(), Target{Mode: Launch}); err == nil {
		t.Error("launch without program accepted")
	}
}
