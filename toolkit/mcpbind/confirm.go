package mcpbind

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"time"
)

// confirmTTL is how long the user's answer to a confirmation may take.
const confirmTTL = 10 * time.Minute

// confirmations issues the request state of each confirmation the server
// asks, and redeems it once: an answer counts only for the very call it
// was asked for (the tool and its exact arguments), only once, and only
// within confirmTTL. It is safe for concurrent use.
type confirmations struct {
	key [32]byte
	now func() time.Time

	mu   sync.Mutex
	used map[string]time.Time // redeemed nonces, until they expire
}

func newConfirmations(now func() time.Time) *confirmations {
	c := &confirmations{now: now, used: map[string]time.Time{}}
	if _, err := rand.Read(c.key[:]); err != nil {
		panic(err) // crypto/rand does not fail on the systems dbg runs on
	}
	return c
}

// issue returns the request state of a confirmation of this call.
func (c *confirmations) issue(tool string, args json.RawMessage) string {
	var nonce [16]byte
	_, _ = rand.Read(nonce[:])
	head := hex.EncodeToString(nonce[:]) + "." + strconv.FormatInt(c.now().Add(confirmTTL).Unix(), 10)
	return head + "." + c.mac(head, tool, args)
}

// redeem reports whether state is one issue returned for this call, not
// expired and not redeemed before.
func (c *confirmations) redeem(state, tool string, args json.RawMessage) bool {
	i := strings.LastIndexByte(state, '.')
	if i < 0 || !hmac.Equal([]byte(state[i+1:]), []byte(c.mac(state[:i], tool, args))) {
		return false
	}
	nonce, exp, _ := strings.Cut(state[:i], ".")
	unix, err := strconv.ParseInt(exp, 10, 64)
	now := c.now()
	if err != nil || now.Unix() > unix {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for n, until := range c.used {
		if now.After(until) {
			delete(c.used, n)
		}
	}
	if _, seen := c.used[nonce]; seen {
		return false
	}
	c.used[nonce] = time.Unix(unix, 0)
	return true
}

func (c *confirmations) mac(head, tool string, args json.RawMessage) string {
	m := hmac.New(sha256.New, c.key[:])
	m.Write([]byte(head))
	m.Write([]byte{0})
	m.Write([]byte(tool))
	m.Write([]byte{0})
	m.Write(args)
	return hex.EncodeToString(m.Sum(nil))
}
