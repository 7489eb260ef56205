package adapters

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Registry maps language names and aliases to adapters, and answers the
// questions whose answer is an adapter: which language a file, a launch
// type or a running process is ([Registry.ForFile],
// [Registry.ForLaunchType], [Registry.DetectLanguage]), from what each
// adapter declares in its [Traits]. It is safe for concurrent use.
type Registry struct {
	mu      sync.RWMutex
	byName  map[string]Adapter
	order   []string // canonical names, in the order they were registered
	aliases map[string]string
}

// NewRegistry returns a registry holding as.
func NewRegistry(as ...Adapter) *Registry {
	r := &Registry{byName: map[string]Adapter{}, aliases: map[string]string{}}
	for _, a := range as {
		r.Register(a)
	}
	return r
}

// Register adds a (replacing one of the same language) and its aliases.
func (r *Registry) Register(a Adapter, aliases ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.byName[a.Language()]; !ok {
		r.order = append(r.order, a.Language())
	}
	r.byName[a.Language()] = a
	for _, al := range aliases {
		r.aliases[strings.ToLower(al)] = a.Language()
	}
}

// Lookup finds the adapter of a language or alias (case-insensitive).
func (r *Registry) Lookup(lang string) (Adapter, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	l := strings.ToLower(strings.TrimSpace(lang))
	if canon, ok := r.aliases[l]; ok {
		l = canon
	}
	a, ok := r.byName[l]
	return a, ok
}

// Languages returns the canonical names, sorted.
func (r *Registry) Languages() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := slices.Clone(r.order)
	sort.Strings(out)
	return out
}

// All returns the adapters in the order they were registered.
func (r *Registry) All() []Adapter {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Adapter, 0, len(r.order))
	for _, l := range r.order {
		out = append(out, r.byName[l])
	}
	return out
}

// Aliases returns the aliases of a canonical language name, sorted.
func (r *Registry) Aliases(lang string) []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []string
	for al, canon := range r.aliases {
		if canon == lang {
			out = append(out, al)
		}
	}
	sort.Strings(out)
	return out
}

// find returns the first adapter, in registration order, whose traits
// satisfy ok.
func (r *Registry) find(ok func(Traits) bool) (Adapter, bool) {
	if r == nil {
		return nil, false
	}
	for _, a := range r.All() {
		if ok(a.Traits()) {
			return a, true
		}
	}
	return nil, false
}

// ForFile finds the adapter of a program file by its extension
// ([Traits.Extensions]), or of a directory by the project file it holds
// ([Traits.ProjectFiles]).
func (r *Registry) ForFile(path string) (Adapter, bool) {
	ext := strings.ToLower(filepath.Ext(path))
	if a, ok := r.find(func(t Traits) bool { return ext != "" && slices.Contains(t.Extensions, ext) }); ok {
		return a, true
	}
	if st, err := os.Stat(path); err != nil || !st.IsDir() {
		return nil, false
	}
	return r.find(func(t Traits) bool {
		return slices.ContainsFunc(t.ProjectFiles, func(f string) bool {
			_, err := os.Stat(filepath.Join(path, f))
			return err == nil
		})
	})
}

// ForLaunchType finds the adapter that debugs VS Code launch.json
// entries of type typ ([Traits.LaunchTypes]).
func (r *Registry) ForLaunchType(typ string) (Adapter, bool) {
	return r.find(func(t Traits) bool { return typ != "" && slices.Contains(t.LaunchTypes, typ) })
}

// Builtin finds the adapter built into dbg that `dbg dap name` serves
// ([Traits.Builtin]).
func (r *Registry) Builtin(name string) (*Builtin, bool) {
	a, ok := r.find(func(t Traits) bool { return t.Builtin != nil && t.Builtin.Name == name })
	if !ok {
		return nil, false
	}
	return a.Traits().Builtin, true
}

// Builtins lists the names `dbg dap` takes, in registration order.
func (r *Registry) Builtins() []string {
	var out []string
	for _, a := range r.All() {
		if b := a.Traits().Builtin; b != nil {
			out = append(out, b.Name)
		}
	}
	return out
}
