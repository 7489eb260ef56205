package javasrc

import (
	"net/url"
	"path"
	"sort"
	"strings"
)

// Mapping is one HTTP endpoint declared in the sources.
type Mapping struct {
	Method               string   `json:"method"` // GET, POST, ...; ALL for a mapping without a method
	Path                 string   `json:"path"`
	ModuleName           string   `json:"moduleName"`
	ClassName            string   `json:"className"` // binary name, as the agent loads it
	MethodName           string   `json:"methodName"`
	TargetMethodIdentity string   `json:"targetMethodIdentity"`
	ParameterTypes       []string `json:"parameterTypes"`
	Comment              *string  `json:"comment"`
	Framework            string   `json:"framework"` // spring or jax-rs
	File                 string   `json:"file"`      // relative to the project, slash-separated
	Line                 int      `json:"line"`
}

// MethodAny is the method of a mapping that accepts every HTTP method.
const MethodAny = "ALL"

var springMethods = map[string]string{"GetMapping": "GET", "PostMapping": "POST", "PutMapping": "PUT",
	"DeleteMapping": "DELETE", "PatchMapping": "PATCH", "RequestMapping": ""}

var jaxrsMethods = setOf("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS")

// HTTPMappings returns every Spring MVC/WebFlux and JAX-RS endpoint of
// the project, sorted by path then method. The result is computed once
// per generation of the index.
func (ix *Index) HTTPMappings() []Mapping {
	s := ix.current()
	s.once.Do(func() { s.http = s.mappings(ix.root) })
	return s.http
}

func (s *snapshot) mappings(root string) []Mapping {
	appPaths := map[string]string{} // module -> JAX-RS @ApplicationPath
	for _, t := range s.all {
		if a, ok := annotation(t.Annotations, "ApplicationPath"); ok {
			if ps := s.paths(a, "value", t); len(ps) > 0 {
				appPaths[moduleOf(s.rel[t.File], root)] = ps[0]
			}
		}
	}
	var out []Mapping
	for _, t := range s.all {
		if t.Kind != KindClass {
			continue
		}
		out = append(out, s.springMappings(t, root)...)
		out = append(out, s.jaxrsMappings(t, root, appPaths)...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Method < out[j].Method
	})
	return out
}

// supertypes returns the project interfaces and superclasses of t,
// nearest first.
func (s *snapshot) supertypes(t *TypeDecl) []*TypeDecl {
	var out []*TypeDecl
	seen := map[*TypeDecl]bool{t: true}
	queue := []*TypeDecl{t}
	for len(queue) > 0 && len(out) < 32 {
		cur := queue[0]
		queue = queue[1:]
		for _, ref := range append(append([]TypeRef(nil), cur.Extends...), cur.Implements...) {
			_, d := s.resolve(ref.Name, cur)
			if d != nil && !seen[d] {
				seen[d] = true
				out = append(out, d)
				queue = append(queue, d)
			}
		}
	}
	return out
}

// mappedMethod is a handler method and the type that declares its
// mapping annotations.
type mappedMethod struct {
	m     Method
	owner *TypeDecl
}

// handlerMethods returns t's methods carrying one of the annotations,
// plus annotated methods of its supertypes that t does not redeclare
// with annotations of its own.
func (s *snapshot) handlerMethods(t *TypeDecl, isHandler func(Method) bool) []mappedMethod {
	var out []mappedMethod
	own := map[string]bool{}
	for _, m := range t.Methods {
		if isHandler(m) {
			out = append(out, mappedMethod{m, t})
			own[methodKey(m)] = true
		}
	}
	for _, sup := range s.supertypes(t) {
		for _, m := range sup.Methods {
			if isHandler(m) && !own[methodKey(m)] {
				own[methodKey(m)] = true
				out = append(out, mappedMethod{m, sup})
			}
		}
	}
	return out
}

func methodKey(m Method) string {
	var b strings.Builder
	b.WriteString(m.Name)
	for _, p := range m.Params {
		b.WriteString("," + lastDot(p.Type.Name))
	}
	return b.String()
}

func (s *snapshot) springMappings(t *TypeDecl, root string) []Mapping {
	isHandler := func(m Method) bool {
		for _, a := range m.Annotations {
			if _, ok := springMethods[a.SimpleName()]; ok {
				return true
			}
		}
		return false
	}
	controller := hasAnnotation(t, setOf("Controller", "RestController"))
	prefixes := []string{""}
	prefixFound := false
	for _, d := range append([]*TypeDecl{t}, s.supertypes(t)...) {
		if a, ok := annotation(d.Annotations, "RequestMapping"); ok {
			prefixes = s.paths(a, "", d)
			prefixFound = true
			break
		}
	}
	if !controller && !prefixFound {
		return nil
	}
	if hasString(t.Modifiers, "abstract") {
		return nil
	}
	var out []Mapping
	for _, hm := range s.handlerMethods(t, isHandler) {
		for _, a := range hm.m.Annotations {
			verb, ok := springMethods[a.SimpleName()]
			if !ok {
				continue
			}
			verbs := []string{verb}
			if verb == "" {
				verbs = s.requestMethods(a)
			}
			for _, prefix := range prefixes {
				for _, p := range s.paths(a, "", hm.owner) {
					for _, v := range verbs {
						out = append(out, s.mapping(t, hm, v, joinPath(prefix, p), "spring", root))
					}
				}
			}
		}
	}
	return out
}

// requestMethods reads @RequestMapping(method = ...); none means ALL.
func (s *snapshot) requestMethods(a Annotation) []string {
	v, ok := a.Get("method")
	if !ok {
		return []string{MethodAny}
	}
	var out []string
	for _, it := range v.Items() {
		if it.Kind == ValueName {
			out = append(out, strings.ToUpper(lastDot(it.Text)))
		}
	}
	if len(out) == 0 {
		return []string{MethodAny}
	}
	return out
}

func (s *snapshot) jaxrsMappings(t *TypeDecl, root string, appPaths map[string]string) []Mapping {
	verbOf := func(m Method) string {
		for _, a := range m.Annotations {
			if n := a.SimpleName(); jaxrsMethods[n] && (a.Name == n || strings.Contains(a.Name, ".ws.rs.")) {
				return n
			}
		}
		return ""
	}
	for _, d := range append([]*TypeDecl{t}, s.supertypes(t)...) {
		if a, ok := annotation(d.Annotations, "Path"); ok {
			return s.jaxrsFor(t, s.paths(a, "value", d), verbOf, root, appPaths)
		}
	}
	return nil
}

func (s *snapshot) jaxrsFor(t *TypeDecl, prefixes []string, verbOf func(Method) string, root string, appPaths map[string]string) []Mapping {
	if hasString(t.Modifiers, "abstract") {
		return nil
	}
	app := appPaths[moduleOf(s.rel[t.File], root)]
	var out []Mapping
	for _, hm := range s.handlerMethods(t, func(m Method) bool { return verbOf(m) != "" }) {
		sub := []string{""}
		if a, ok := annotation(hm.m.Annotations, "Path"); ok {
			sub = s.paths(a, "value", hm.owner)
		}
		for _, prefix := range prefixes {
			for _, p := range sub {
				out = append(out, s.mapping(t, hm, verbOf(hm.m), joinPath(joinPath(app, prefix), p), "jax-rs", root))
			}
		}
	}
	return out
}

func (s *snapshot) mapping(t *TypeDecl, hm mappedMethod, verb, p, framework, root string) Mapping {
	mr := methodRef{owner: hm.owner, m: hm.m, sc: s.typeScope(hm.owner, nil)}
	sig := s.signature(mr)
	rel := s.rel[t.File]
	line := hm.m.Line
	file := s.rel[hm.owner.File]
	return Mapping{Method: verb, Path: p, ModuleName: moduleOf(rel, root), ClassName: t.BinaryName,
		MethodName: hm.m.Name, ParameterTypes: sig.ParameterTypes, Comment: comment(hm.m), Framework: framework,
		TargetMethodIdentity: t.BinaryName + "#" + hm.m.Name + "(" + strings.Join(sig.ParameterTypes, ",") + ")",
		File:                 file, Line: line}
}

func annotation(list []Annotation, simple string) (Annotation, bool) {
	for _, a := range list {
		if a.SimpleName() == simple {
			return a, true
		}
	}
	return Annotation{}, false
}

// paths reads the path values of a mapping annotation: "value" and
// "path" for Spring (key ""), or the given key. No value means "".
func (s *snapshot) paths(a Annotation, key string, ctx *TypeDecl) []string {
	var vals []Value
	keys := []string{key}
	if key == "" {
		keys = []string{"value", "path"}
	}
	for _, k := range keys {
		if v, ok := a.Get(k); ok {
			vals = append(vals, v.Items()...)
		}
	}
	var out []string
	for _, v := range vals {
		out = append(out, s.constString(v, ctx, 0))
	}
	if len(out) == 0 {
		return []string{""}
	}
	return out
}

// constString evaluates a constant string expression: literals, "+" and
// references to static final String fields of project types.
func (s *snapshot) constString(v Value, ctx *TypeDecl, depth int) string {
	if depth > 8 {
		return ""
	}
	switch v.Kind {
	case ValueString, ValueLiteral:
		return v.Text
	case ValueConcat:
		var b strings.Builder
		for _, p := range v.Parts {
			b.WriteString(s.constString(p, ctx, depth+1))
		}
		return b.String()
	case ValueName:
		if f, owner := s.constField(v.Text, ctx); f != nil && f.Value != nil {
			return s.constString(*f.Value, owner, depth+1)
		}
		return "{" + v.Text + "}"
	}
	return v.Text
}

// constField finds the field a constant name refers to from ctx: a field
// of ctx, its outer types or supertypes, a static import, or Type.NAME.
func (s *snapshot) constField(name string, ctx *TypeDecl) (*Field, *TypeDecl) {
	if ctx == nil {
		return nil, nil
	}
	typeName, field, qualified := cutLast(name)
	if !qualified {
		for t := ctx; t != nil; t = t.Outer {
			for _, d := range append([]*TypeDecl{t}, s.supertypes(t)...) {
				if f := fieldNamed(d, field); f != nil {
					return f, d
				}
			}
		}
		for _, imp := range ctx.File.Imports {
			if !imp.Static {
				continue
			}
			owner := imp.Name
			if !imp.Wildcard {
				var last string
				owner, last, _ = cutLast(imp.Name)
				if last != field {
					continue
				}
			}
			if ts := s.types[owner]; len(ts) > 0 {
				if f := fieldNamed(ts[0], field); f != nil {
					return f, ts[0]
				}
			}
		}
		return nil, nil
	}
	if _, d := s.resolve(typeName, ctx); d != nil {
		if f := fieldNamed(d, field); f != nil {
			return f, d
		}
	}
	return nil, nil
}

func cutLast(s string) (string, string, bool) {
	i := strings.LastIndexByte(s, '.')
	if i < 0 {
		return "", s, false
	}
	return s[:i], s[i+1:], true
}

func fieldNamed(t *TypeDecl, name string) *Field {
	for i := range t.Fields {
		if t.Fields[i].Name == name {
			return &t.Fields[i]
		}
	}
	return nil
}

// joinPath joins URL path parts with single slashes; the result starts
// with "/" and has no trailing slash (except "/" itself).
func joinPath(a, b string) string {
	parts := []string{}
	for _, s := range []string{a, b} {
		for _, seg := range strings.Split(s, "/") {
			if seg != "" {
				parts = append(parts, seg)
			}
		}
	}
	return "/" + strings.Join(parts, "/")
}

// moduleOf names the module of a source file: the folder holding its
// "src" directory (which may lie above the indexed root when a source
// folder is indexed alone), or the project folder.
func moduleOf(rel, root string) string {
	full := strings.TrimSuffix(strings.ReplaceAll(root, "\\", "/"), "/") + "/" + rel
	if i := strings.LastIndex(full, "/src/"); i > 0 {
		return path.Base(full[:i])
	}
	return path.Base(strings.ReplaceAll(root, "\\", "/"))
}

// comment is the first paragraph of a method's Javadoc, else an OpenAPI
// or Swagger summary; nil when there is none.
func comment(m Method) *string {
	if m.Doc != "" {
		var lines []string
		body := strings.TrimSuffix(strings.TrimPrefix(m.Doc, "/**"), "*/")
		for _, ln := range strings.Split(body, "\n") {
			ln = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(ln), "*"))
			if strings.HasPrefix(ln, "@") {
				break
			}
			if ln == "" {
				if len(lines) > 0 {
					break
				}
				continue
			}
			lines = append(lines, ln)
		}
		if c := strings.Join(lines, " "); c != "" {
			return &c
		}
	}
	for _, a := range m.Annotations {
		key := map[string]string{"Operation": "summary", "ApiOperation": "value"}[a.SimpleName()]
		if key == "" {
			continue
		}
		if v, ok := a.Get(key); ok && v.Kind == ValueString && v.Text != "" {
			c := v.Text
			return &c
		}
	}
	return nil
}

// HTTPQuery filters mappings. Empty fields match everything.
type HTTPQuery struct {
	Path       string // case-insensitive substring of the path
	Method     string // GET also matches ALL mappings
	ModuleName string // exact
	Keyword    string // case-insensitive substring of path, class, method or comment
	URL        string // a concrete URL or path, matched against path templates
}

// Match reports whether m passes the filter.
func (q HTTPQuery) Match(m Mapping) bool {
	if q.Path != "" && !strings.Contains(strings.ToLower(m.Path), strings.ToLower(q.Path)) {
		return false
	}
	if q.Method != "" && !strings.EqualFold(q.Method, m.Method) && m.Method != MethodAny {
		return false
	}
	if q.ModuleName != "" && q.ModuleName != m.ModuleName {
		return false
	}
	if q.Keyword != "" {
		k := strings.ToLower(q.Keyword)
		hay := strings.ToLower(m.Path + "\n" + m.ClassName + "\n" + m.MethodName)
		if m.Comment != nil {
			hay += "\n" + strings.ToLower(*m.Comment)
		}
		if !strings.Contains(hay, k) {
			return false
		}
	}
	if q.URL != "" && !MatchURL(m.Path, q.URL) {
		return false
	}
	return true
}

// MatchURL reports whether a concrete URL (absolute, or a path with an
// optional query) is served by the path template pattern: "{var}"
// segments match one segment, "*" one segment, "**" the rest. A context
// path in front of the pattern is allowed.
func MatchURL(pattern, raw string) bool {
	p := raw
	if u, err := url.Parse(raw); err == nil {
		p = u.Path
		if u.Host == "" && !strings.HasPrefix(raw, "/") && u.Scheme == "" {
			p = "/" + u.Path
		}
	}
	segs := splitPath(p)
	pat := splitPath(pattern)
	for start := 0; start <= len(segs); start++ {
		if matchSegs(pat, segs[start:]) {
			return true
		}
	}
	return false
}

func splitPath(p string) []string {
	var out []string
	for _, s := range strings.Split(p, "/") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

func matchSegs(pat, segs []string) bool {
	for i, p := range pat {
		if p == "**" {
			return true
		}
		if i >= len(segs) {
			return false
		}
		switch {
		case p == "*", strings.HasPrefix(p, "{") && strings.HasSuffix(p, "}"):
		case !strings.EqualFold(p, segs[i]):
			return false
		}
	}
	return len(pat) == len(segs)
}
