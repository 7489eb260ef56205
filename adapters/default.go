package adapters

// Default returns the registry of every adapter dbg knows, with the
// aliases users type.
func Default() *Registry {
	r := NewRegistry()
	r.Register(Mock{})
	r.Register(Go{}, "golang", "dlv", "delve")
	r.Register(Python{}, "py", "python3", "debugpy")
	for _, e := range extraAdapters() {
		r.Register(e.adapter, e.aliases...)
	}
	return r
}

type registration struct {
	adapter Adapter
	aliases []string
}

// extraAdapters lists the adapters of the other languages.
func extraAdapters() []registration { return nil }
