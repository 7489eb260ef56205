package nodedap

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// startBrk starts node --inspect-brk on a fixture and connects a Client.
func startBrk(t *testing.T, script string, onEvent func(*Message)) (*Client, *nodeProcess) {
	t.Helper()
	node := mustHaveNode(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	cmd := exec.Command(node, "--inspect-brk=127.0.0.1:0", fixture(t, script))
	np, err := startNode(ctx, cmd, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(np.proc.Kill)
	c, err := Dial(ctx, np.wsURL, onEvent)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c, np
}

func TestClientCallsAndEvents(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var methods []string
	scripts := map[string]string{}
	paused := make(chan json.RawMessage, 4)
	c, _ := startBrk(t, "loop.js", func(m *Message) {
		mu.Lock()
		methods = append(methods, m.Method)
		if m.Method == "Debugger.scriptParsed" {
			var sp struct{ ScriptID, URL string }
			_ = json.Unmarshal(m.Params, &sp)
			scripts[sp.ScriptID] = sp.URL
		}
		mu.Unlock()
		if m.Method == "Debugger.paused" {
			paused <- m.Params
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, m := range []string{"Runtime.enable", "Debugger.enable", "Runtime.runIfWaitingForDebugger"} {
		if err := c.Call(ctx, m, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case p := <-paused:
		var ev struct {
			CallFrames []struct {
				Location struct {
					ScriptID string `json:"scriptId"`
				} `json:"location"`
			} `json:"callFrames"`
		}
		if err := json.Unmarshal(p, &ev); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		url := ""
		if len(ev.CallFrames) > 0 {
			url = scripts[ev.CallFrames[0].Location.ScriptID]
		}
		mu.Unlock()
		if !strings.HasSuffix(url, "/loop.js") {
			t.Fatalf("first pause not in loop.js: %s", p)
		}
	case <-ctx.Done():
		t.Fatal("no Debugger.paused at entry")
	}
	var res struct {
		Result struct {
			Type  string          `json:"type"`
			Value json.RawMessage `json:"value"`
		} `json:"result"`
	}
	if err := c.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "6*7"}, &res); err != nil {
		t.Fatal(err)
	}
	if res.Result.Type != "number" || string(res.Result.Value) != "42" {
		t.Fatalf("6*7 = %+v", res.Result)
	}
	// A CDP error comes back typed.
	err := c.Call(ctx, "Runtime.getProperties", map[string]any{"objectId": "nope"}, nil)
	var cerr *CDPError
	if !errors.As(err, &cerr) {
		t.Fatalf("getProperties(nope) err = %v, want *CDPError", err)
	}
	err = c.Call(ctx, "No.suchMethod", nil, nil)
	if !errors.As(err, &cerr) || !strings.Contains(cerr.Message, "wasn't found") {
		t.Fatalf("unknown method err = %v", err)
	}
	mu.Lock()
	got := strings.Join(methods, ",")
	mu.Unlock()
	if !strings.Contains(got, "Debugger.scriptParsed") || !strings.Contains(got, "Runtime.executionContextCreated") {
		t.Errorf("events seen: %s", got)
	}
	_ = c.Close()
	if err := c.Call(ctx, "Runtime.evaluate", map[string]any{"expression": "1"}, nil); !errors.Is(err, ErrClientClosed) {
		t.Fatalf("call after close: %v", err)
	}
	select {
	case <-c.EventsDone():
	case <-time.After(5 * time.Second):
		t.Fatal("event loop did not end after Close")
	}
}

func TestClientPeerGone(t *testing.T) {
	t.Parallel()
	c, np := startBrk(t, "loop.js", nil)
	np.proc.Kill()
	select {
	case <-c.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("client did not notice the inspector went away")
	}
	if !errors.Is(c.Err(), ErrClientClosed) {
		t.Fatalf("Err = %v", c.Err())
	}
}

func TestListTargets(t *testing.T) {
	t.Parallel()
	_, np := startBrk(t, "loop.js", nil)
	ts, err := ListTargets(context.Background(), "127.0.0.1", portOf(np.wsURL))
	if err != nil {
		t.Fatal(err)
	}
	u, err := pickTarget(ts)
	if err != nil {
		t.Fatal(err)
	}
	if u != np.wsURL {
		t.Fatalf("target %s, node said %s", u, np.wsURL)
	}
}
