package javadap

import (
	"context"
	"errors"
	"fmt"
	"strings"

	godap "github.com/google/go-dap"

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

// evaluate answers evaluate; without side effects, it refuses an
// expression that could change the program (see safeeval.go).
func (s *Server) evaluate(ctx context.Context, req *dap.EvaluateRequest) (*godap.EvaluateResponse, error) {
	a := &req.Arguments
	if req.NoSideEffects() {
		if err := sideEffectFree(a.Expression); err != nil {
			return nil, err
		}
	}
	env, err := s.envFor(ctx, a.FrameId)
	if err != nil {
		return nil, err
	}
	r, err := env.evalString(ctx, a.Expression)
	if err != nil {
		return nil, err
	}
	if r.isClass {
		return &godap.EvaluateResponse{Body: godap.EvaluateResponseBody{Result: "class " + r.name, Type: "Class"}}, nil
	}
	if r.v.IsObject() {
		s.pin(ctx, r.v.Object)
	}
	d := s.describe(ctx, env.thread, r.v, a.Expression)
	return &godap.EvaluateResponse{Body: godap.EvaluateResponseBody{Result: d.value, Type: d.typ, VariablesReference: d.ref,
		IndexedVariables: d.indexed, NamedVariables: d.named}}, nil
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

var boxClass = map[byte]string{TagInt: "Ljava/lang/Integer;", TagLong: "Ljava/lang/Long;", TagShort: "Ljava/lang/Short;",
	TagByte: "Ljava/lang/Byte;", TagChar: "Ljava/lang/Character;", TagBoolean: "Ljava/lang/Boolean;",
	TagFloat: "Ljava/lang/Float;", TagDouble: "Ljava/lang/Double;"}

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

var primitiveTags = map[string]byte{"int": TagInt, "long": TagLong, "double": TagDouble, "float": TagFloat,
	"short": TagShort, "byte": TagByte, "char": TagChar, "boolean": TagBoolean}
