package adapters

import (
	"path/filepath"
	"slices"
	"sort"
)

// DetectRemote tells the language of a process on another machine, whose
// files dbg does not read: by its executable's name and command line
// ([Traits.Commands]), then by the marks its executable holds
// ([Remote.Marks], highest [Traits.BinaryRank] first; has says whether
// the executable holds a mark). ok is false when neither tells.
func (r *Registry) DetectRemote(exe string, argv []string, has func(mark string) bool) (lang string, ok bool) {
	if a, ok := r.forCommand(filepath.Base(exe), argv); ok {
		return a.Language(), true
	}
	for _, a := range r.marked() {
		marks := a.Traits().Remote.Marks
		if !slices.ContainsFunc(marks, func(m string) bool { return !has(m) }) {
			return a.Language(), true
		}
	}
	return "", false
}

// RemoteMarks are the marks [Registry.DetectRemote] asks about, each
// once.
func (r *Registry) RemoteMarks() []string {
	var out []string
	for _, a := range r.marked() {
		for _, m := range a.Traits().Remote.Marks {
			if !slices.Contains(out, m) {
				out = append(out, m)
			}
		}
	}
	return out
}

// marked returns the adapters that declare marks, highest BinaryRank
// first.
func (r *Registry) marked() []Adapter {
	var out []Adapter
	for _, a := range r.All() {
		if rm := a.Traits().Remote; rm != nil && len(rm.Marks) > 0 {
			out = append(out, a)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Traits().BinaryRank > out[j].Traits().BinaryRank })
	return out
}
