package nodedap

import (
	"context"
	"fmt"
	"sort"
	"strings"

	godap "github.com/google/go-dap"
)

// script is one script V8 has parsed.
type script struct {
	id     string
	url    string
	path   string     // file path; "" for node:internal and evaluated code
	sm     *sourceMap // nil without a (readable) source map
	source *string    // cached text, loaded on demand
}

// internal reports whether the script is part of node itself.
func (s *script) internal() bool { return strings.HasPrefix(s.url, "node:") }

// addScript records a parsed script, reads its source map, and places the
// pending breakpoints the map reaches. It runs on the CDP event goroutine.
func (h *Handler) addScript(sp scriptParsed) {
	s := &script{id: sp.ScriptID, url: sp.URL, path: urlPath(sp.URL)}
	h.mu.Lock()
	useMaps := h.sourceMaps
	h.mu.Unlock()
	if useMaps && sp.SourceMapURL != "" && s.path != "" {
		if sm, err := loadSourceMap(s.path, sp.SourceMapURL); err == nil {
			s.sm = sm
		}
	}
	h.mu.Lock()
	h.scripts[s.id] = s
	h.mu.Unlock()
	if s.sm != nil {
		h.resolvePending(s.sm, s.url)
		h.remapTransformed(s)
	}
}

type mappedTarget struct {
	url       string
	line, col int
}

// mappedTargets lists, for a source line (0-based), the generated position
// in every loaded script whose source map covers that source.
func (h *Handler) mappedTargets(path string, line int) []mappedTarget {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []mappedTarget
	seen := map[string]bool{}
	for _, s := range h.scripts {
		if s.sm == nil || seen[s.url] {
			continue
		}
		if gl, gc, _, ok := s.sm.generated(path, line); ok {
			seen[s.url] = true
			out = append(out, mappedTarget{url: s.url, line: gl, col: gc})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].url < out[j].url })
	return out
}

// originalLocked maps a script location to a source path and 0-based line,
// through the script's source map when it has one. Call with mu held.
func (h *Handler) originalLocked(l location) (path string, line int) {
	s := h.scripts[l.ScriptID]
	if s == nil {
		return "", l.LineNumber
	}
	if s.sm != nil {
		if p, ol, _, ok := s.sm.original(l.LineNumber, l.ColumnNumber); ok {
			return p, ol
		}
	}
	return s.path, l.LineNumber
}

// originalPos is originalLocked with the column too (both 0-based).
func (h *Handler) originalPos(l location) (path string, line, col int, name string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.scripts[l.ScriptID]
	if s == nil {
		return "", l.LineNumber, l.ColumnNumber, ""
	}
	if s.sm != nil {
		if p, ol, oc, ok := s.sm.original(l.LineNumber, l.ColumnNumber); ok {
			return p, ol, oc, s.url
		}
	}
	return s.path, l.LineNumber, l.ColumnNumber, s.url
}

// userScripts returns the loaded scripts that are files of the program.
func (h *Handler) userScripts() []*script {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []*script
	for _, s := range h.scripts {
		if s.path != "" && !strings.Contains(s.path, "/node_modules/") {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].url < out[j].url })
	return out
}

func (h *Handler) scriptSource(ctx context.Context, c cdpConn, s *script) (string, error) {
	h.mu.Lock()
	cached := s.source
	h.mu.Unlock()
	if cached != nil {
		return *cached, nil
	}
	var res struct {
		ScriptSource string `json:"scriptSource"`
	}
	if err := c.Call(ctx, "Debugger.getScriptSource", map[string]any{"scriptId": s.id}, &res); err != nil {
		return "", err
	}
	h.mu.Lock()
	s.source = &res.ScriptSource
	h.mu.Unlock()
	return res.ScriptSource, nil
}

// scriptURL returns the URL of a script id.
func (h *Handler) scriptURL(id string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if s := h.scripts[id]; s != nil {
		return s.url
	}
	return ""
}

// sourceRef returns the DAP sourceReference of a script without a file.
func (h *Handler) sourceRef(scriptID string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, id := range h.sourceRefs {
		if id == scriptID {
			return i + 1
		}
	}
	h.sourceRefs = append(h.sourceRefs, scriptID)
	return len(h.sourceRefs)
}

// source answers the source request for code without a file.
func (h *Handler) source(ctx context.Context, req *godap.SourceRequest) (*godap.SourceResponse, error) {
	ref := req.Arguments.SourceReference
	if s := req.Arguments.Source; s != nil && s.SourceReference != 0 {
		ref = s.SourceReference
	}
	c, err := h.client()
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	var s *script
	if ref >= 1 && ref <= len(h.sourceRefs) {
		s = h.scripts[h.sourceRefs[ref-1]]
	}
	h.mu.Unlock()
	if s == nil {
		return nil, fmt.Errorf("no source with reference %d", ref)
	}
	text, err := h.scriptSource(ctx, c, s)
	if err != nil {
		return nil, err
	}
	return &godap.SourceResponse{Body: godap.SourceResponseBody{Content: text, MimeType: "text/javascript"}}, nil
}
