package toolkit

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
)

// askCaller answers every confirmation with yes, or fails with err.
type askCaller struct {
	yes   bool
	err   error
	asked atomic.Int32
	q     atomic.Value
}

func (c *askCaller) Client() string { return "test-client 1" }

func (c *askCaller) Confirm(_ context.Context, q string) (bool, error) {
	c.asked.Add(1)
	c.q.Store(q)
	return c.yes, c.err
}

// confirmToolbox has a destructive tool whose calls are destructive when
// "kill" is true, and a read-only one.
func confirmToolbox(t *testing.T, audit *AuditLog) *Toolbox {
	t.Helper()
	tb := NewToolbox(func(Tool) {}, nil)
	tb.SetPolicy(Policy{ConfirmDestructive: true, Audit: audit})
	type in struct {
		SessionID string `json:"sessionId"`
		Kill      Bool   `json:"kill"`
		Password  string `json:"password"`
	}
	AddTool(tb, "end", "ends", func(_ context.Context, in in) (nameOut, error) {
		if in.SessionID == "fail" {
			return nameOut{}, NewError(CodeSessionNotFound, "no session fail", "")
		}
		return nameOut{"ended"}, nil
	}, Hints{Title: "End", Destructive: true}, DestructiveWhen(func(_ context.Context, args json.RawMessage) bool {
		var v in
		return json.Unmarshal(args, &v) == nil && v.Kill.Or(false)
	}))
	AddTool(tb, "look", "looks", func(context.Context, struct{}) (nameOut, error) { return nameOut{"seen"}, nil }, Hints{Title: "Look", ReadOnly: true})
	return tb
}

func callWith(t *testing.T, tb *Toolbox, c Caller, name, args string) Envelope[json.RawMessage] {
	t.Helper()
	ctx := context.Background()
	if c != nil {
		ctx = WithCaller(ctx, c)
	}
	tool, _ := tb.Lookup(name)
	b, _ := tool.Call(ctx, json.RawMessage(args))
	var env Envelope[json.RawMessage]
	if err := json.Unmarshal(b, &env); err != nil {
		t.Fatal(err)
	}
	return env
}

// Under ConfirmDestructive a destructive call asks first: yes runs it, no
// is CANCELLED, a client that cannot be asked (or no caller) is refused;
// a call DestructiveWhen clears runs without asking.
func TestConfirmDestructive(t *testing.T) {
	t.Parallel()
	tb := confirmToolbox(t, nil)
	yes := &askCaller{yes: true}
	if env := callWith(t, tb, yes, "end", `{"kill":true}`); !env.Success || yes.asked.Load() != 1 {
		t.Errorf("yes: %+v, asked %d", env, yes.asked.Load())
	}
	if q, _ := yes.q.Load().(string); !strings.Contains(q, "end") || !strings.Contains(q, `"kill":true`) {
		t.Errorf("question %q", q)
	}
	no := &askCaller{}
	if env := callWith(t, tb, no, "end", `{"kill":true}`); env.Success || env.Error.Code != CodeCancelled {
		t.Errorf("no: %+v", env)
	}
	for name, c := range map[string]Caller{"no elicitation": &askCaller{err: ErrCannotConfirm}, "no caller": nil} {
		env := callWith(t, tb, c, "end", `{"kill":true}`)
		if env.Success || env.Error.Code != CodeUnsupported || !strings.Contains(env.Error.Message, "elicitation") {
			t.Errorf("%s: %+v", name, env.Error)
		}
	}
	failing := &askCaller{err: errors.New("the client went away")}
	if env := callWith(t, tb, failing, "end", `{"kill":true}`); env.Success || env.Error.Code != CodeCancelled {
		t.Errorf("a failed elicitation: %+v", env.Error)
	}
	quiet := &askCaller{}
	if env := callWith(t, tb, quiet, "end", `{"kill":false}`); !env.Success || quiet.asked.Load() != 0 {
		t.Errorf("a call that destroys nothing asked (%d) or failed: %+v", quiet.asked.Load(), env)
	}
	if env := callWith(t, tb, quiet, "look", `{}`); !env.Success || quiet.asked.Load() != 0 {
		t.Errorf("a read-only call asked: %+v", env)
	}
}

func TestProgressCarrier(t *testing.T) {
	t.Parallel()
	Progress(context.Background(), "nobody listens %d", 1) // no receiver: nothing happens
	var got []string
	ctx := WithProgress(context.Background(), func(l string) { got = append(got, l) })
	Progress(ctx, "building %s…", "x")
	if len(got) != 1 || got[0] != "building x…" || ProgressOf(ctx) == nil || ProgressOf(context.Background()) != nil {
		t.Errorf("progress lines %q", got)
	}
}

// A destructive call whose arguments do not decode is refused as such,
// and the user is not asked about it.
func TestConfirmInvalidCall(t *testing.T) {
	t.Parallel()
	tb := confirmToolbox(t, nil)
	c := &askCaller{yes: true}
	env := callWith(t, tb, c, "end", `{"sessionId":"s1","kill":true,"kil":1}`)
	if env.Success || env.Error == nil || env.Error.Code != CodeInvalidArgument || c.asked.Load() != 0 {
		t.Errorf("asked %d times: %+v", c.asked.Load(), env.Error)
	}
	if env := callWith(t, tb, c, "end", `{"sessionId":"s1","kill":true}`); !env.Success || c.asked.Load() != 1 {
		t.Errorf("a valid destructive call: asked %d times, %+v", c.asked.Load(), env.Error)
	}
}
