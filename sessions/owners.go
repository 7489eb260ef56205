package sessions

import (
	"context"
	"sync"

	"github.com/dbg-dev/dbg/toolkit"
)

// Owner is the client a session belongs to over HTTP: the connection
// that made it (toolkit.ClientID) and the client's name. Sessions made
// on stdio or by the user's shell belong to no client, and every client
// sees them.
type Owner struct {
	ID   string `json:"id"`
	Name string `json:"client,omitempty"`
}

// ownerOf is the owner of what ctx's call makes: nil for no client.
func ownerOf(ctx context.Context) *Owner {
	id := toolkit.ClientID(ctx)
	if id == "" {
		return nil
	}
	o := &Owner{ID: id}
	if c := toolkit.CallerOf(ctx); c != nil {
		o.Name = c.Client()
	}
	return o
}

// visibleTo reports whether client (a client id, "" for none) sees s
// unless it asks for it by id: its own sessions and those of no client;
// no client sees every session.
func (s *Session) visibleTo(client string) bool {
	return client == "" || s.owner == nil || s.owner.ID == client
}

// OwnerID returns the id of the client that owns session id, or "" (no
// owner, or no such session). The audit log asks it.
func (m *Manager) OwnerID(id string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s, ok := m.sessions[id]; ok && s.owner != nil {
		return s.owner.ID
	}
	return ""
}

// GetFor is Get for the caller of ctx: without an id it picks among the
// sessions the caller sees (its own and those of no client), so a client
// never lands on another's session unless it names it.
func (m *Manager) GetFor(ctx context.Context, id string) (*Session, error) {
	client := toolkit.ClientID(ctx)
	if id != "" || client == "" {
		return m.Get(id)
	}
	m.mu.Lock()
	var ids []string
	for sid, s := range m.sessions {
		if s.visibleTo(client) {
			ids = append(ids, sid)
		}
	}
	m.mu.Unlock()
	if len(ids) == 1 {
		return m.Get(ids[0])
	}
	return nil, m.pickError(ids)
}

// ListFor returns the summaries of the sessions ctx's caller sees
// (every session with all), oldest first. A session of another client
// names its owner.
func (m *Manager) ListFor(ctx context.Context, all bool) []SessionInfo {
	client := toolkit.ClientID(ctx)
	out := m.List()
	kept := out[:0]
	for _, s := range out {
		mine := client == "" || s.Owner == nil || s.Owner.ID == client
		if !mine && !all {
			continue
		}
		if mine && client != "" {
			s.Owner = nil // the caller's own: no need to say
		}
		kept = append(kept, s)
	}
	return kept
}

// CloseOwnedBy closes every session of client (a client gone: its
// connection dropped and its grace passed) and reports how many.
// Sessions of other clients are left alone.
func (m *Manager) CloseOwnedBy(ctx context.Context, client string) int {
	if client == "" {
		return 0
	}
	m.mu.Lock()
	var ids []string
	for id, s := range m.sessions {
		if s.owner != nil && s.owner.ID == client && s.parentID == "" {
			ids = append(ids, id)
		}
	}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = m.CloseSession(ctx, id)
		}()
	}
	wg.Wait()
	return len(ids)
}
