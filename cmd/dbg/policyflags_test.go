package main

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/toolkit"
)

func TestFlagsPolicy(t *testing.T) {
	t.Parallel()
	o, err := parseFlags(t, newCmdMCP, "--toolsets", "tests, git", "--profile", "observe", "--confirm", "destructive")
	if err != nil || !slices.Equal(o.server.Toolsets, []string{"tests", "git"}) || o.server.Profile != toolkit.ProfileObserve || !o.server.ConfirmDestructive {
		t.Fatalf("%+v %v", o.server, err)
	}
	d, err := parseFlags(t, newCmdMCP)
	if err != nil || d.server.Toolsets != nil || d.server.Profile != "" || d.server.ConfirmDestructive {
		t.Fatalf("defaults %+v %v", d.server, err)
	}
	for _, bad := range [][]string{{"--toolsets", "core,nosuch"}, {"--profile", "readonly"}, {"--confirm", "always"}} {
		if _, err := parseFlags(t, newCmdMCP, bad...); err == nil {
			t.Errorf("%v was accepted", bad)
		}
	}
}

// The toolsets --toolsets names are the ones the wired capabilities
// declare.
func TestToolsetNamesAreDeclared(t *testing.T) {
	t.Parallel()
	f, _, _ := cliFactory(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, release := f.newServerWith(ctx, t.TempDir(), serverFlags{})
	defer release()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_debug_tools_status", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	var env struct {
		Data struct {
			Sections struct {
				Toolsets struct {
					Toolsets []toolkit.ToolsetState `json:"toolsets"`
				} `json:"toolsets"`
			} `json:"sections"`
		} `json:"data"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &env)
	var declared []string
	for _, s := range env.Data.Sections.Toolsets.Toolsets {
		declared = append(declared, s.Name)
	}
	want := slices.Clone(toolsetNames)
	slices.Sort(want)
	slices.Sort(declared)
	if !slices.Equal(declared, want) {
		t.Errorf("declared %v, --toolsets knows %v", declared, want)
	}
}
