package sessions

import (
	"context"
	"sort"
)

// Groups: sessions started together, as one workflow (a VS Code
// compound, an IntelliJ compound run configuration). A wait on a group
// is a wait on its sessions (wait_for_stop sessionIds); with StopAll,
// closing one of them closes them all, as VS Code's compounds do.

// Group is a set of sessions started together.
type Group struct {
	Name     string   `json:"name"`
	Sessions []string `json:"sessions"`
	StopAll  bool     `json:"stopAll,omitempty"`
}

// AddGroup makes ids a group named name (a later group of the same name
// replaces it). The sessions' summaries name it.
func (m *Manager) AddGroup(name string, ids []string, stopAll bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.groups == nil {
		m.groups = map[string]*Group{}
	}
	m.groups[name] = &Group{Name: name, Sessions: append([]string(nil), ids...), StopAll: stopAll}
	for _, id := range ids {
		if s, ok := m.sessions[id]; ok {
			s.mu.Lock()
			s.group = name
			s.mu.Unlock()
		}
	}
}

// Groups returns the groups with their open sessions, by name.
func (m *Manager) Groups() []Group {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := []Group{}
	for _, g := range m.groups {
		open := Group{Name: g.Name, StopAll: g.StopAll, Sessions: []string{}}
		for _, id := range g.Sessions {
			if _, ok := m.sessions[id]; ok {
				open.Sessions = append(open.Sessions, id)
			}
		}
		if len(open.Sessions) > 0 {
			out = append(out, open)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// groupPeers returns, for a session of a StopAll group, the other
// sessions of the group that are open.
func (m *Manager) groupPeers(s *Session) []string {
	s.mu.Lock()
	name := s.group
	s.mu.Unlock()
	if name == "" {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	g := m.groups[name]
	if g == nil || !g.StopAll {
		return nil
	}
	var out []string
	for _, id := range g.Sessions {
		if _, ok := m.sessions[id]; ok && id != s.id {
			out = append(out, id)
		}
	}
	return out
}

// closePeers closes the rest of s's StopAll group, once s is closed.
func (m *Manager) closePeers(ctx context.Context, peers []string) {
	for _, id := range peers {
		_ = m.CloseSession(ctx, id)
	}
}
