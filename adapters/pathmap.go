package adapters

import (
	"bytes"
	"encoding/json"

	"github.com/dbg-dev/dbg/dap"
)

// PathMapLayer maps source paths between this machine and the one the
// program runs on, for an adapter that takes no path mappings of its own
// (the built-in Node adapter, old rdbg): every source path of a request
// (the files of setBreakpoints, breakpointLocations, source, gotoTargets)
// goes from local to remote, and every source path of a response or an
// event (frames, breakpoints, loaded sources, output) from remote to
// local. A path no mapping holds passes unchanged.
func PathMapLayer(maps []PathMapping) dap.Layer {
	return func(*dap.Link) dap.Hooks {
		return dap.Hooks{
			Request: func(r *dap.Request) dap.Verdict {
				r.Arguments = mapSourcePaths(r.Arguments, func(p string) string { q, _ := MapToRemote(maps, p); return q })
				return dap.Pass
			},
			Response: func(_ *dap.Request, resp *dap.Message) dap.Verdict {
				resp.Body = mapSourcePaths(resp.Body, func(p string) string { q, _ := MapToLocal(maps, p); return q })
				return dap.Pass
			},
			Event: func(ev *dap.Message) dap.Verdict {
				ev.Body = mapSourcePaths(ev.Body, func(p string) string { q, _ := MapToLocal(maps, p); return q })
				return dap.Pass
			},
		}
	}
}

// withPathMaps puts a [PathMapLayer] in front of ep's stream when t has
// path mappings.
func withPathMaps(ep *Endpoint, t Target) *Endpoint {
	if len(t.PathMappings) == 0 || ep == nil {
		return ep
	}
	px := dap.NewProxy(ep.Conn, PathMapLayer(t.PathMappings))
	inner := ep.Cleanup
	ep.Conn = px.Client()
	ep.Cleanup = func() {
		px.Stop()
		if inner != nil {
			inner()
		}
	}
	return ep
}

// mapSourcePaths rewrites, with f, the "path" of every DAP Source in a
// message's arguments or body: the value of a "source" key, and each
// element of a "sources" list. raw is returned as it is when it holds
// none.
func mapSourcePaths(raw json.RawMessage, f func(string) string) json.RawMessage {
	if len(raw) == 0 || !bytes.Contains(raw, []byte(`"path"`)) {
		return raw
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return raw
	}
	if !walkSources(v, f) {
		return raw
	}
	out, err := json.Marshal(v)
	if err != nil {
		return raw
	}
	return out
}

// walkSources maps the sources in v and reports whether it changed one.
func walkSources(v any, f func(string) string) bool {
	changed := false
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			switch {
			case k == "source":
				changed = mapSource(e, f) || changed
			case k == "sources":
				if list, ok := e.([]any); ok {
					for _, s := range list {
						changed = mapSource(s, f) || changed
					}
				}
			}
			changed = walkSources(e, f) || changed
		}
	case []any:
		for _, e := range x {
			changed = walkSources(e, f) || changed
		}
	}
	return changed
}

func mapSource(v any, f func(string) string) bool {
	src, ok := v.(map[string]any)
	if !ok {
		return false
	}
	p, ok := src["path"].(string)
	if !ok || p == "" {
		return false
	}
	if q := f(p); q != p {
		src["path"] = q
		return true
	}
	return false
}
