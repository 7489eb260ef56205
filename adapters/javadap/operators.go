package javadap

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
)

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
		if v, ok := compare(e.op, a, b); ok {
			return v, nil
		}
		var r float64
		switch e.op {
		case "/":
			r = a / b
		case "%":
			r = math.Mod(a, b)
		default:
			r = arith(e.op, a, b)
		}
		if k == TagFloat {
			r = float64(float32(r))
		}
		return val(Value{Tag: k, Double: r}), nil
	}
	a, b := x.Long, y.Long
	if v, ok := compare(e.op, a, b); ok {
		return v, nil
	}
	var r int64
	switch e.op {
	case "/", "%":
		if b == 0 {
			return evalVal{}, errors.New("java.lang.ArithmeticException: / by zero")
		}
		if e.op == "/" {
			r = a / b
		} else {
			r = a % b
		}
	default:
		r = arith(e.op, a, b)
	}
	if k == TagInt {
		r = int64(int32(r))
	}
	return val(Value{Tag: k, Long: r}), nil
}

// arith applies +, - or *; 0 for another operator.
func arith[T int64 | float64](op string, a, b T) T {
	switch op {
	case "+":
		return a + b
	case "-":
		return a - b
	case "*":
		return a * b
	}
	return 0
}

// compare applies op when it is a comparison.
func compare[T int64 | float64](op string, a, b T) (evalVal, bool) {
	switch op {
	case "<":
		return boolVal(a < b), true
	case "<=":
		return boolVal(a <= b), true
	case ">":
		return boolVal(a > b), true
	case ">=":
		return boolVal(a >= b), true
	case "==":
		return boolVal(a == b), true
	case "!=":
		return boolVal(a != b), true
	}
	return evalVal{}, false
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
