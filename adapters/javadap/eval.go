package javadap

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dbg-dev/dbg/dap"
)

// evalEnv is the stopped frame an expression is evaluated in.
type evalEnv struct {
	s      *Server
	thread uint64
	depth  int
	loc    Location
}

// evalVal is an evaluation result: a value, or a class for static access.
type evalVal struct {
	v       Value
	class   uint64
	isClass bool
	name    string
}

func (s *Server) evaluate(ctx context.Context, req *dap.Message) (any, error) {
	var a struct {
		Expression string `json:"expression"`
		FrameID    int    `json:"frameId"`
		Context    string `json:"context"`
	}
	if err := dap.DecodeArgs(req, &a); err != nil {
		return nil, err
	}
	env, err := s.envFor(ctx, a.FrameID)
	if err != nil {
		return nil, err
	}
	r, err := env.evalString(ctx, a.Expression)
	if err != nil {
		return nil, err
	}
	if r.isClass {
		return map[string]any{"result": "class " + r.name, "type": "Class", "variablesReference": 0}, nil
	}
	if r.v.IsObject() {
		s.pin(ctx, r.v.Object)
	}
	d := s.describe(ctx, env.thread, r.v, a.Expression)
	out := map[string]any{"result": d.value, "type": d.typ, "variablesReference": d.ref}
	if d.indexed > 0 {
		out["indexedVariables"] = d.indexed
	}
	if d.named > 0 {
		out["namedVariables"] = d.named
	}
	return out, nil
}

// envFor returns the frame a request names, or the top frame of the
// stopped thread when frameId is 0.
func (s *Server) envFor(ctx context.Context, frameID int) (*evalEnv, error) {
	if s.vm == nil || !s.stopped {
		return nil, errNotStopped
	}
	if frameID != 0 {
		f, ok := s.refs.frame(frameID)
		if !ok {
			return nil, fmt.Errorf("unknown frameId %d (frames are invalid once the program resumes)", frameID)
		}
		return &evalEnv{s: s, thread: f.thread, depth: f.depth, loc: f.loc}, nil
	}
	return s.topEnv(ctx, s.stopThread)
}

func (s *Server) topEnv(ctx context.Context, thread uint64) (*evalEnv, error) {
	fs, err := s.vm.Frames(ctx, thread, 0, 1)
	if err != nil {
		return nil, err
	}
	if len(fs) == 0 {
		return nil, errors.New("the thread has no frames")
	}
	return &evalEnv{s: s, thread: thread, depth: 0, loc: fs[0].Location}, nil
}

// evalAt evaluates an expression in a thread's top frame (conditions and
// log messages).
func (s *Server) evalAt(ctx context.Context, thread uint64, src string) (Value, error) {
	env, err := s.topEnv(ctx, thread)
	if err != nil {
		return Value{}, err
	}
	r, err := env.evalString(ctx, src)
	if err != nil {
		return Value{}, err
	}
	if r.isClass {
		return Value{}, fmt.Errorf("%s is a class, not a value", r.name)
	}
	return r.v, nil
}

func (env *evalEnv) evalString(ctx context.Context, src string) (evalVal, error) {
	e, err := parseExpr(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(src), ";")))
	if err != nil {
		return evalVal{}, fmt.Errorf("cannot parse %q: %w", src, err)
	}
	return env.eval(ctx, e)
}

func val(v Value) evalVal { return evalVal{v: v} }

func (env *evalEnv) value(ctx context.Context, e expr) (Value, error) {
	r, err := env.eval(ctx, e)
	if err != nil {
		return Value{}, err
	}
	if r.isClass {
		return Value{}, fmt.Errorf("%s is a class, not a value", r.name)
	}
	return r.v, nil
}

func (env *evalEnv) eval(ctx context.Context, e expr) (evalVal, error) {
	s := env.s
	switch e := e.(type) {
	case *litExpr:
		if e.isS {
			id, err := s.vm.CreateString(ctx, e.str)
			if err != nil {
				return evalVal{}, err
			}
			return val(Value{Tag: TagString, Object: id}), nil
		}
		return val(e.v), nil
	case *nameExpr:
		return env.lookup(ctx, e.name)
	case *fieldExpr:
		x, err := env.eval(ctx, e.x)
		if err != nil {
			if q := dottedName(e); q != "" {
				if c, name, ok := env.findClass(ctx, q); ok {
					return evalVal{class: c, isClass: true, name: name}, nil
				}
			}
			return evalVal{}, err
		}
		return env.field(ctx, x, e.name)
	case *indexExpr:
		x, err := env.value(ctx, e.x)
		if err != nil {
			return evalVal{}, err
		}
		i, err := env.value(ctx, e.i)
		if err != nil {
			return evalVal{}, err
		}
		if !x.IsObject() || x.Object == 0 {
			return evalVal{}, fmt.Errorf("%s is not an array", e.x)
		}
		if p, ok := s.unbox(ctx, i); ok {
			i = p
		}
		if !isIntegral(i.Tag) {
			return evalVal{}, fmt.Errorf("array index %s is not an integer", e.i)
		}
		n, err := s.vm.ArrayLength(ctx, x.Object)
		if err != nil {
			return evalVal{}, fmt.Errorf("%s is not an array: %w", e.x, err)
		}
		if i.Long < 0 || i.Long >= int64(n) {
			return evalVal{}, fmt.Errorf("index %d out of bounds for length %d", i.Long, n)
		}
		vs, err := s.vm.ArrayValues(ctx, x.Object, int(i.Long), 1)
		if err != nil || len(vs) != 1 {
			return evalVal{}, fmt.Errorf("read %s: %v", e, err)
		}
		return val(vs[0]), nil
	case *callExpr:
		return env.call(ctx, e)
	case *unaryExpr:
		x, err := env.value(ctx, e.x)
		if err != nil {
			return evalVal{}, err
		}
		if p, ok := s.unbox(ctx, x); ok {
			x = p
		}
		switch e.op {
		case "!":
			if x.Tag != TagBoolean {
				return evalVal{}, fmt.Errorf("! needs a boolean, got %s", typeNameOfTag(x.Tag))
			}
			return val(Value{Tag: TagBoolean, Long: 1 - x.Long}), nil
		case "-":
			k := numKind(x.Tag)
			switch k {
			case TagInt:
				return val(Value{Tag: TagInt, Long: int64(-int32(x.Long))}), nil
			case TagLong:
				return val(Value{Tag: TagLong, Long: -x.Long}), nil
			case TagFloat, TagDouble:
				return val(Value{Tag: k, Double: -x.Double}), nil
			}
			return evalVal{}, fmt.Errorf("- needs a number")
		}
	case *binaryExpr:
		return env.binary(ctx, e)
	case *condExpr:
		c, err := env.value(ctx, e.c)
		if err != nil {
			return evalVal{}, err
		}
		if p, ok := s.unbox(ctx, c); ok {
			c = p
		}
		if c.Tag != TagBoolean {
			return evalVal{}, fmt.Errorf("the condition of ?: must be boolean")
		}
		if c.Long != 0 {
			return env.eval(ctx, e.x)
		}
		return env.eval(ctx, e.y)
	case *castExpr:
		x, err := env.value(ctx, e.x)
		if err != nil {
			return evalVal{}, err
		}
		return env.cast(ctx, x, e.typ)
	}
	return evalVal{}, fmt.Errorf("cannot evaluate %s", e)
}

// dottedName returns "a.b.c" for a chain of names, "" otherwise.
func dottedName(e expr) string {
	switch e := e.(type) {
	case *nameExpr:
		return e.name
	case *fieldExpr:
		if x := dottedName(e.x); x != "" {
			return x + "." + e.name
		}
	}
	return ""
}

// lookup resolves a name: a local, this, a field of this, a static field
// of the frame's class, or a class.
func (env *evalEnv) lookup(ctx context.Context, name string) (evalVal, error) {
	s := env.s
	this, _ := s.thisAt(ctx, env.thread, env.depth)
	if name == "this" {
		if this.Object == 0 {
			return evalVal{}, errors.New("no this in a static method")
		}
		return val(this), nil
	}
	ls, err := s.frameLocals(ctx, env.thread, env.depth, env.loc)
	if err != nil {
		return evalVal{}, err
	}
	for _, l := range ls {
		if l.Name == name {
			return val(l.value), nil
		}
	}
	// Fields of this, then of the enclosing instances of inner classes.
	// Locals captured by anonymous and local classes live in synthetic
	// val$NAME fields.
	for obj, depth := this, 0; obj.Object != 0 && depth < 4; depth++ {
		if r, err := env.field(ctx, val(obj), name); err == nil {
			return r, nil
		}
		if r, err := env.field(ctx, val(obj), "val$"+name); err == nil {
			return r, nil
		}
		outer, err := env.field(ctx, val(obj), "this$0")
		if err != nil || outer.v.Object == 0 {
			break
		}
		obj = outer.v
	}
	if r, err := env.field(ctx, evalVal{class: env.loc.Class, isClass: true}, name); err == nil {
		return r, nil
	}
	if c, cname, ok := env.findClass(ctx, name); ok {
		return evalVal{class: c, isClass: true, name: cname}, nil
	}
	return evalVal{}, fmt.Errorf("%s is not a local variable, field or loaded class here", name)
}

// findClass finds a loaded class by a qualified or simple name (simple
// names are tried in java.lang and in the frame's package).
func (env *evalEnv) findClass(ctx context.Context, name string) (uint64, string, bool) {
	s := env.s
	cands := []string{name}
	if !strings.Contains(name, ".") {
		cands = append(cands, "java.lang."+name, "java.util."+name)
		if sig, err := s.classes.signature(ctx, env.loc.Class); err == nil {
			if pkg := packageDir(sig); pkg != "" {
				cands = append(cands, strings.ReplaceAll(pkg, "/", ".")+"."+name)
			}
			cands = append(cands, javaTypeName(sig)+"$"+name)
		}
	}
	for _, c := range cands {
		cs, err := s.vm.ClassesBySignature(ctx, signatureOfClassName(c))
		if err == nil && len(cs) > 0 {
			s.classes.setSignature(cs[0].ID, cs[0].Signature)
			return cs[0].ID, c, true
		}
	}
	return 0, "", false
}

// field reads x.name: an instance or static field, or an array's length.
func (env *evalEnv) field(ctx context.Context, x evalVal, name string) (evalVal, error) {
	s := env.s
	if x.isClass {
		for _, c := range s.classes.classChain(ctx, x.class) {
			fs, err := s.classes.fieldsOf(ctx, c)
			if err != nil {
				continue
			}
			for _, f := range fs {
				if f.Name == name && f.IsStatic() {
					vs, err := s.vm.StaticValues(ctx, c, []uint64{f.ID})
					if err != nil || len(vs) != 1 {
						return evalVal{}, fmt.Errorf("read %s: %v", name, err)
					}
					return val(vs[0]), nil
				}
			}
		}
		return evalVal{}, fmt.Errorf("class %s has no static field %s", x.name, name)
	}
	v := x.v
	if !v.IsObject() {
		return evalVal{}, fmt.Errorf("cannot read .%s of a %s", name, typeNameOfTag(v.Tag))
	}
	if v.Object == 0 {
		return evalVal{}, fmt.Errorf("cannot read .%s of null", name)
	}
	_, rt, err := s.vm.ObjectType(ctx, v.Object)
	if err != nil {
		return evalVal{}, err
	}
	sig, _ := s.classes.signature(ctx, rt)
	if strings.HasPrefix(sig, "[") && name == "length" {
		n, err := s.vm.ArrayLength(ctx, v.Object)
		if err != nil {
			return evalVal{}, err
		}
		return val(Value{Tag: TagInt, Long: int64(n)}), nil
	}
	for _, c := range s.classes.classChain(ctx, rt) {
		fs, err := s.classes.fieldsOf(ctx, c)
		if err != nil {
			continue
		}
		for _, f := range fs {
			if f.Name != name {
				continue
			}
			var vs []Value
			if f.IsStatic() {
				vs, err = s.vm.StaticValues(ctx, c, []uint64{f.ID})
			} else {
				vs, err = s.vm.FieldValues(ctx, v.Object, []uint64{f.ID})
			}
			if err != nil || len(vs) != 1 {
				return evalVal{}, fmt.Errorf("read %s: %v", name, err)
			}
			return val(vs[0]), nil
		}
	}
	return evalVal{}, fmt.Errorf("%s has no field %s", javaTypeName(sig), name)
}

// call invokes a method on the stopped thread.
func (env *evalEnv) call(ctx context.Context, e *callExpr) (evalVal, error) {
	s := env.s
	var target evalVal
	if e.x == nil {
		this, _ := s.thisAt(ctx, env.thread, env.depth)
		if this.Object != 0 {
			target = val(this)
		} else {
			target = evalVal{class: env.loc.Class, isClass: true}
		}
	} else {
		t, err := env.eval(ctx, e.x)
		if err != nil {
			if q := dottedName(e.x); q != "" {
				if c, name, ok := env.findClass(ctx, q); ok {
					t, err = evalVal{class: c, isClass: true, name: name}, nil
				}
			}
			if err != nil {
				return evalVal{}, err
			}
		}
		target = t
	}
	args := make([]Value, len(e.args))
	for i, a := range e.args {
		v, err := env.value(ctx, a)
		if err != nil {
			return evalVal{}, err
		}
		args[i] = v
	}
	var rt uint64
	if target.isClass {
		rt = target.class
	} else {
		if !target.v.IsObject() {
			return evalVal{}, fmt.Errorf("cannot call %s() on a %s", e.name, typeNameOfTag(target.v.Tag))
		}
		if target.v.Object == 0 {
			return evalVal{}, fmt.Errorf("cannot call %s() on null (%s is null)", e.name, e.x)
		}
		var err error
		if _, rt, err = s.vm.ObjectType(ctx, target.v.Object); err != nil {
			return evalVal{}, err
		}
	}
	class, m, err := s.pickOverload(ctx, rt, e.name, args, target.isClass)
	if err != nil {
		return evalVal{}, err
	}
	ret, err := s.invokeMethod(ctx, env.thread, target.v, class, m, args)
	if err != nil {
		return evalVal{}, err
	}
	return val(ret), nil
}

// pickOverload chooses the method whose parameters fit the arguments best.
func (s *Server) pickOverload(ctx context.Context, rt uint64, name string, args []Value, static bool) (uint64, MethodInfo, error) {
	var cands []uint64
	cands = append(cands, s.classes.classChain(ctx, rt)...)
	for _, c := range append([]uint64{}, cands...) {
		if ifs, err := s.vm.Interfaces(ctx, c); err == nil {
			cands = append(cands, ifs...)
		}
	}
	best, bestScore := MethodInfo{}, -1
	var bestClass uint64
	found := false
	for _, c := range cands {
		ms, err := s.classes.methodsOf(ctx, c)
		if err != nil {
			continue
		}
		for _, m := range ms {
			if m.Name != name {
				continue
			}
			found = true
			if static && !m.IsStatic() {
				continue
			}
			ps := paramSigs(m.Signature)
			if len(ps) != len(args) {
				continue
			}
			score := 1
			for i, p := range ps {
				sc := fit(args[i], p)
				if sc == 0 {
					score = 0
					break
				}
				score += sc
			}
			if score > bestScore && score > 0 {
				best, bestScore, bestClass = m, score, c
			}
		}
	}
	if bestScore <= 0 {
		sig, _ := s.classes.signature(ctx, rt)
		if found {
			return 0, MethodInfo{}, fmt.Errorf("no overload of %s.%s fits %d argument(s) of these types", javaTypeName(sig), name, len(args))
		}
		return 0, MethodInfo{}, fmt.Errorf("%s has no method %s", javaTypeName(sig), name)
	}
	return bestClass, best, nil
}

// fit scores how well a value fits a parameter: 0 not at all, 3 exactly.
func fit(v Value, param string) int {
	pt := tagOfSignature(param)
	switch {
	case v.IsPrimitive() && isPrimitiveTag(pt):
		if v.Tag == pt {
			return 3
		}
		if v.Tag == TagBoolean || pt == TagBoolean {
			return 0
		}
		if widens(v.Tag, pt) {
			return 2
		}
		return 0
	case v.IsPrimitive():
		return 1 // boxing
	case isPrimitiveTag(pt):
		return 1 // unboxing (checked when converting)
	case v.Tag == TagString && param == "Ljava/lang/String;":
		return 3
	}
	return 2
}

// widens reports whether Java widens primitive tag from to to.
func widens(from, to byte) bool {
	rank := map[byte]int{TagByte: 1, TagShort: 2, TagChar: 2, TagInt: 3, TagLong: 4, TagFloat: 5, TagDouble: 6}
	return rank[from] > 0 && rank[to] > rank[from] && !(from == TagChar && to == TagShort)
}

// convertArgs coerces arguments to a method's parameter types.
func (s *Server) convertArgs(ctx context.Context, thread uint64, m MethodInfo, args []Value) ([]Value, error) {
	ps := paramSigs(m.Signature)
	if len(ps) != len(args) {
		return nil, fmt.Errorf("%s takes %d argument(s), got %d", m.Name, len(ps), len(args))
	}
	out := make([]Value, len(args))
	for i, a := range args {
		v, err := s.coerce(ctx, thread, a, ps[i])
		if err != nil {
			return nil, fmt.Errorf("argument %d of %s: %w", i+1, m.Name, err)
		}
		out[i] = v
	}
	return out, nil
}

// coerce converts v to a value of JNI type sig, widening, narrowing
// literals, boxing and unboxing as Java assignment would.
func (s *Server) coerce(ctx context.Context, thread uint64, v Value, sig string) (Value, error) {
	pt := tagOfSignature(sig)
	if isPrimitiveTag(pt) {
		if !v.IsPrimitive() {
			p, ok := s.unbox(ctx, v)
			if !ok {
				return Value{}, fmt.Errorf("cannot assign an object to a %s", typeNameOfTag(pt))
			}
			v = p
		}
		if pt == TagBoolean || v.Tag == TagBoolean {
			if pt != v.Tag {
				return Value{}, fmt.Errorf("cannot assign %s to %s", typeNameOfTag(v.Tag), typeNameOfTag(pt))
			}
			return v, nil
		}
		return convertPrimitive(v, pt)
	}
	if v.IsPrimitive() {
		if sig == "Ljava/lang/String;" {
			return Value{}, fmt.Errorf("cannot assign %s to String (quote it: \"...\")", typeNameOfTag(v.Tag))
		}
		return s.box(ctx, thread, v, sig)
	}
	if v.Tag == TagVoid {
		return Value{}, errors.New("void has no value")
	}
	return v, nil
}

func convertPrimitive(v Value, to byte) (Value, error) {
	var n int64
	var f float64
	isFloat := v.Tag == TagFloat || v.Tag == TagDouble
	if isFloat {
		f = v.Double
		n = int64(f)
	} else {
		n = v.Long
		f = float64(n)
	}
	out := Value{Tag: to}
	switch to {
	case TagFloat, TagDouble:
		out.Double = f
		if to == TagFloat {
			out.Double = float64(float32(f))
		}
	case TagLong:
		if isFloat {
			return Value{}, fmt.Errorf("cannot assign %s to long without a cast", typeNameOfTag(v.Tag))
		}
		out.Long = n
	default:
		if isFloat {
			return Value{}, fmt.Errorf("cannot assign %s to %s without a cast", typeNameOfTag(v.Tag), typeNameOfTag(to))
		}
		lo, hi := int64(math.MinInt32), int64(math.MaxInt32)
		switch to {
		case TagByte:
			lo, hi = math.MinInt8, math.MaxInt8
		case TagShort:
			lo, hi = math.MinInt16, math.MaxInt16
		case TagChar:
			lo, hi = 0, math.MaxUint16
		}
		if n < lo || n > hi {
			return Value{}, fmt.Errorf("%d does not fit in a %s", n, typeNameOfTag(to))
		}
		out.Long = n
	}
	return out, nil
}

var boxClass = map[byte]string{TagInt: "Ljava/lang/Integer;", TagLong: "Ljava/lang/Long;", TagShort: "Ljava/lang/Short;",
	TagByte: "Ljava/lang/Byte;", TagChar: "Ljava/lang/Character;", TagBoolean: "Ljava/lang/Boolean;",
	TagFloat: "Ljava/lang/Float;", TagDouble: "Ljava/lang/Double;"}

// box turns a primitive into its wrapper with valueOf.
func (s *Server) box(ctx context.Context, thread uint64, v Value, target string) (Value, error) {
	wrapper := boxClass[v.Tag]
	if boxedTypes[target] && target != wrapper {
		for t, w := range boxClass {
			if w == target {
				cv, err := convertPrimitive(v, t)
				if err != nil {
					return Value{}, err
				}
				v, wrapper = cv, w
			}
		}
	}
	cs, err := s.vm.ClassesBySignature(ctx, wrapper)
	if err != nil || len(cs) == 0 {
		return Value{}, fmt.Errorf("cannot box %s: %s not loaded", typeNameOfTag(v.Tag), javaTypeName(wrapper))
	}
	sig := "(" + string(v.Tag) + ")" + wrapper
	_, m, ok := s.findMethod(ctx, cs[0].ID, "valueOf", sig, 1)
	if !ok {
		return Value{}, fmt.Errorf("cannot box %s", typeNameOfTag(v.Tag))
	}
	ret, exc, err := s.vm.InvokeStatic(ctx, cs[0].ID, thread, m.ID, []Value{v})
	if err != nil {
		return Value{}, err
	}
	if exc != 0 {
		return Value{}, errors.New("boxing threw an exception")
	}
	return ret, nil
}

func isIntegral(t byte) bool {
	return t == TagInt || t == TagLong || t == TagShort || t == TagByte || t == TagChar
}

// numKind is the binary numeric promotion type of one operand (0 if not
// a number).
func numKind(t byte) byte {
	switch t {
	case TagByte, TagShort, TagChar, TagInt:
		return TagInt
	case TagLong, TagFloat, TagDouble:
		return t
	}
	return 0
}

func (env *evalEnv) binary(ctx context.Context, e *binaryExpr) (evalVal, error) {
	s := env.s
	x, err := env.value(ctx, e.x)
	if err != nil {
		return evalVal{}, err
	}
	if e.op == "&&" || e.op == "||" {
		if p, ok := s.unbox(ctx, x); ok {
			x = p
		}
		if x.Tag != TagBoolean {
			return evalVal{}, fmt.Errorf("%s needs booleans", e.op)
		}
		if (e.op == "&&") == (x.Long == 0) {
			return val(x), nil
		}
		y, err := env.value(ctx, e.y)
		if err != nil {
			return evalVal{}, err
		}
		if p, ok := s.unbox(ctx, y); ok {
			y = p
		}
		if y.Tag != TagBoolean {
			return evalVal{}, fmt.Errorf("%s needs booleans", e.op)
		}
		return val(y), nil
	}
	y, err := env.value(ctx, e.y)
	if err != nil {
		return evalVal{}, err
	}
	xs, ys := s.isString(ctx, x), s.isString(ctx, y)
	if e.op == "+" && (xs || ys) {
		str := s.javaString(ctx, env.thread, x) + s.javaString(ctx, env.thread, y)
		id, err := s.vm.CreateString(ctx, str)
		if err != nil {
			return evalVal{}, err
		}
		return val(Value{Tag: TagString, Object: id}), nil
	}
	if (e.op == "==" || e.op == "!=") && xs && ys {
		a, _ := s.vm.StringValue(ctx, x.Object)
		b, _ := s.vm.StringValue(ctx, y.Object)
		return boolVal((a == b) == (e.op == "==")), nil
	}
	if px, ok := s.unbox(ctx, x); ok && (y.IsPrimitive() || e.op != "==" && e.op != "!=") {
		x = px
	}
	if py, ok := s.unbox(ctx, y); ok && (x.IsPrimitive() || e.op != "==" && e.op != "!=") {
		y = py
	}
	if (e.op == "==" || e.op == "!=") && x.IsObject() && y.IsObject() {
		return boolVal((x.Object == y.Object) == (e.op == "==")), nil
	}
	if (e.op == "==" || e.op == "!=") && x.Tag == TagBoolean && y.Tag == TagBoolean {
		return boolVal((x.Long == y.Long) == (e.op == "==")), nil
	}
	kx, ky := numKind(x.Tag), numKind(y.Tag)
	if kx == 0 || ky == 0 {
		return evalVal{}, fmt.Errorf("operator %s needs numbers, got %s and %s", e.op, s.typeOf(ctx, x), s.typeOf(ctx, y))
	}
	k := TagInt
	switch {
	case kx == TagDouble || ky == TagDouble:
		k = TagDouble
	case kx == TagFloat || ky == TagFloat:
		k = TagFloat
	case kx == TagLong || ky == TagLong:
		k = TagLong
	}
	if k == TagDouble || k == TagFloat {
		a, b := asFloat(x), asFloat(y)
		var r float64
		switch e.op {
		case "+":
			r = a + b
		case "-":
			r = a - b
		case "*":
			r = a * b
		case "/":
			r = a / b
		case "%":
			r = math.Mod(a, b)
		case "<":
			return boolVal(a < b), nil
		case "<=":
			return boolVal(a <= b), nil
		case ">":
			return boolVal(a > b), nil
		case ">=":
			return boolVal(a >= b), nil
		case "==":
			return boolVal(a == b), nil
		case "!=":
			return boolVal(a != b), nil
		}
		if k == TagFloat {
			r = float64(float32(r))
		}
		return val(Value{Tag: k, Double: r}), nil
	}
	a, b := x.Long, y.Long
	var r int64
	switch e.op {
	case "+":
		r = a + b
	case "-":
		r = a - b
	case "*":
		r = a * b
	case "/", "%":
		if b == 0 {
			return evalVal{}, errors.New("java.lang.ArithmeticException: / by zero")
		}
		if e.op == "/" {
			r = a / b
		} else {
			r = a % b
		}
	case "<":
		return boolVal(a < b), nil
	case "<=":
		return boolVal(a <= b), nil
	case ">":
		return boolVal(a > b), nil
	case ">=":
		return boolVal(a >= b), nil
	case "==":
		return boolVal(a == b), nil
	case "!=":
		return boolVal(a != b), nil
	}
	if k == TagInt {
		r = int64(int32(r))
	}
	return val(Value{Tag: k, Long: r}), nil
}

func boolVal(b bool) evalVal {
	if b {
		return val(Value{Tag: TagBoolean, Long: 1})
	}
	return val(Value{Tag: TagBoolean})
}

func asFloat(v Value) float64 {
	if v.Tag == TagFloat || v.Tag == TagDouble {
		return v.Double
	}
	return float64(v.Long)
}

func (s *Server) typeOf(ctx context.Context, v Value) string {
	if v.IsPrimitive() {
		return typeNameOfTag(v.Tag)
	}
	if v.Object == 0 {
		return "null"
	}
	if _, rt, err := s.vm.ObjectType(ctx, v.Object); err == nil {
		sig, _ := s.classes.signature(ctx, rt)
		return javaTypeName(sig)
	}
	return "Object"
}

func (s *Server) isString(ctx context.Context, v Value) bool {
	if v.Tag == TagString {
		return true
	}
	if v.Tag != TagObject || v.Object == 0 {
		return false
	}
	_, rt, err := s.vm.ObjectType(ctx, v.Object)
	if err != nil {
		return false
	}
	sig, _ := s.classes.signature(ctx, rt)
	return sig == "Ljava/lang/String;"
}

// javaString converts a value as String.valueOf would.
func (s *Server) javaString(ctx context.Context, thread uint64, v Value) string {
	switch {
	case v.Tag == TagChar:
		return string(rune(v.Long))
	case v.IsPrimitive():
		return primitiveString(v)
	case v.Object == 0:
		return "null"
	case s.isString(ctx, v):
		str, err := s.vm.StringValue(ctx, v.Object)
		if err != nil {
			return "<" + err.Error() + ">"
		}
		return str
	}
	r, err := s.invoke(ctx, thread, v, "toString", nil, "()Ljava/lang/String;")
	if err != nil || r.Object == 0 {
		return s.shortValue(ctx, thread, v)
	}
	str, err := s.vm.StringValue(ctx, r.Object)
	if err != nil {
		return s.shortValue(ctx, thread, v)
	}
	return str
}

func (s *Server) setVariable(ctx context.Context, req *dap.Message) (any, error) {
	var a struct {
		VariablesReference int    `json:"variablesReference"`
		Name               string `json:"name"`
		Value              string `json:"value"`
	}
	if err := dap.DecodeArgs(req, &a); err != nil {
		return nil, err
	}
	r := s.refs.get(a.VariablesReference)
	if r == nil {
		return nil, fmt.Errorf("unknown variablesReference %d", a.VariablesReference)
	}
	var env *evalEnv
	var err error
	if r.kind == refLocals {
		env = &evalEnv{s: s, thread: r.thread, depth: r.depth, loc: r.loc}
	} else if env, err = s.topEnv(ctx, r.thread); err != nil {
		return nil, err
	}
	nv, err := env.evalString(ctx, a.Value)
	if err != nil {
		return nil, err
	}
	if nv.isClass {
		return nil, fmt.Errorf("%s is a class, not a value", nv.name)
	}
	var written Value
	switch r.kind {
	case refLocals:
		ls, err := s.frameLocals(ctx, r.thread, r.depth, r.loc)
		if err != nil {
			return nil, err
		}
		found := false
		for _, l := range ls {
			if l.Name != a.Name {
				continue
			}
			found = true
			if written, err = s.coerce(ctx, r.thread, nv.v, l.Signature); err != nil {
				return nil, err
			}
			fid, err := s.frameID(ctx, r.thread, r.depth)
			if err != nil {
				return nil, err
			}
			if err := s.vm.SetFrameValue(ctx, r.thread, fid, l.Slot, written); err != nil {
				return nil, err
			}
		}
		if !found {
			return nil, fmt.Errorf("no local variable %s here", a.Name)
		}
	case refObject, refStatics:
		rt := r.class
		if r.kind == refObject {
			if _, rt, err = s.vm.ObjectType(ctx, r.obj.Object); err != nil {
				return nil, err
			}
		}
		found := false
		for _, c := range s.classes.classChain(ctx, rt) {
			fs, _ := s.classes.fieldsOf(ctx, c)
			for _, f := range fs {
				if f.Name != a.Name || found || f.IsStatic() != (r.kind == refStatics) {
					continue
				}
				found = true
				if written, err = s.coerce(ctx, r.thread, nv.v, f.Signature); err != nil {
					return nil, err
				}
				if r.kind == refStatics {
					err = s.vm.SetStaticValue(ctx, c, f.ID, written)
				} else {
					err = s.vm.SetFieldValue(ctx, r.obj.Object, f.ID, written)
				}
				if err != nil {
					return nil, err
				}
			}
		}
		if !found {
			return nil, fmt.Errorf("no field %s", a.Name)
		}
	case refArray:
		i, err := strconv.Atoi(strings.Trim(a.Name, "[]"))
		if err != nil || i < 0 || i >= r.length {
			return nil, fmt.Errorf("bad array element %s", a.Name)
		}
		_, rt, err := s.vm.ObjectType(ctx, r.obj.Object)
		if err != nil {
			return nil, err
		}
		sig, _ := s.classes.signature(ctx, rt)
		if written, err = s.coerce(ctx, r.thread, nv.v, strings.TrimPrefix(sig, "[")); err != nil {
			return nil, err
		}
		if err := s.vm.SetArrayValue(ctx, r.obj.Object, i, written); err != nil {
			return nil, err
		}
	default:
		return nil, errors.New("elements of collections and maps cannot be set; call a method with evaluate instead")
	}
	d := s.describe(ctx, r.thread, written, "")
	return map[string]any{"value": d.value, "type": d.typ, "variablesReference": d.ref}, nil
}

var primitiveTags = map[string]byte{"int": TagInt, "long": TagLong, "double": TagDouble, "float": TagFloat,
	"short": TagShort, "byte": TagByte, "char": TagChar, "boolean": TagBoolean}

// cast converts primitives as Java casts do (narrowing included) and
// checks reference casts against the object's runtime type.
func (env *evalEnv) cast(ctx context.Context, v Value, typ string) (evalVal, error) {
	s := env.s
	if t, ok := primitiveTags[typ]; ok {
		if p, ok := s.unbox(ctx, v); ok {
			v = p
		}
		if !v.IsPrimitive() {
			return evalVal{}, fmt.Errorf("cannot cast %s to %s", s.typeOf(ctx, v), typ)
		}
		if (t == TagBoolean) != (v.Tag == TagBoolean) {
			return evalVal{}, fmt.Errorf("cannot cast %s to %s", typeNameOfTag(v.Tag), typ)
		}
		out := Value{Tag: t}
		isFloat := v.Tag == TagFloat || v.Tag == TagDouble
		switch t {
		case TagBoolean:
			out.Long = v.Long
		case TagFloat, TagDouble:
			out.Double = asFloat(v)
			if t == TagFloat {
				out.Double = float64(float32(out.Double))
			}
		default:
			n := v.Long
			if isFloat {
				n = int64(v.Double)
			}
			switch t {
			case TagInt:
				n = int64(int32(n))
			case TagShort:
				n = int64(int16(n))
			case TagByte:
				n = int64(int8(n))
			case TagChar:
				n = int64(uint16(n))
			}
			out.Long = n
		}
		return val(out), nil
	}
	if v.IsPrimitive() {
		return evalVal{}, fmt.Errorf("cannot cast %s to %s", typeNameOfTag(v.Tag), typ)
	}
	if v.Object == 0 {
		return val(v), nil
	}
	_, rt, err := s.vm.ObjectType(ctx, v.Object)
	if err != nil {
		return evalVal{}, err
	}
	for _, sig := range s.classes.supertypes(ctx, rt) {
		if classMatches(typ, sig) {
			return val(v), nil
		}
	}
	if strings.HasPrefix(typ, "Object") || typ == "java.lang.Object" {
		return val(v), nil
	}
	return evalVal{}, fmt.Errorf("java.lang.ClassCastException: %s cannot be cast to %s", s.typeOf(ctx, v), typ)
}
