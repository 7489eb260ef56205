package dap

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	godap "github.com/google/go-dap"
)

// launchRequest is a launch whose arguments are an adapter's own.
type launchRequest struct {
	godap.Request
	Arguments struct {
		Program string `json:"program"`
	} `json:"arguments"`
}

// echoRequest is a command go-dap does not know.
type echoRequest struct {
	godap.Request
	Arguments struct {
		Text string `json:"text"`
	} `json:"arguments"`
}

type echoResponse struct {
	godap.Response
	Body struct {
		Text string `json:"text"`
	} `json:"body"`
}

// testRouter routes a few commands the way the built-in adapters do.
// ran records the commands whose handler ran.
func testRouter(timeout time.Duration, ran func(string)) *Router {
	r := NewRouter("the test adapter", timeout)
	On(r, "initialize", func(ctx context.Context, req *godap.InitializeRequest) (*InitializeResponse, error) {
		ran("initialize")
		return &InitializeResponse{Body: r.Capabilities(Capabilities{SupportsSafeEvaluate: true})}, nil
	})
	On(r, "launch", func(ctx context.Context, req *launchRequest) (*godap.LaunchResponse, error) {
		ran("launch")
		if req.Arguments.Program == "" {
			return nil, errors.New("program is required")
		}
		AfterResponse(ctx, func() { ran("after launch") })
		return nil, nil
	})
	OnSteps(r, func(ctx context.Context, command string, thread int) error {
		ran(command)
		switch thread {
		case 7: // waits for its deadline
			<-ctx.Done()
			return ctx.Err()
		case 8:
			panic("thread 8")
		case 9:
			AfterResponse(ctx, func() { panic("after thread 9") })
		}
		return nil
	})
	On(r, "hotReload", func(ctx context.Context, req *HotReloadRequest) (*HotReloadResponse, error) {
		ran("hotReload")
		return &HotReloadResponse{Body: HotReloadResponseBody{Message: strings.Join(req.Arguments.Files, " ")}}, nil
	})
	On(r, "evaluate", func(ctx context.Context, req *EvaluateRequest) (*godap.EvaluateResponse, error) {
		ran("evaluate")
		resp := &godap.EvaluateResponse{}
		resp.Body.Result = req.Arguments.Expression
		if req.NoSideEffects() {
			resp.Body.Result += " (no side effects)"
		}
		return resp, nil
	})
	On(r, "echo", func(ctx context.Context, req *echoRequest) (*echoResponse, error) {
		ran("echo")
		resp := &echoResponse{}
		resp.Body.Text = req.Arguments.Text
		return resp, nil
	})
	return r
}

// routerClient is the client end of a router served over a pipe.
type routerClient struct {
	t    *testing.T
	conn net.Conn
	fr   *FrameReader
	seq  int

	mu  sync.Mutex
	ran []string
}

func newRouterClient(t *testing.T, timeout time.Duration) *routerClient {
	t.Helper()
	client, server := net.Pipe()
	c := &routerClient{t: t, conn: client, fr: NewFrameReader(client)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = Serve(ctx, server, testRouter(timeout, c.record), nil)
	}()
	t.Cleanup(func() {
		cancel()
		client.Close()
		<-done
	})
	return c
}

func (c *routerClient) record(command string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ran = append(c.ran, command)
}

func (c *routerClient) handled() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.ran...)
}

// send writes a request with raw arguments.
func (c *routerClient) send(command, args string) int {
	c.t.Helper()
	c.seq++
	m := &Message{Seq: c.seq, Type: "request", Command: command}
	if args != "" {
		m.Arguments = json.RawMessage(args)
	}
	b, _ := json.Marshal(m)
	if err := WriteFrame(c.conn, b); err != nil {
		c.t.Fatal(err)
	}
	return c.seq
}

// read returns the next message, within a deadline.
func (c *routerClient) read() *Message {
	c.t.Helper()
	_ = c.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	body, err := c.fr.ReadFrame()
	if err != nil {
		c.t.Fatalf("no message: %v", err)
	}
	m, err := Decode(body)
	if err != nil {
		c.t.Fatalf("%v: %s", err, body)
	}
	return m
}

// call sends a request and returns its response.
func (c *routerClient) call(command, args string) *Message {
	c.t.Helper()
	seq := c.send(command, args)
	m := c.read()
	if m.Type != "response" || m.RequestSeq != seq || m.Command != command {
		c.t.Fatalf("the answer to %s (seq %d) is %s %s for %d", command, seq, m.Type, m.Command, m.RequestSeq)
	}
	return m
}

func wantError(t *testing.T, m *Message, text string) {
	t.Helper()
	if m.OK() {
		t.Fatalf("%s succeeded; want an error saying %q", m.Command, text)
	}
	if !strings.Contains(m.ErrorText(), text) {
		t.Fatalf("%s failed with %q; want it to say %q", m.Command, m.ErrorText(), text)
	}
}

func TestRouterAnswersTyped(t *testing.T) {
	t.Parallel()
	c := newRouterClient(t, 5*time.Second)
	// The capabilities of the requests routed are added to those declared.
	m := c.call("initialize", `{"adapterID":"test"}`)
	var caps Capabilities
	if err := m.DecodeBody(&caps); err != nil || !m.OK() || !caps.SupportsHotReload || !caps.SupportsSafeEvaluate ||
		caps.SupportsConfigurationDoneRequest || caps.SupportsRestartFrame {
		t.Fatalf("initialize: ok %v, %+v, %v", m.OK(), caps, err)
	}
	m = c.call("hotReload", `{"files":["a.java"]}`)
	var reload map[string]any
	if err := m.DecodeBody(&reload); err != nil || reload["message"] != "a.java" || reload["replaced"] == nil || reload["refused"] == nil {
		t.Fatalf("hotReload: %s (no units are empty lists)", m.Body)
	}
	m = c.call("evaluate", `{"expression":"x + 1","sideEffects":false}`)
	var ev godap.EvaluateResponseBody
	if err := m.DecodeBody(&ev); err != nil || ev.Result != "x + 1 (no side effects)" {
		t.Fatalf("evaluate: %+v, %v", ev, err)
	}
	m = c.call("echo", `{"text":"hé"}`)
	var echo struct{ Text string }
	if err := m.DecodeBody(&echo); err != nil || echo.Text != "hé" {
		t.Fatalf("echo: %+v, %v", echo, err)
	}
	if m := c.call("next", `{"threadId":1}`); !m.OK() || m.Body != nil {
		t.Fatalf("next: ok %v, body %s; want an empty success", m.OK(), m.Body)
	}
	c.call("stepOut", `{"threadId":1}`)
	if got := strings.Join(c.handled(), ", "); got != "initialize, hotReload, evaluate, echo, next, stepOut" {
		t.Fatalf("ran %s", got)
	}
}

// TestRouterAfterResponse: work a handler registers runs after its
// answer has gone, and not when the handler fails.
func TestRouterAfterResponse(t *testing.T) {
	t.Parallel()
	c := newRouterClient(t, 5*time.Second)
	wantError(t, c.call("launch", `{}`), "program is required")
	if m := c.call("launch", `{"program":"p"}`); !m.OK() {
		t.Fatalf("launch failed: %s", m.ErrorText())
	}
	c.call("next", `{"threadId":1}`) // after launch's work has run
	got := strings.Join(c.handled(), ", ")
	if want := "launch, launch, after launch, next"; got != want {
		t.Fatalf("ran %s; want %s", got, want)
	}
}

func TestRouterUnknownCommand(t *testing.T) {
	t.Parallel()
	c := newRouterClient(t, 5*time.Second)
	wantError(t, c.call("gotoTargets", `{"source":{"path":"a.go"},"line":3}`), `the test adapter does not support the "gotoTargets" request`)
	if m := c.call("next", `{"threadId":1}`); !m.OK() {
		t.Fatal("the adapter stopped serving after an unknown command")
	}
}

func TestRouterBadArguments(t *testing.T) {
	t.Parallel()
	c := newRouterClient(t, 5*time.Second)
	for _, tc := range []struct{ command, args, want string }{
		{"next", `{"threadId":"one"}`, "bad next arguments: arguments.threadId must be a number, not a string"},
		{"evaluate", `{"expression":["x"]}`, "bad evaluate arguments: arguments.expression must be a string, not an array"},
		{"evaluate", `{"expression":"x","sideEffects":"no"}`, "arguments.sideEffects must be true or false, not a string"},
		{"launch", `[1,2]`, "bad launch arguments: arguments must be an object, not an array"},
	} {
		wantError(t, c.call(tc.command, tc.args), tc.want)
	}
	if got := c.handled(); len(got) != 0 {
		t.Fatalf("handlers ran on bad arguments: %v", got)
	}
}

func TestRouterDeadline(t *testing.T) {
	t.Parallel()
	c := newRouterClient(t, 50*time.Millisecond)
	wantError(t, c.call("next", `{"threadId":7}`), "next did not finish within 50ms")
	if m := c.call("next", `{"threadId":1}`); !m.OK() {
		t.Fatal("the adapter stopped serving after a request ran out of time")
	}
}

func TestRouterPanic(t *testing.T) {
	t.Parallel()
	c := newRouterClient(t, 5*time.Second)
	wantError(t, c.call("next", `{"threadId":8}`), "internal error in next: thread 8")
	// A panic after the answer is told as output.
	if m := c.call("next", `{"threadId":9}`); !m.OK() {
		t.Fatalf("next failed: %s", m.ErrorText())
	}
	ev := c.read()
	var out godap.OutputEventBody
	if err := ev.DecodeBody(&out); err != nil || ev.Event != "output" || !strings.Contains(out.Output, "internal error in next: after thread 9") {
		t.Fatalf("after a panic after the answer: %s %s", ev.Event, ev.Body)
	}
	if m := c.call("next", `{"threadId":1}`); !m.OK() {
		t.Fatal("the adapter stopped serving after a panic")
	}
}

// TestOnChecksTypes: a handler's types must be go-dap's for its command,
// or the adapter's own where go-dap leaves room.
func TestOnChecksTypes(t *testing.T) {
	t.Parallel()
	r := NewRouter("test", time.Second)
	mustPanic := func(what string, register func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s did not panic", what)
			}
		}()
		register()
	}
	mustPanic("next with stepIn's request", func() {
		On(r, "next", func(context.Context, *godap.StepInRequest) (*godap.NextResponse, error) { return nil, nil })
	})
	mustPanic("next with stepIn's response", func() {
		On(r, "next", func(context.Context, *godap.NextRequest) (*godap.StepInResponse, error) { return nil, nil })
	})
	mustPanic("threads with its own request", func() {
		On(r, "threads", func(context.Context, *echoRequest) (*godap.ThreadsResponse, error) { return nil, nil })
	})
	testRouter(time.Second, func(string) {}) // the adapter's own types where go-dap leaves room
	// go-dap's optional arguments (a pointer) embedded in the adapter's own.
	On(r, "disconnect", func(context.Context, *DisconnectRequest) (*godap.DisconnectResponse, error) { return nil, nil })
}

// FuzzRouter feeds a router arbitrary request frames: each request gets
// exactly one answer, and decoding never panics.
func FuzzRouter(f *testing.F) {
	for _, s := range []string{
		`{"seq":1,"type":"request","command":"next","arguments":{"threadId":1}}`,
		`{"seq":2,"type":"request","command":"launch","arguments":{"program":"p"}}`,
		`{"seq":3,"type":"request","command":"evaluate","arguments":{"expression":"x","sideEffects":false,"frameId":2}}`,
		`{"seq":4,"type":"request","command":"echo","arguments":"x"}`,
		`{"seq":8,"type":"request","command":"hotReload","arguments":{"files":null,"since":-1}}`,
		`{"seq":9,"type":"request","command":"stepIn","arguments":{"threadId":8}}`,
		`{"seq":5,"type":"request","command":"initialize","arguments":null}`,
		`{"seq":6,"type":"request","command":"nope"}`,
		`{"seq":7,"type":"request","command":"next","arguments":{"threadId":1e400}}`,
	} {
		f.Add([]byte(s))
	}
	r := testRouter(10*time.Millisecond, func(string) {})
	f.Fuzz(func(t *testing.T, body []byte) {
		m, err := Decode(body)
		if err != nil || m.Type != "request" {
			return
		}
		var out bytes.Buffer
		s := &ServerConn{rw: nopCloser{&out}, open: map[int]bool{}, done: make(chan struct{})}
		s.dispatch(context.Background(), r, m)
		var answers []*Message
		readMessages(&out, func(m *Message) {
			if m.Type == "response" {
				answers = append(answers, m)
			}
		})
		if len(answers) != 1 || answers[0].RequestSeq != m.Seq {
			t.Fatalf("%d answers to %s", len(answers), body)
		}
		if a := answers[0]; !a.OK() && strings.Contains(a.ErrorText(), "internal error") && !strings.Contains(a.ErrorText(), "thread 8") {
			t.Fatalf("decoding %s panicked: %s", body, a.ErrorText())
		}
	})
}

type nopCloser struct{ *bytes.Buffer }

func (nopCloser) Close() error { return nil }
