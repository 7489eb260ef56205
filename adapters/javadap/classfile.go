package javadap

import (
	"errors"
	"fmt"
)

// ClassFile is what breakpoint verification needs from a .class file: the
// class's name, the source file it was compiled from, and each method's
// line table. It is read by [ParseClassFile] without a JVM, so a
// breakpoint can be checked against the class files on disk before the
// class loads.
type ClassFile struct {
	Name       string // internal form: "a/b/Outer$Inner"
	SourceFile string // the SourceFile attribute ("" when compiled with -g:none)
	Methods    []ClassMethod
}

// ClassMethod is one method of a class file and its LineNumberTable.
type ClassMethod struct {
	Name, Descriptor string
	Lines            []LineNumber // in the order of the class file
}

// LineNumber maps a bytecode offset to a source line.
type LineNumber struct {
	PC, Line int
}

// classFileMagic opens every class file.
const classFileMagic = 0xCAFEBABE

// Class files are read with the JDWP packet [Reader]: both are
// big-endian, and its first error sticks, so a structure is read whole and
// checked once.
func newClassReader(b []byte) *Reader { return newReader(b, IDSizes{}) }

// u2 reads an unsigned 16-bit class-file item as an int.
func u2(r *Reader) int { return int(r.u16()) }

// u4 reads an unsigned 32-bit class-file length as an int.
func u4(r *Reader) int { return int(uint32(r.i32())) }

// Constant pool tags (JVMS §4.4).
const (
	cpUtf8          = 1
	cpInteger       = 3
	cpFloat         = 4
	cpLong          = 5
	cpDouble        = 6
	cpClass         = 7
	cpString        = 8
	cpFieldref      = 9
	cpMethodref     = 10
	cpIfaceMethod   = 11
	cpNameAndType   = 12
	cpMethodHandle  = 15
	cpMethodType    = 16
	cpDynamic       = 17
	cpInvokeDynamic = 18
	cpModule        = 19
	cpPackage       = 20
)

// constantPool keeps what the reader resolves: UTF-8 strings and class
// entries (by the index of their name).
type constantPool struct {
	utf8  map[int]string
	class map[int]int
}

func (p *constantPool) str(i int) (string, error) {
	s, ok := p.utf8[i]
	if !ok {
		return "", fmt.Errorf("constant %d is not a UTF-8 string", i)
	}
	return s, nil
}

// ParseClassFile reads a class file's name, source file and line tables.
// It checks every length against the data, so any input returns either a
// ClassFile or an error, never a panic.
func ParseClassFile(b []byte) (*ClassFile, error) {
	r := newClassReader(b)
	if u4(r) != classFileMagic || r.err != nil {
		return nil, errors.New("not a class file (bad magic)")
	}
	r.take(4) // minor and major version
	pool, err := readConstantPool(r)
	if err != nil {
		return nil, err
	}
	u2(r) // access flags
	this := u2(r)
	u2(r)             // super class
	r.take(2 * u2(r)) // interfaces
	if r.err != nil {
		return nil, r.err
	}
	nameIdx, ok := pool.class[this]
	if !ok {
		return nil, fmt.Errorf("this_class %d is not a class constant", this)
	}
	cf := &ClassFile{}
	if cf.Name, err = pool.str(nameIdx); err != nil {
		return nil, err
	}
	if err := skipMembers(r); err != nil { // fields
		return nil, err
	}
	n := u2(r)
	for i := 0; i < n && r.err == nil; i++ {
		m, err := readMethod(r, pool)
		if err != nil {
			return nil, err
		}
		cf.Methods = append(cf.Methods, m)
	}
	err = eachAttribute(r, pool, func(name string, data []byte) error {
		if name != "SourceFile" {
			return nil
		}
		ar := newClassReader(data)
		s, err := pool.str(u2(ar))
		if ar.err != nil {
			return fmt.Errorf("SourceFile: %w", ar.err)
		}
		cf.SourceFile = s
		return err
	})
	if err != nil {
		return nil, err
	}
	return cf, nil
}

// readConstantPool reads the pool, keeping UTF-8 and class entries.
func readConstantPool(r *Reader) (*constantPool, error) {
	n := u2(r)
	p := &constantPool{utf8: map[int]string{}, class: map[int]int{}}
	for i := 1; i < n; i++ {
		tag := int(r.u8())
		switch tag {
		case cpUtf8:
			p.utf8[i] = decodeModifiedUTF8(r.take(u2(r)))
		case cpClass:
			p.class[i] = u2(r)
		case cpString, cpMethodType, cpModule, cpPackage:
			r.take(2)
		case cpMethodHandle:
			r.take(3)
		case cpInteger, cpFloat, cpFieldref, cpMethodref, cpIfaceMethod, cpNameAndType, cpDynamic, cpInvokeDynamic:
			r.take(4)
		case cpLong, cpDouble:
			r.take(8)
			i++ // eight-byte constants take two entries
		default:
			if r.err == nil {
				return nil, fmt.Errorf("constant %d has unknown tag %d", i, tag)
			}
		}
		if r.err != nil {
			return nil, fmt.Errorf("constant pool: %w", r.err)
		}
	}
	return p, nil
}

// skipMembers skips a fields (or methods) table.
func skipMembers(r *Reader) error {
	n := u2(r)
	for i := 0; i < n && r.err == nil; i++ {
		r.take(6) // access, name, descriptor
		for k := u2(r); k > 0 && r.err == nil; k-- {
			u2(r)
			r.take(u4(r))
		}
	}
	return r.err
}

// readMethod reads one method_info and the line table of its Code.
func readMethod(r *Reader, pool *constantPool) (ClassMethod, error) {
	var m ClassMethod
	u2(r) // access flags
	nameIdx, descIdx := u2(r), u2(r)
	if r.err != nil {
		return m, r.err
	}
	var err error
	if m.Name, err = pool.str(nameIdx); err != nil {
		return m, fmt.Errorf("method name: %w", err)
	}
	if m.Descriptor, err = pool.str(descIdx); err != nil {
		return m, fmt.Errorf("method %s descriptor: %w", m.Name, err)
	}
	err = eachAttribute(r, pool, func(name string, data []byte) error {
		if name != "Code" {
			return nil
		}
		cr := newClassReader(data)
		cr.take(4)          // max_stack, max_locals
		cr.take(u4(cr))     // code
		cr.take(8 * u2(cr)) // exception table
		if cr.err != nil {
			return fmt.Errorf("method %s Code: %w", m.Name, cr.err)
		}
		return eachAttribute(cr, pool, func(name string, data []byte) error {
			if name != "LineNumberTable" {
				return nil
			}
			lr := newClassReader(data)
			for k := u2(lr); k > 0 && lr.err == nil; k-- {
				pc, line := u2(lr), u2(lr)
				if lr.err == nil {
					m.Lines = append(m.Lines, LineNumber{PC: pc, Line: line})
				}
			}
			if lr.err != nil {
				return fmt.Errorf("method %s LineNumberTable: %w", m.Name, lr.err)
			}
			return nil
		})
	})
	return m, err
}

// eachAttribute reads an attributes table and calls f with each
// attribute's name and data.
func eachAttribute(r *Reader, pool *constantPool, f func(name string, data []byte) error) error {
	n := u2(r)
	for i := 0; i < n && r.err == nil; i++ {
		nameIdx := u2(r)
		data := r.take(u4(r))
		if r.err != nil {
			break
		}
		name, err := pool.str(nameIdx)
		if err != nil {
			return fmt.Errorf("attribute name: %w", err)
		}
		if err := f(name, data); err != nil {
			return err
		}
	}
	return r.err
}

// decodeModifiedUTF8 decodes the class file's modified UTF-8 (JVMS
// §4.4.7), the form of every name and string constant. Malformed bytes
// become U+FFFD.
func decodeModifiedUTF8(b []byte) string {
	out := make([]rune, 0, len(b))
	var pendingHigh rune
	emit := func(c rune) {
		if pendingHigh != 0 {
			if c >= 0xDC00 && c <= 0xDFFF {
				out = append(out, (pendingHigh-0xD800)<<10+(c-0xDC00)+0x10000)
				pendingHigh = 0
				return
			}
			out = append(out, 0xFFFD)
			pendingHigh = 0
		}
		if c >= 0xD800 && c <= 0xDBFF {
			pendingHigh = c
			return
		}
		if c >= 0xDC00 && c <= 0xDFFF {
			c = 0xFFFD
		}
		out = append(out, c)
	}
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case c < 0x80:
			emit(rune(c))
			i++
		case c&0xE0 == 0xC0 && i+1 < len(b) && b[i+1]&0xC0 == 0x80:
			emit(rune(c&0x1F)<<6 | rune(b[i+1]&0x3F))
			i += 2
		case c&0xF0 == 0xE0 && i+2 < len(b) && b[i+1]&0xC0 == 0x80 && b[i+2]&0xC0 == 0x80:
			emit(rune(c&0x0F)<<12 | rune(b[i+1]&0x3F)<<6 | rune(b[i+2]&0x3F))
			i += 3
		default:
			emit(0xFFFD)
			i++
		}
	}
	if pendingHigh != 0 {
		out = append(out, 0xFFFD)
	}
	return string(out)
}
