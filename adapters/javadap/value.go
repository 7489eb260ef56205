package javadap

import (
	"math"
	"strconv"
	"strings"
)

// JDWP value tags.
const (
	TagArray       byte = '['
	TagByte        byte = 'B'
	TagChar        byte = 'C'
	TagObject      byte = 'L'
	TagFloat       byte = 'F'
	TagDouble      byte = 'D'
	TagInt         byte = 'I'
	TagLong        byte = 'J'
	TagShort       byte = 'S'
	TagVoid        byte = 'V'
	TagBoolean     byte = 'Z'
	TagString      byte = 's'
	TagThread      byte = 't'
	TagThreadGroup byte = 'g'
	TagClassLoader byte = 'l'
	TagClassObject byte = 'c'
)

// Value is a JDWP value: a primitive (Long or Double by tag) or an object
// id (Object; 0 is null).
type Value struct {
	Tag    byte
	Long   int64
	Double float64
	Object uint64
}

// IsPrimitive reports whether v holds a primitive.
func (v Value) IsPrimitive() bool { return isPrimitiveTag(v.Tag) }

// IsObject reports whether v is an object reference (possibly null).
func (v Value) IsObject() bool { return !isPrimitiveTag(v.Tag) && v.Tag != TagVoid }

// IsNull reports whether v is the null reference.
func (v Value) IsNull() bool { return v.IsObject() && v.Object == 0 }

func isPrimitiveTag(t byte) bool {
	switch t {
	case TagByte, TagChar, TagFloat, TagDouble, TagInt, TagLong, TagShort, TagBoolean:
		return true
	}
	return false
}

// tagOfSignature returns the value tag a field or variable of JNI
// signature sig carries (objects as TagObject).
func tagOfSignature(sig string) byte {
	if sig == "" {
		return TagObject
	}
	switch sig[0] {
	case '[':
		return TagArray
	case 'L':
		return TagObject
	}
	return sig[0]
}

// primitiveString formats a primitive like Java does.
func primitiveString(v Value) string {
	switch v.Tag {
	case TagBoolean:
		return strconv.FormatBool(v.Long != 0)
	case TagChar:
		return strconv.QuoteRune(rune(v.Long))
	case TagFloat:
		return javaFloat(v.Double, 32)
	case TagDouble:
		return javaFloat(v.Double, 64)
	case TagVoid:
		return "void"
	}
	return strconv.FormatInt(v.Long, 10)
}

// typeNameOfTag names a primitive tag as Java source does.
func typeNameOfTag(t byte) string {
	switch t {
	case TagByte:
		return "byte"
	case TagChar:
		return "char"
	case TagFloat:
		return "float"
	case TagDouble:
		return "double"
	case TagInt:
		return "int"
	case TagLong:
		return "long"
	case TagShort:
		return "short"
	case TagBoolean:
		return "boolean"
	case TagVoid:
		return "void"
	}
	return "Object"
}

// javaTypeName turns a JNI signature into a Java type name:
// "Ljava/util/List;" -> "java.util.List", "[I" -> "int[]".
func javaTypeName(sig string) string {
	dims := 0
	for dims < len(sig) && sig[dims] == '[' {
		dims++
	}
	base := sig[dims:]
	var name string
	switch {
	case len(base) > 1 && base[0] == 'L':
		name = base[1:]
		if name[len(name)-1] == ';' {
			name = name[:len(name)-1]
		}
		b := []byte(name)
		for i := range b {
			if b[i] == '/' {
				b[i] = '.'
			}
		}
		name = string(b)
	case len(base) == 1:
		name = typeNameOfTag(base[0])
	default:
		name = base
	}
	for i := 0; i < dims; i++ {
		name += "[]"
	}
	return name
}

// signatureOfClassName turns "java.util.List" into "Ljava/util/List;".
func signatureOfClassName(name string) string {
	b := []byte(name)
	for i := range b {
		if b[i] == '.' {
			b[i] = '/'
		}
	}
	return "L" + string(b) + ";"
}

// javaFloat formats a float or double as Java's Double.toString and
// Float.toString do: 9.0 rather than 9, 1.0E7 rather than 1e+07.
func javaFloat(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	if a := math.Abs(f); a == 0 || a >= 1e-3 && a < 1e7 {
		s := strconv.FormatFloat(f, 'f', -1, bits)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'E', -1, bits)
	mant, exp, _ := strings.Cut(s, "E")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	exp = strings.TrimPrefix(exp, "+")
	neg := strings.HasPrefix(exp, "-")
	exp = strings.TrimLeft(strings.TrimPrefix(exp, "-"), "0")
	if neg {
		exp = "-" + exp
	}
	return mant + "E" + exp
}
