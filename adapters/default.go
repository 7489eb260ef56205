package adapters

// Default returns the registry of every adapter dbg knows, with the
// aliases users type.
func Default() *Registry {
	r := NewRegistry()
	r.Register(Mock{})
	r.Register(Go{}, "golang", "dlv", "delve")
	r.Register(NewPython(), "py", "python3", "debugpy")
	r.Register(Java{}, "jvm", "kotlin-jvm")
	r.Register(Node{}, "typescript", "js", "ts", "node", "nodejs")
	r.Register(NewC(), "gcc", "clang")
	r.Register(NewCPP(), "c++", "cxx")
	r.Register(NewRust(), "rs")
	r.Register(NewRuby(), "rb", "rdbg")
	r.Register(NewCOBOL(), "cob", "gnucobol")
	r.Register(NewDotnet(), "csharp", "cs", "fsharp", ".net", "netcoredbg")
	r.Register(NewDart(), "flutter")
	return r
}
