package sessions

// NamesTarget reports whether req names something to attach to: a port, a
// process id, or an adapterConfig key that names a target. Create attaches
// in the same call when it does.
func (req CreateRequest) NamesTarget() bool {
	return req.Port != 0 || req.ProcessID != 0 || namesTarget(req.AdapterConfig)
}
