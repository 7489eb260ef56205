package javadap

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
	"strings"
)

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
	best, bestScore := MethodInfo{}, -1
	var bestClass uint64
	found := false
	for c, m := range s.methodsNamed(ctx, rt, name) {
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

// findMethod looks a method up by name (and signature, or argument count
// when sig is "") in a type, its superclasses and its interfaces.
func (s *Server) findMethod(ctx context.Context, rt uint64, name, sig string, argc int) (uint64, MethodInfo, bool) {
	for c, m := range s.methodsNamed(ctx, rt, name) {
		if sig != "" && m.Signature != sig {
			continue
		}
		if sig == "" && len(paramSigs(m.Signature)) != argc {
			continue
		}
		return c, m, true
	}
	return 0, MethodInfo{}, false
}

// methodsNamed yields the methods called name, with the type declaring
// each, of rt, its superclasses and their interfaces, nearest first.
func (s *Server) methodsNamed(ctx context.Context, rt uint64, name string) iter.Seq2[uint64, MethodInfo] {
	return func(yield func(uint64, MethodInfo) bool) {
		var cands []uint64
		cands = append(cands, s.classes.classChain(ctx, rt)...)
		for _, c := range append([]uint64{}, cands...) {
			if ifs, err := s.vm.Interfaces(ctx, c); err == nil {
				cands = append(cands, ifs...)
			}
		}
		for _, c := range cands {
			ms, err := s.classes.methodsOf(ctx, c)
			if err != nil {
				continue
			}
			for _, m := range ms {
				if m.Name == name && !yield(c, m) {
					return
				}
			}
		}
	}
}

// invoke calls an instance method on a suspended thread. sig, when given,
// selects the overload.
func (s *Server) invoke(ctx context.Context, thread uint64, obj Value, name string, args []Value, sig ...string) (Value, error) {
	if obj.Object == 0 {
		return Value{}, fmt.Errorf("cannot call %s() on null", name)
	}
	_, rt, err := s.vm.ObjectType(ctx, obj.Object)
	if err != nil {
		return Value{}, err
	}
	want := ""
	if len(sig) > 0 {
		want = sig[0]
	}
	class, m, ok := s.findMethod(ctx, rt, name, want, len(args))
	if !ok {
		tsig, _ := s.classes.signature(ctx, rt)
		return Value{}, fmt.Errorf("%s has no method %s with %d argument(s)", javaTypeName(tsig), name, len(args))
	}
	return s.invokeMethod(ctx, thread, obj, class, m, args)
}

func (s *Server) invokeMethod(ctx context.Context, thread uint64, obj Value, class uint64, m MethodInfo, args []Value) (Value, error) {
	args, err := s.convertArgs(ctx, thread, m, args)
	if err != nil {
		return Value{}, err
	}
	var ret Value
	var exc uint64
	if m.IsStatic() {
		ret, exc, err = s.vm.InvokeStatic(ctx, class, thread, m.ID, args)
	} else {
		ret, exc, err = s.vm.InvokeMethod(ctx, obj.Object, thread, class, m.ID, args)
	}
	if err != nil {
		if IsErrorCode(err, ErrCodeThreadNotSuspended) || IsErrorCode(err, ErrCodeInvalidThread) {
			return Value{}, fmt.Errorf("cannot call %s(): the thread is not stopped at a breakpoint or step (%w)", m.Name, err)
		}
		return Value{}, err
	}
	if exc != 0 {
		return Value{}, fmt.Errorf("%s() threw %s", m.Name, s.throwableText(ctx, thread, exc))
	}
	return ret, nil
}

// throwableText is "java.lang.X: message" for an exception object.
func (s *Server) throwableText(ctx context.Context, thread, exc uint64) string {
	_, rt, err := s.vm.ObjectType(ctx, exc)
	if err != nil {
		return "an exception"
	}
	sig, _ := s.classes.signature(ctx, rt)
	text := javaTypeName(sig)
	if _, m, ok := s.findMethod(ctx, rt, "getMessage", "()Ljava/lang/String;", 0); ok {
		if ret, e, err := s.vm.InvokeMethod(ctx, exc, thread, rt, m.ID, nil); err == nil && e == 0 && ret.Object != 0 {
			if msg, err := s.vm.StringValue(ctx, ret.Object); err == nil {
				text += ": " + msg
			}
		}
	}
	return text
}

// paramSigs splits a method signature's parameter list.
func paramSigs(sig string) []string {
	var out []string
	if len(sig) == 0 || sig[0] != '(' {
		return nil
	}
	i := 1
	for i < len(sig) && sig[i] != ')' {
		j := i
		for j < len(sig) && sig[j] == '[' {
			j++
		}
		if j < len(sig) && sig[j] == 'L' {
			k := strings.IndexByte(sig[j:], ';')
			if k < 0 {
				return out
			}
			j += k
		}
		out = append(out, sig[i:j+1])
		i = j + 1
	}
	return out
}
