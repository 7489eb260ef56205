package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// mcpSDKDir is where scripts/deps/node.sh installs the official MCP
// TypeScript client.
func mcpSDKDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("DBG_MCPSDK_DIR")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".cache", "dbg-test", "mcpsdk")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		t.Skip("the MCP TypeScript SDK is not installed (scripts/deps/node.sh installs it)")
	}
	requireTool(t, "node", "--version")
	return dir
}

// TestTypeScriptClient: the official MCP TypeScript client lists every
// tool (annotated, without output schemas) and the prompts, gets a
// prompt, and runs a session whose answers it accepts, with their
// resource links.
func TestTypeScriptClient(t *testing.T) {
	t.Parallel()
	sdk := mcpSDKDir(t)
	prog := fixture(t, "mock/loop.mock")
	cmd := exec.Command("node", filepath.Join(repoRoot(t), "cmd", "dbg", "testdata", "tsclient", "client.mjs"), sdk, dbgBinary, prog, "--toolsets", "all")
	cmd.Env = append(os.Environ(), "DBG_STATE_DIR="+t.TempDir(), "DBG_WARM_ADAPTERS=0")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("the TypeScript client: %v\n%s", err, out)
	}
	var got struct {
		Tools, Annotated, OutputSchemas, Frames int
		Prompts                                 []string
		PromptText, State                       string
		Links                                   []string
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	if got.Tools != len(toolHints) || got.Annotated != got.Tools || got.OutputSchemas != 0 {
		t.Errorf("tools %d (want %d), annotated %d, with output schemas %d", got.Tools, len(toolHints), got.Annotated, got.OutputSchemas)
	}
	if strings.Join(got.Prompts, " ") != "attach-to-service call-java-method debug-failing-test investigate-crash why-does-this-value-change" ||
		!strings.Contains(got.PromptText, "start_debugging") {
		t.Errorf("prompts %v: %q", got.Prompts, got.PromptText)
	}
	if len(got.Links) != 2 || !strings.HasSuffix(got.Links[0], "/state") || !strings.HasSuffix(got.Links[1], "/output") || got.State != "paused" || got.Frames == 0 {
		t.Errorf("session: links %v, state %s, %d frames", got.Links, got.State, got.Frames)
	}
}
