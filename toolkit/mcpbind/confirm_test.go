package mcpbind

import (
	"encoding/json"
	"testing"
	"time"
)

// A state redeems once, for its own call, until it expires.
func TestConfirmationsRedeem(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_000_000, 0)
	c := newConfirmations(func() time.Time { return now })
	args := json.RawMessage(`{"a":1}`)
	s := c.issue("wipe", args)
	if c.redeem(s, "wipe", json.RawMessage(`{"a":2}`)) || c.redeem(s, "other", args) {
		t.Fatal("redeemed for another call")
	}
	if !c.redeem(s, "wipe", args) || c.redeem(s, "wipe", args) {
		t.Fatal("not redeemed exactly once")
	}
	late := c.issue("wipe", args)
	now = now.Add(confirmTTL + time.Second)
	if c.redeem(late, "wipe", args) {
		t.Fatal("redeemed after it expired")
	}
}

func FuzzConfirmationsRedeem(f *testing.F) {
	c := newConfirmations(time.Now)
	f.Add(c.issue("wipe", nil), []byte(`{}`))
	f.Add("a.b.c", []byte(nil))
	f.Add("..", []byte(`x`))
	f.Fuzz(func(t *testing.T, state string, args []byte) {
		if c.redeem(state, "wipe", args) && state != "" {
			// Only a state issue made can redeem; a fuzzer cannot forge one.
			t.Fatalf("redeemed a state the server did not issue: %q", state)
		}
	})
}
