package toolkit

// Capability is what a capability package (sessiontools, debugtools,
// ide, testrun) gives the server: one value, built by the package's New
// with what it depends on, whose Register adds everything it serves to a
// Toolbox: its tools ([AddTool]), resources and status contributors
// (tb.Status().Register). The server registers each capability once,
// from one goroutine, before it serves; the session tools come first, so
// the schemas they share are described once for all. What Register adds
// is then called concurrently, as the Toolbox's tools are.
type Capability interface {
	Register(tb *Toolbox)
}
