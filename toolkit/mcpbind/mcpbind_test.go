package mcpbind

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/dbg-dev/dbg/toolkit"
)

type echoIn struct {
	Line toolkit.Int `json:"line"`
}

// connect serves srv to a new go-sdk client of opts over in-memory
// transports.
func connect(t testing.TB, srv *mcp.Server, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, opts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); _ = ss.Wait() })
	return cs
}

func envelopeOf(t *testing.T, res *mcp.CallToolResult) (env struct {
	Success   bool
	Data      map[string]any
	Error     *toolkit.ToolError
	RequestID string
	Timestamp string
}) {
	t.Helper()
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &env); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return env
}

// Every tool answers the envelope; a handler panic is an INTERNAL_ERROR
// and the server keeps serving. Tools are listed with their annotations
// and no output schema.
func TestToolboxEnvelopeAndPanics(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	tb := NewToolbox(srv, nil)
	toolkit.AddTool(tb, "boom", "panics", func(ctx context.Context, in echoIn) (struct{}, error) { panic("kaboom") }, toolkit.Hints{Title: "Boom"})
	toolkit.AddTool(tb, "echo", "echoes", func(ctx context.Context, in echoIn) (echoIn, error) { return in, nil },
		toolkit.Hints{Title: "Echo", ReadOnly: true})
	cs := connect(t, srv, nil)
	ctx := context.Background()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "boom", Arguments: map[string]any{}})
	if err != nil || !res.IsError {
		t.Fatalf("%+v %v", res, err)
	}
	if env := envelopeOf(t, res); env.Success || env.Error == nil || env.Error.Code != toolkit.CodeInternal || env.RequestID == "" || env.Timestamp == "" {
		t.Fatalf("envelope %+v", env)
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"line": 3}})
	if err != nil || res.IsError {
		t.Fatalf("echo %+v %v", res, err)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 2 {
		t.Fatalf("tools %+v %v", tools, err)
	}
	for _, tool := range tools.Tools {
		if tool.InputSchema == nil || tool.OutputSchema != nil || tool.Annotations == nil || tool.Annotations.Title == "" || tool.Annotations.OpenWorldHint == nil {
			t.Errorf("%s: input %v output %v annotations %+v", tool.Name, tool.InputSchema, tool.OutputSchema, tool.Annotations)
		}
	}
	if a := tools.Tools[1].Annotations; a.DestructiveHint != nil || !a.ReadOnlyHint || a.IdempotentHint {
		t.Errorf("a read-only tool's annotations %+v", a)
	}
	if a := tools.Tools[0].Annotations; a.DestructiveHint == nil || *a.DestructiveHint || a.ReadOnlyHint {
		t.Errorf("boom's annotations %+v", a)
	}
}

// A tool of a set not listed is missing from tools/list but answers
// calls; enable_toolset lists it, and the client is told the list
// changed.
func TestUnlistedToolsAndEnable(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	tb := NewToolbox(srv, nil)
	tb.SetPolicy(toolkit.Policy{})
	tb.DeclareToolset(toolkit.Toolset{Name: "extra", Description: "more"})
	toolkit.AddTool(tb, "core_echo", "", func(_ context.Context, in echoIn) (echoIn, error) { return in, nil }, toolkit.Hints{Title: "Echo", ReadOnly: true})
	toolkit.AddTool(tb, "extra_echo", "", func(_ context.Context, in echoIn) (echoIn, error) { return in, nil },
		toolkit.Hints{Title: "Extra", ReadOnly: true}, toolkit.InToolset("extra"))
	toolkit.AddToolsetTool(tb)
	changed := make(chan struct{}, 8)
	cs := connect(t, srv, &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} }})
	ctx := context.Background()
	if names := listNames(t, cs); !slices.Equal(names, []string{"core_echo", "enable_toolset"}) {
		t.Fatalf("listed %v", names)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "extra_echo", Arguments: map[string]any{"line": 7}})
	if err != nil || res.IsError || envelopeOf(t, res).Data["line"] != float64(7) {
		t.Fatalf("a call to the unlisted tool: %+v %v", res, err)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nosuch", Arguments: map[string]any{}}); err == nil {
		t.Error("a tool that does not exist answered")
	}
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "enable_toolset", Arguments: map[string]any{"name": "extra"}})
	if err != nil || res.IsError {
		t.Fatalf("enable_toolset: %+v %v", res, err)
	}
	select {
	case <-changed:
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/tools/list_changed")
	}
	if names := listNames(t, cs); !slices.Contains(names, "extra_echo") {
		t.Fatalf("after enable_toolset: %v", names)
	}
}

func listNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	var names []string
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	return names
}

// Under ConfirmDestructive a go-sdk client with elicitation is asked:
// accept runs the call, decline answers CANCELLED; a client without
// elicitation is refused. Clients of the protocol with input requests
// answer them; older ones are asked with elicitation/create.
func TestConfirmThroughElicitation(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"", "2025-06-18"} {
		t.Run("protocol "+version, func(t *testing.T) {
			t.Parallel()
			var opts *mcp.ServerOptions
			if version != "" {
				opts = &mcp.ServerOptions{SupportedProtocolVersions: []string{version}}
			}
			srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, opts)
			tb := NewToolbox(srv, nil)
			tb.SetPolicy(toolkit.Policy{ConfirmDestructive: true})
			var runs sync.Map
			toolkit.AddTool(tb, "wipe", "", func(_ context.Context, in echoIn) (echoIn, error) {
				runs.Store(int(in.Line), true)
				return in, nil
			}, toolkit.Hints{Title: "Wipe", Destructive: true})
			for _, c := range []struct {
				name   string
				answer string // "" = no elicitation
				line   int
				code   string
			}{
				{"yes", "accept", 1, ""}, {"no", "decline", 2, toolkit.CodeCancelled}, {"dismissed", "cancel", 3, toolkit.CodeCancelled}, {"no elicitation", "", 4, toolkit.CodeUnsupported},
			} {
				var opts *mcp.ClientOptions
				var asked string
				if c.answer != "" {
					opts = &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
						asked = req.Params.Message
						return &mcp.ElicitResult{Action: c.answer}, nil
					}}
				}
				cs := connect(t, srv, opts)
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "wipe", Arguments: map[string]any{"line": c.line}})
				if err != nil {
					t.Fatal(err)
				}
				env := envelopeOf(t, res)
				_, ran := runs.Load(c.line)
				switch {
				case c.code == "" && (!env.Success || !ran || !strings.Contains(asked, "wipe")):
					t.Errorf("%s: %+v ran %v asked %q", c.name, env, ran, asked)
				case c.code != "" && (env.Success || env.Error.Code != c.code || ran):
					t.Errorf("%s: want %s: %+v ran %v", c.name, c.code, env.Error, ran)
				}
			}
		})
	}
}

// An answer the server did not ask for (a forged or replayed request
// state, or another call's) runs nothing: the call is asked again.
func TestConfirmRefusesForgedAnswers(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	tb := NewToolbox(srv, nil)
	tb.SetPolicy(toolkit.Policy{ConfirmDestructive: true})
	var ran sync.Map
	toolkit.AddTool(tb, "wipe", "", func(_ context.Context, in echoIn) (echoIn, error) {
		ran.Store(int(in.Line), true)
		return in, nil
	}, toolkit.Hints{Title: "Wipe", Destructive: true})
	cs := connect(t, srv, &mcp.ClientOptions{MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept"}, nil
		}})
	ctx := context.Background()
	first, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "wipe", Arguments: map[string]any{"line": 1}})
	if err != nil || !first.NeedsInput() || first.RequestState == "" {
		t.Fatalf("the first round: %+v %v", first, err)
	}
	yes := mcp.InputResponseMap{"confirm": &mcp.ElicitResult{Action: "accept"}}
	for name, p := range map[string]*mcp.CallToolParams{
		"forged state":   {Name: "wipe", Arguments: map[string]any{"line": 1}, InputResponses: yes, RequestState: "forged"},
		"other argument": {Name: "wipe", Arguments: map[string]any{"line": 2}, InputResponses: yes, RequestState: first.RequestState},
	} {
		res, err := cs.CallTool(ctx, p)
		if err != nil || !res.NeedsInput() {
			t.Errorf("%s: %+v %v", name, res, err)
		}
	}
	if _, ok := ran.Load(2); ok {
		t.Fatal("a call ran on another call's answer")
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "wipe", Arguments: map[string]any{"line": 1}, InputResponses: yes, RequestState: first.RequestState})
	if _, ok := ran.Load(1); err != nil || res.NeedsInput() || !ok {
		t.Errorf("the answered call: %+v %v", res, err)
	}
	ran.Delete(1)
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "wipe", Arguments: map[string]any{"line": 1}, InputResponses: yes, RequestState: first.RequestState})
	if _, again := ran.Load(1); err != nil || !res.NeedsInput() || again {
		t.Errorf("a replayed answer: %+v %v ran %v", res, err, again)
	}
}

// A long step's progress lines reach a client that sent a progressToken
// as notifications/progress, in order.
func TestProgressNotifications(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	tb := NewToolbox(srv, nil)
	toolkit.AddTool(tb, "build", "", func(ctx context.Context, _ struct{}) (echoIn, error) {
		toolkit.Progress(ctx, "compiling…")
		toolkit.Progress(ctx, "linking…")
		return echoIn{}, nil
	}, toolkit.Hints{Title: "Build"})
	var mu sync.Mutex
	var got []string
	done := make(chan struct{})
	cs := connect(t, srv, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		defer mu.Unlock()
		if req.Params.ProgressToken == "tok" {
			got = append(got, req.Params.Message)
		}
		if len(got) == 2 {
			close(done)
		}
	}})
	params := &mcp.CallToolParams{Name: "build", Arguments: map[string]any{}}
	params.SetProgressToken("tok")
	if _, err := cs.CallTool(context.Background(), params); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("no progress notifications")
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(got, []string{"compiling…", "linking…"}) {
		t.Errorf("progress %q", got)
	}
}

// An answer of a tool added with LinkResources carries a resource_link
// per template its data names; a failed answer carries none.
func TestResourceLinks(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	tb := NewToolbox(srv, nil)
	read := func(context.Context, string) (toolkit.ResourceContent, error) {
		return toolkit.ResourceContent{Text: "x"}, nil
	}
	tb.AddResourceTemplate(toolkit.ResourceTemplate{URITemplate: "dbg://sessions/{id}/state", Name: "session-state", MIMEType: "application/json", LinkField: "sessionId", Read: read})
	tb.AddResourceTemplate(toolkit.ResourceTemplate{URITemplate: "dbg://sessions/{id}/output", Name: "session-output", MIMEType: "text/plain", LinkField: "sessionId", Read: read})
	type out struct {
		SessionID string `json:"sessionId"`
	}
	toolkit.AddTool(tb, "make", "", func(_ context.Context, in echoIn) (out, error) {
		if in.Line < 0 {
			return out{}, toolkit.NewError(toolkit.CodeInvalidArgument, "negative", "")
		}
		return out{SessionID: "s-1"}, nil
	}, toolkit.Hints{Title: "Make"}, toolkit.LinkResources())
	cs := connect(t, srv, nil)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "make", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, c := range res.Content[1:] {
		if l, ok := c.(*mcp.ResourceLink); ok {
			uris = append(uris, l.URI+" "+l.MIMEType)
		}
	}
	if want := []string{"dbg://sessions/s-1/state application/json", "dbg://sessions/s-1/output text/plain"}; !slices.Equal(uris, want) {
		t.Errorf("links %v, want %v", uris, want)
	}
	res, _ = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "make", Arguments: map[string]any{"line": -1}})
	if len(res.Content) != 1 {
		t.Errorf("a failed answer has %d content items", len(res.Content))
	}
}

// Prompts are listed with their arguments and render their steps.
func TestPromptsServed(t *testing.T) {
	t.Parallel()
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	tb := NewToolbox(srv, nil)
	toolkit.AddTool(tb, "echo", "", func(_ context.Context, in echoIn) (echoIn, error) { return in, nil }, toolkit.Hints{Title: "Echo", ReadOnly: true})
	tb.AddPrompt(toolkit.Prompt{Name: "say", Description: "say a line", Intro: "Echo it.",
		Arguments: []toolkit.PromptArgument{{Name: "n", Required: true}},
		Steps:     []toolkit.PromptStep{{Tool: "echo", Args: map[string]any{"line": "{n}"}}}})
	cs := connect(t, srv, nil)
	ctx := context.Background()
	l, err := cs.ListPrompts(ctx, nil)
	if err != nil || len(l.Prompts) != 1 || l.Prompts[0].Name != "say" || len(l.Prompts[0].Arguments) != 1 || !l.Prompts[0].Arguments[0].Required {
		t.Fatalf("%+v %v", l, err)
	}
	p, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "say", Arguments: map[string]string{"n": "4"}})
	if err != nil || len(p.Messages) != 1 || !strings.Contains(p.Messages[0].Content.(*mcp.TextContent).Text, `1. echo {"line":4}`) {
		t.Fatalf("%+v %v", p, err)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "say"}); err == nil {
		t.Error("a prompt without its required argument rendered")
	}
}
