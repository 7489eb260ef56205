package main

import (
	"context"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
)

// fakeToolClient serves tools answering fixed data (a JSON document) in
// process; a tool not in data answers a NOT_FOUND error envelope.
func fakeToolClient(t *testing.T, data map[string]string) func(context.Context, string) (*toolclient.Client, error) {
	t.Helper()
	state := t.TempDir()
	return func(ctx context.Context, project string) (*toolclient.Client, error) {
		return toolclient.New(ctx, toolclient.Config{StateDir: state, Project: project, Version: "test",
			Serve: func(context.Context) (*mcp.Server, func()) {
				srv := mcp.NewServer(&mcp.Implementation{Name: "fake", Version: "1"}, nil)
				answer := func(text string) mcp.ToolHandler {
					return func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
						return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
					}
				}
				for _, name := range []string{"list_debug_sessions", "list_attachable_jvms", "get_restartable_run_configurations",
					"attach_local_jvm", "get_debug_tools_status", "list_supported_languages", "debug_run_configuration", "get_local_variables"} {
					text := `{"success":false,"error":{"code":"NOT_FOUND","message":"` + name + ` refused","retryable":false}}`
					if d, ok := data[name]; ok {
						text = `{"success":true,"data":` + d + `}`
					}
					srv.AddTool(&mcp.Tool{Name: name, InputSchema: &jsonschema.Schema{Type: "object"}}, answer(text))
				}
				return srv, func() {}
			}})
	}
}

// TestVerbsPrint runs verbs against fixed tool answers and checks what
// goes to stdout (data) and stderr (status).
func TestVerbsPrint(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		data    map[string]string
		run     func(context.Context, *iostreams.IOStreams, func(context.Context, string) (*toolclient.Client, error)) error
		wantErr string
		out     string
		errOut  string
	}{
		{
			name: "sessions table",
			data: map[string]string{"list_debug_sessions": `{"sessions":[{"sessionId":"go-1","language":"go","state":"paused","pid":7,
				"lastStop":{"reason":"breakpoint","location":{"file":"/p/main.go","line":3}}}]}`},
			run: func(ctx context.Context, io *iostreams.IOStreams, tc func(context.Context, string) (*toolclient.Client, error)) error {
				return sessionsRun(ctx, &queryOptions{IO: io, ToolClient: tc})
			},
			out:    "SESSION  LANGUAGE  STATE   PID  WHERE\ngo-1     go        paused  7    /p/main.go:3 (breakpoint)\n",
			errOut: "no dbg serve runs for this project",
		},
		{
			name: "sessions --json",
			data: map[string]string{"list_debug_sessions": `{"sessions":[]}`},
			run: func(ctx context.Context, io *iostreams.IOStreams, tc func(context.Context, string) (*toolclient.Client, error)) error {
				return sessionsRun(ctx, &queryOptions{IO: io, ToolClient: tc, asJSON: true})
			},
			out: "{\n  \"sessions\": []\n}\n",
		},
		{
			name: "jvm list empty",
			data: map[string]string{"list_attachable_jvms": `{"count":0,"jvms":[]}`},
			run: func(ctx context.Context, io *iostreams.IOStreams, tc func(context.Context, string) (*toolclient.Client, error)) error {
				return jvmListRun(ctx, &queryOptions{IO: io, ToolClient: tc})
			},
			errOut: "no JVM found\n",
		},
		{
			name: "jvm list failure --json",
			run: func(ctx context.Context, io *iostreams.IOStreams, tc func(context.Context, string) (*toolclient.Client, error)) error {
				return jvmListRun(ctx, &queryOptions{IO: io, ToolClient: tc, asJSON: true})
			},
			wantErr: "NOT_FOUND: list_attachable_jvms refused",
			out:     "\"code\": \"NOT_FOUND\"",
		},
		{
			name: "jvm attach",
			data: map[string]string{"attach_local_jvm": `{"success":true,"pid":"42","attachName":"Calc","message":"agent loaded","connectionId":"Calc-42","port":9001,"httpPort":null}`},
			run: func(ctx context.Context, io *iostreams.IOStreams, tc func(context.Context, string) (*toolclient.Client, error)) error {
				return jvmAttachRun(ctx, &jvmAttachOptions{IO: io, ToolClient: tc, pid: 42})
			},
			out:    "pid           42\nattachName    Calc\nconnectionId  Calc-42\nport          9001\nhttpPort      -\n",
			errOut: "agent loaded\n",
		},
		{
			name: "run list empty",
			data: map[string]string{"get_restartable_run_configurations": `{"projectPath":"/p","configurations":[],"warnings":["bad launch.json"]}`},
			run: func(ctx context.Context, io *iostreams.IOStreams, tc func(context.Context, string) (*toolclient.Client, error)) error {
				return runListRun(ctx, &queryOptions{IO: io, ToolClient: tc})
			},
			errOut: "warning: bad launch.json\nno saved run configuration in /p\n",
		},
		{
			name: "adapters table",
			data: map[string]string{"list_supported_languages": `{"languages":[{"language":"go","adapter":"dlv","found":true,"path":"/bin/dlv","version":"1.0","launch":true,"attachByPid":true,"attachByPort":false}]}`},
			run: func(ctx context.Context, io *iostreams.IOStreams, tc func(context.Context, string) (*toolclient.Client, error)) error {
				return adaptersRun(ctx, &adaptersOptions{IO: io, ToolClient: tc})
			},
			out: "go        dlv      found   1.0      yes     yes         -            /bin/dlv\n",
		},
		{
			name: "status sections",
			data: map[string]string{"get_debug_tools_status": `{"project":"/p","sessions":[],"capabilities":[{"name":"git","state":"AVAILABLE","reason":"r"}],
				"sections":{"zeta":{"x":1}},"nextAction":"CREATE_DEBUG_SESSION","hint":"h"}`},
			run: func(ctx context.Context, io *iostreams.IOStreams, tc func(context.Context, string) (*toolclient.Client, error)) error {
				return statusRun(ctx, &queryOptions{IO: io, ToolClient: tc})
			},
			out: "project  /p\nnext     CREATE_DEBUG_SESSION: h\n\ndebug sessions (0)\n\ncapabilities\n  git  AVAILABLE  r\n\nzeta\n  {\"x\":1}\n",
		},
		{
			name: "run debug",
			data: map[string]string{
				"debug_run_configuration": `{"sessionId":"python-1","language":"python","mode":"launch","pid":9,
					"start":{"state":"paused","lastStop":{"reason":"breakpoint","location":{"file":"/p/a.py","line":3,"function":"main"}}}}`,
				"get_local_variables": `{"variables":[{"name":"x","type":"int","value":"1"}]}`,
			},
			run: func(ctx context.Context, io *iostreams.IOStreams, tc func(context.Context, string) (*toolclient.Client, error)) error {
				return runDebugRun(ctx, &runDebugOptions{queryOptions: queryOptions{IO: io, ToolClient: tc}, name: "a"})
			},
			out:    "session python-1 (python, launch)\npid 9\nstate paused\nstopped (breakpoint) at /p/a.py:3 in main\nlocals:\n  x int = 1\n",
			errOut: "session python-1 closes as this command exits",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ios, _, out, errOut := iostreams.Test()
			err := c.run(context.Background(), ios, fakeToolClient(t, c.data))
			if c.wantErr == "" && err != nil || c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)) {
				t.Fatalf("error %v, want %q", err, c.wantErr)
			}
			if !strings.Contains(out.String(), c.out) {
				t.Errorf("stdout lacks %q:\n%s", c.out, out)
			}
			if c.out == "" && out.Len() != 0 {
				t.Errorf("stdout %q, want nothing", out)
			}
			if !strings.Contains(errOut.String(), c.errOut) {
				t.Errorf("stderr lacks %q:\n%s", c.errOut, errOut)
			}
		})
	}
}
