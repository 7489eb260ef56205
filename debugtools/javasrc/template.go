package javasrc

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Expansion says how far a template expands object arguments.
type Expansion string

// Expansions of DebugTools' genParamType.
const (
	// ExpandSimple writes objects as {} without fields.
	ExpandSimple Expansion = "SIMPLE"
	// ExpandCurrent expands the fields a class declares itself.
	ExpandCurrent Expansion = "CURRENT"
	// ExpandAll expands declared and inherited fields.
	ExpandAll Expansion = "ALL"
)

// ParseExpansion reads SIMPLE, CURRENT or ALL (any case); "" means ALL,
// the DebugTools default.
func ParseExpansion(s string) (Expansion, bool) {
	switch e := Expansion(strings.ToUpper(strings.TrimSpace(s))); e {
	case "":
		return ExpandAll, true
	case ExpandSimple, ExpandCurrent, ExpandAll:
		return e, true
	}
	return "", false
}

// maxTemplateDepth bounds the nesting of generated objects, and
// maxTemplateFields the number of fields expanded in one template (wide
// models would otherwise grow exponentially with the depth).
const (
	maxTemplateDepth  = 6
	maxTemplateFields = 5000
)

// TemplateRequest selects a method and an expansion.
type TemplateRequest struct {
	ClassName      string
	MethodName     string
	ParameterTypes []string // nil: not given; empty: the no-argument overload
	Expansion      Expansion
	Now            time.Time // for date placeholders (zero = time.Now)
}

// ParamTemplate describes one parameter of the selected method.
type ParamTemplate struct {
	Name          string   `json:"name"`
	Type          string   `json:"type"`        // erased, qualified
	GenericType   string   `json:"genericType"` // with type arguments
	ContentType   string   `json:"contentType"` // the RunContentDTO type: simple, enum, json_entity, ...
	EnumConstants []string `json:"enumConstants,omitempty"`
}

// Template is a generated argument template.
type Template struct {
	ClassName string // binary name (a.b.Outer$Inner), as the agent loads it

	MethodName     string
	ParameterNames []string
	ParameterTypes []string
	Parameters     []ParamTemplate
	// ArgsJSON is the DebugTools argsJson: one {type, content} object per
	// parameter, keyed by name, in declaration order.
	ArgsJSON  string
	Expansion Expansion
	File      string // relative path of the declaring file
	Line      int
}

// LookupError is returned when the class or method cannot be chosen.
// Options lists what the caller may pass instead.
type LookupError struct {
	Reason  string // "class_not_found", "method_not_found", "ambiguous", "no_match"
	Message string
	Options []string
	// Candidates describes each overload when Reason is ambiguous or no_match.
	Candidates []Signature
}

func (e *LookupError) Error() string { return e.Message }

// Signature is one overload of a method.
type Signature struct {
	ParameterTypes []string `json:"parameterTypes"`
	ParameterNames []string `json:"parameterNames"`
	Line           int      `json:"line"`
}

type methodRef struct {
	owner *TypeDecl
	m     Method
	sc    scope
}

// FindMethod selects one method of a class by name and, for overloads,
// by parameter types.
func (ix *Index) FindMethod(className, methodName string, parameterTypes []string) (*TypeDecl, Method, error) {
	s := ix.current()
	mr, err := s.findMethod(className, methodName, parameterTypes)
	if err != nil {
		return nil, Method{}, err
	}
	return mr.owner, mr.m, nil
}

func (s *snapshot) findMethod(className, methodName string, parameterTypes []string) (methodRef, error) {
	className = strings.TrimSpace(className)
	ts := s.types[className]
	if len(ts) == 0 {
		ts = s.types[strings.ReplaceAll(className, "$", ".")]
	}
	if len(ts) == 0 {
		var opts []string
		simple := lastDot(strings.ReplaceAll(className, "$", "."))
		for _, t := range s.all {
			if strings.EqualFold(t.Name, simple) {
				opts = append(opts, t.BinaryName)
			}
		}
		return methodRef{}, &LookupError{Reason: "class_not_found", Options: opts,
			Message: fmt.Sprintf("class %s is not declared in the project's Java sources", className)}
	}
	cls := ts[0]
	// The class's own methods, then those it inherits from project types.
	var found []methodRef
	var names []string
	seenName := map[string]bool{}
	visited := map[*TypeDecl]bool{}
	var walk func(t *TypeDecl, sc scope, depth int)
	walk = func(t *TypeDecl, sc scope, depth int) {
		if t == nil || visited[t] || depth > 16 {
			return
		}
		visited[t] = true
		for _, m := range t.Methods {
			if !seenName[m.Name] {
				seenName[m.Name] = true
				names = append(names, m.Name)
			}
			if m.Name == methodName && !overridden(found, m, s) {
				found = append(found, methodRef{owner: t, m: m, sc: sc})
			}
		}
		for _, sup := range append(append([]TypeRef(nil), t.Extends...), t.Implements...) {
			r := s.resolveRef(sup, sc)
			if r.decl != nil {
				walk(r.decl, s.typeScope(r.decl, r.args), depth+1)
			}
		}
	}
	walk(cls, s.typeScope(cls, nil), 0)
	if len(found) == 0 {
		return methodRef{}, &LookupError{Reason: "method_not_found", Options: names,
			Message: fmt.Sprintf("class %s has no method %s", cls.QualifiedName, methodName)}
	}
	sigs := make([]Signature, len(found))
	for i, mr := range found {
		sigs[i] = s.signature(mr)
	}
	if parameterTypes == nil {
		if len(found) == 1 {
			return found[0], nil
		}
		return methodRef{}, &LookupError{Reason: "ambiguous", Options: sigOptions(methodName, sigs), Candidates: sigs,
			Message: fmt.Sprintf("%s.%s is overloaded (%d methods): pass parameterTypes to choose one", cls.QualifiedName, methodName, len(found))}
	}
	for i, mr := range found {
		if len(sigs[i].ParameterTypes) != len(parameterTypes) {
			continue
		}
		ok := true
		for j, want := range sigs[i].ParameterTypes {
			if !sameType(parameterTypes[j], want) && !sameType(parameterTypes[j], mr.m.Params[j].Type.Name+strings.Repeat("[]", mr.m.Params[j].Type.Dims)) {
				ok = false
				break
			}
		}
		if ok {
			return mr, nil
		}
	}
	return methodRef{}, &LookupError{Reason: "no_match", Options: sigOptions(methodName, sigs), Candidates: sigs,
		Message: fmt.Sprintf("no %s.%s takes (%s)", cls.QualifiedName, methodName, strings.Join(parameterTypes, ", "))}
}

// overridden reports whether m (from a supertype) has the same erased
// signature as a method already found lower in the hierarchy.
func overridden(found []methodRef, m Method, s *snapshot) bool {
	for _, f := range found {
		if len(f.m.Params) != len(m.Params) {
			continue
		}
		same := true
		for i := range m.Params {
			if lastDot(f.m.Params[i].Type.Name) != lastDot(m.Params[i].Type.Name) || f.m.Params[i].Type.Dims != m.Params[i].Type.Dims {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

func sigOptions(name string, sigs []Signature) []string {
	out := make([]string, len(sigs))
	for i, sg := range sigs {
		out[i] = name + "(" + strings.Join(sg.ParameterTypes, ", ") + ")"
	}
	return out
}

func (s *snapshot) methodScope(mr methodRef) scope {
	sc := mr.sc
	if len(mr.m.TypeParams) > 0 {
		free := map[string]TypeRef{}
		for k, v := range sc.free {
			free[k] = v
		}
		subst := map[string]rtype{}
		for k, v := range sc.subst {
			subst[k] = v
		}
		for i, tp := range mr.m.TypeParams {
			var bound TypeRef
			if i < len(mr.m.TypeBounds) {
				bound = mr.m.TypeBounds[i]
			}
			free[tp] = bound
			delete(subst, tp)
		}
		sc = scope{ctx: sc.ctx, subst: subst, free: free}
	}
	return sc
}

func (s *snapshot) signature(mr methodRef) Signature {
	sc := s.methodScope(mr)
	sg := Signature{Line: mr.m.Line, ParameterTypes: []string{}, ParameterNames: []string{}}
	for i, p := range mr.m.Params {
		sg.ParameterTypes = append(sg.ParameterTypes, s.resolveRef(p.Type, sc).erased())
		sg.ParameterNames = append(sg.ParameterNames, paramName(p, i))
	}
	return sg
}

func paramName(p Param, i int) string {
	if p.Name == "" {
		return "arg" + strconv.Itoa(i)
	}
	return p.Name
}

// Template generates the argument template of a method (see
// [TemplateRequest]). Errors are *LookupError.
func (ix *Index) Template(req TemplateRequest) (*Template, error) {
	s := ix.current()
	mr, err := s.findMethod(req.ClassName, req.MethodName, req.ParameterTypes)
	if err != nil {
		return nil, err
	}
	if req.Expansion == "" {
		req.Expansion = ExpandAll
	}
	if req.Now.IsZero() {
		req.Now = time.Now()
	}
	g := &generator{s: s, mode: req.Expansion, now: req.Now, budget: maxTemplateFields}
	sc := s.methodScope(mr)
	t := &Template{ClassName: mr.owner.BinaryName, MethodName: mr.m.Name, Expansion: req.Expansion,
		ParameterNames: []string{}, ParameterTypes: []string{}, Parameters: []ParamTemplate{},
		File: s.rel[mr.owner.File], Line: mr.m.Line}
	if ts := s.types[strings.ReplaceAll(strings.TrimSpace(req.ClassName), "$", ".")]; len(ts) > 0 {
		t.ClassName = ts[0].BinaryName
	} else if ts := s.types[strings.TrimSpace(req.ClassName)]; len(ts) > 0 {
		t.ClassName = ts[0].BinaryName
	}
	args := jsonObject()
	for i, p := range mr.m.Params {
		r := s.resolveRef(p.Type, sc)
		name := paramName(p, i)
		pt := ParamTemplate{Name: name, Type: r.erased(), GenericType: r.generic(), ContentType: g.contentType(r)}
		if c := g.enumConstants(r); c != nil {
			pt.EnumConstants = c
		}
		arg := jsonObject()
		arg.set("type", jsonString(pt.ContentType))
		if pt.ContentType != "bean" {
			arg.set("content", g.value(r, 1))
		}
		args.set(name, arg)
		t.ParameterNames = append(t.ParameterNames, name)
		t.ParameterTypes = append(t.ParameterTypes, pt.Type)
		t.Parameters = append(t.Parameters, pt)
	}
	t.ArgsJSON = string(args.appendTo(nil))
	return t, nil
}

// generator builds placeholder values. It is used by one goroutine.
type generator struct {
	s      *snapshot
	mode   Expansion
	now    time.Time
	stack  []*TypeDecl // objects being expanded, for the cycle guard
	budget int         // fields left to expand
}

var (
	numberTypes  = setOf("java.lang.Integer", "java.lang.Long", "java.lang.Short", "java.lang.Byte", "java.lang.Double", "java.lang.Float", "java.math.BigDecimal", "java.math.BigInteger", "java.lang.Number", "java.util.concurrent.atomic.AtomicInteger", "java.util.concurrent.atomic.AtomicLong")
	simpleTypes  = setOf("java.lang.String", "java.lang.CharSequence", "java.lang.Character", "java.lang.Boolean", "java.util.UUID", "java.net.URI", "java.net.URL", "java.util.Locale", "java.util.Currency", "java.time.Instant", "java.time.ZonedDateTime", "java.time.OffsetDateTime", "java.time.Duration", "java.time.Period", "java.time.Year", "java.time.YearMonth", "java.time.ZoneId", "java.util.Calendar", "java.sql.Time")
	dateTimes    = setOf("java.time.LocalDateTime", "java.util.Date", "java.sql.Timestamp")
	dates        = setOf("java.time.LocalDate", "java.sql.Date")
	times        = setOf("java.time.LocalTime")
	collections  = setOf("java.util.List", "java.util.ArrayList", "java.util.LinkedList", "java.util.Set", "java.util.HashSet", "java.util.LinkedHashSet", "java.util.TreeSet", "java.util.SortedSet", "java.util.NavigableSet", "java.util.Collection", "java.lang.Iterable", "java.util.Queue", "java.util.Deque", "java.util.ArrayDeque", "java.util.PriorityQueue", "java.util.Vector", "java.util.Stack", "java.util.EnumSet", "java.util.concurrent.CopyOnWriteArrayList", "java.util.concurrent.BlockingQueue", "java.util.concurrent.LinkedBlockingQueue")
	maps         = setOf("java.util.Map", "java.util.HashMap", "java.util.LinkedHashMap", "java.util.TreeMap", "java.util.SortedMap", "java.util.NavigableMap", "java.util.Hashtable", "java.util.EnumMap", "java.util.concurrent.ConcurrentMap", "java.util.concurrent.ConcurrentHashMap", "java.util.Properties")
	fileTypes    = setOf("java.io.File", "java.nio.file.Path", "org.springframework.web.multipart.MultipartFile", "java.io.InputStream")
	requestTypes = setOf("javax.servlet.http.HttpServletRequest", "jakarta.servlet.http.HttpServletRequest", "javax.servlet.ServletRequest", "jakarta.servlet.ServletRequest", "org.springframework.http.server.reactive.ServerHttpRequest", "org.springframework.web.server.ServerWebExchange")
	responseType = setOf("javax.servlet.http.HttpServletResponse", "jakarta.servlet.http.HttpServletResponse", "javax.servlet.ServletResponse", "jakarta.servlet.ServletResponse", "org.springframework.http.server.reactive.ServerHttpResponse")
	beanMarks    = setOf("Service", "Component", "Controller", "RestController", "Repository", "Configuration")
	jdkEnums     = map[string][]string{
		"java.util.concurrent.TimeUnit": {"NANOSECONDS", "MICROSECONDS", "MILLISECONDS", "SECONDS", "MINUTES", "HOURS", "DAYS"},
		"java.time.DayOfWeek":           {"MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"},
		"java.time.Month":               {"JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY", "AUGUST", "SEPTEMBER", "OCTOBER", "NOVEMBER", "DECEMBER"},
		"java.math.RoundingMode":        {"UP", "DOWN", "CEILING", "FLOOR", "HALF_UP", "HALF_DOWN", "HALF_EVEN", "UNNECESSARY"},
	}
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func (g *generator) isEnum(r rtype) bool {
	if r.dims > 0 {
		return false
	}
	if r.decl != nil {
		return r.decl.Kind == KindEnum
	}
	_, ok := jdkEnums[r.name]
	return ok
}

func (g *generator) enumConstants(r rtype) []string {
	if collections[r.name] && r.dims == 0 {
		r = r.arg(0)
	}
	if !g.isEnum(r) {
		return nil
	}
	if r.decl != nil {
		return append([]string{}, r.decl.EnumConstants...)
	}
	return append([]string{}, jdkEnums[r.name]...)
}

func (g *generator) isFunctional(r rtype) bool {
	if r.decl != nil {
		if r.decl.Kind != KindInterface {
			return false
		}
		for _, a := range r.decl.Annotations {
			if a.SimpleName() == "FunctionalInterface" {
				return true
			}
		}
		return false
	}
	return strings.HasPrefix(r.name, "java.util.function.") || r.name == "java.lang.Runnable" ||
		r.name == "java.util.concurrent.Callable" || r.name == "java.util.Comparator"
}

func isSimple(r rtype) bool {
	if r.dims > 0 {
		return false
	}
	return primitives[r.name] || numberTypes[r.name] || simpleTypes[r.name] || dateTimes[r.name] || dates[r.name] || times[r.name]
}

// contentType is the RunContentDTO type of an argument of type r.
func (g *generator) contentType(r rtype) string {
	switch {
	case r.dims > 0 && r.elem().name == "org.springframework.web.multipart.MultipartFile":
		return "file"
	case r.dims > 0:
		return "json_entity"
	case isSimple(r):
		return "simple"
	case g.isEnum(r):
		return "enum"
	case r.name == "java.lang.Class":
		return "class"
	case fileTypes[r.name]:
		return "file"
	case requestTypes[r.name]:
		return "request"
	case responseType[r.name]:
		return "response"
	case g.isFunctional(r):
		return "lambda"
	case r.decl != nil && hasAnnotation(r.decl, beanMarks):
		return "bean"
	}
	return "json_entity"
}

func hasAnnotation(t *TypeDecl, names map[string]bool) bool {
	for _, a := range t.Annotations {
		if names[a.SimpleName()] {
			return true
		}
	}
	return false
}

// value is the placeholder for a value of type r at nesting depth.
func (g *generator) value(r rtype, depth int) *jsonNode {
	if r.dims > 0 {
		arr := jsonArray()
		if depth < maxTemplateDepth && r.elem().name != "org.springframework.web.multipart.MultipartFile" {
			arr.add(g.value(r.elem(), depth+1))
		}
		return arr
	}
	switch r.name {
	case "int", "long", "short", "byte":
		return jsonRaw("0")
	case "float", "double":
		return jsonRaw("0.0")
	case "boolean":
		return jsonRaw("false")
	case "char":
		return jsonString("a") // a primitive char cannot be empty
	case "java.util.Optional":
		return g.value(r.arg(0), depth)
	}
	switch {
	case dateTimes[r.name]:
		return jsonString(g.now.Format("2006-01-02 15:04:05"))
	case dates[r.name]:
		return jsonString(g.now.Format("2006-01-02"))
	case times[r.name]:
		return jsonString(g.now.Format("15:04:05"))
	case isSimple(r), r.name == "java.lang.Class", fileTypes[r.name] && r.name != "org.springframework.web.multipart.MultipartFile":
		return jsonString("")
	case g.isEnum(r):
		if c := g.enumConstants(r); len(c) > 0 {
			return jsonString(c[0])
		}
		return jsonString("")
	case collections[r.name]:
		arr := jsonArray()
		if depth < maxTemplateDepth {
			arr.add(g.value(r.arg(0), depth+1))
		}
		return arr
	case maps[r.name]:
		obj := jsonObject()
		if depth < maxTemplateDepth {
			obj.set(g.keyText(r.arg(0)), g.value(r.arg(1), depth+1))
		}
		return obj
	case requestTypes[r.name], responseType[r.name], g.isFunctional(r), r.name == "org.springframework.web.multipart.MultipartFile":
		return jsonRaw("null")
	}
	if r.decl == nil {
		return jsonObject() // a library type we cannot see, or a type variable
	}
	switch r.decl.Kind {
	case KindInterface, KindAnnotation:
		return jsonRaw("null")
	}
	return g.object(r, depth)
}

// keyText is a map key placeholder for a key of type r.
func (g *generator) keyText(r rtype) string {
	v := g.value(r, maxTemplateDepth)
	switch v.kind {
	case kindString:
		return v.text
	case kindRaw:
		if v.text == "null" {
			return ""
		}
		return v.text
	}
	return ""
}

// object expands a project class (or record) into its fields.
func (g *generator) object(r rtype, depth int) *jsonNode {
	obj := jsonObject()
	if g.mode == ExpandSimple || depth >= maxTemplateDepth || g.budget <= 0 {
		return obj
	}
	for _, d := range g.stack {
		if d == r.decl {
			return obj // a cycle: stop here
		}
	}
	g.stack = append(g.stack, r.decl)
	defer func() { g.stack = g.stack[:len(g.stack)-1] }()
	for _, f := range g.fields(r) {
		if g.budget--; g.budget < 0 {
			break
		}
		obj.set(f.name, g.value(f.typ, depth+1))
	}
	return obj
}

type fieldType struct {
	name string
	typ  rtype
}

// fields lists the instance fields of r: declared ones for CURRENT, and
// inherited ones first for ALL. A field redeclared lower down keeps its
// position and takes the lower type.
func (g *generator) fields(r rtype) []fieldType {
	var chain []rtype
	cur := r
	for i := 0; cur.decl != nil && i < 16; i++ {
		chain = append([]rtype{cur}, chain...)
		if g.mode != ExpandAll || cur.decl.Kind != KindClass || len(cur.decl.Extends) == 0 {
			break
		}
		next := g.s.resolveRef(cur.decl.Extends[0], g.s.typeScope(cur.decl, cur.args))
		if next.decl == nil || next.decl == cur.decl {
			break
		}
		cur = next
	}
	var out []fieldType
	index := map[string]int{}
	for _, c := range chain {
		sc := g.s.typeScope(c.decl, c.args)
		for _, f := range c.decl.Fields {
			if f.Static() || ignored(f) {
				continue
			}
			name := jsonName(f)
			ft := fieldType{name: name, typ: g.s.resolveRef(f.Type, sc)}
			if i, ok := index[name]; ok {
				out[i] = ft
				continue
			}
			index[name] = len(out)
			out = append(out, ft)
		}
	}
	return out
}

func ignored(f Field) bool {
	for _, a := range f.Annotations {
		if a.SimpleName() == "JsonIgnore" {
			return true
		}
	}
	return false
}

// jsonName is the field's JSON property name (@JsonProperty or
// @JSONField(name=...) when present).
func jsonName(f Field) string {
	for _, a := range f.Annotations {
		key := ""
		switch a.SimpleName() {
		case "JsonProperty":
			key = "value"
		case "JSONField":
			key = "name"
		}
		if key == "" {
			continue
		}
		if v, ok := a.Get(key); ok && v.Kind == ValueString && v.Text != "" {
			return v.Text
		}
	}
	return f.Name
}
