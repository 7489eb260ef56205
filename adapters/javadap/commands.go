package javadap

import (
	"context"
)

// Command sets.
const (
	csVM           = 1
	csRefType      = 2
	csClassType    = 3
	csMethod       = 6
	csObject       = 9
	csString       = 10
	csThread       = 11
	csArray        = 13
	csEventRequest = 15
	csStackFrame   = 16
)

// VersionInfo is VirtualMachine.Version.
type VersionInfo struct {
	Description  string
	Major, Minor int32
	VMVersion    string
	VMName       string
}

// Version asks the VM for its version.
func (c *Client) Version(ctx context.Context) (VersionInfo, error) {
	r, err := c.call(ctx, "Version", csVM, 1, nil)
	if err != nil {
		return VersionInfo{}, err
	}
	v := VersionInfo{Description: r.str(), Major: r.i32(), Minor: r.i32(), VMVersion: r.str(), VMName: r.str()}
	return v, r.err
}

// ClassInfo is a loaded reference type.
type ClassInfo struct {
	TypeTag   byte
	ID        uint64
	Signature string
	Status    int32
}

// ClassesBySignature finds the loaded types with a JNI signature.
func (c *Client) ClassesBySignature(ctx context.Context, sig string) ([]ClassInfo, error) {
	w := c.writer()
	w.str(sig)
	return replyList(ctx, c, "ClassesBySignature", csVM, 2, w, func(r *Reader) ClassInfo {
		return ClassInfo{TypeTag: r.u8(), ID: r.refType(), Signature: sig, Status: r.i32()}
	})
}

// AllClasses lists every loaded type.
func (c *Client) AllClasses(ctx context.Context) ([]ClassInfo, error) {
	return replyList(ctx, c, "AllClasses", csVM, 3, nil, func(r *Reader) ClassInfo {
		return ClassInfo{TypeTag: r.u8(), ID: r.refType(), Signature: r.str(), Status: r.i32()}
	})
}

// AllThreads lists the live threads.
func (c *Client) AllThreads(ctx context.Context) ([]uint64, error) {
	return replyList(ctx, c, "AllThreads", csVM, 4, nil, (*Reader).object)
}

// Dispose ends the debugging session; the VM resumes and keeps running.
func (c *Client) Dispose(ctx context.Context) error {
	return c.send(ctx, "Dispose", csVM, 6, nil)
}

// SuspendAll suspends every thread.
func (c *Client) SuspendAll(ctx context.Context) error {
	return c.send(ctx, "Suspend", csVM, 8, nil)
}

// ResumeAll resumes every thread (undoing one suspension).
func (c *Client) ResumeAll(ctx context.Context) error {
	return c.send(ctx, "Resume", csVM, 9, nil)
}

// Exit terminates the VM with code.
func (c *Client) Exit(ctx context.Context, code int32) error {
	w := c.writer()
	w.i32(code)
	return c.send(ctx, "Exit", csVM, 10, w)
}

// CreateString makes a string in the VM.
func (c *Client) CreateString(ctx context.Context, s string) (uint64, error) {
	w := c.writer()
	w.str(s)
	return reply(ctx, c, "CreateString", csVM, 11, w, (*Reader).object)
}

// Signature returns a type's JNI signature.
func (c *Client) Signature(ctx context.Context, refType uint64) (string, error) {
	return reply(ctx, c, "Signature", csRefType, 1, c.refTypeArg(refType), (*Reader).str)
}

// FieldInfo describes a field.
type FieldInfo struct {
	ID        uint64
	Name      string
	Signature string
	ModBits   int32
}

// IsStatic reports whether the field is static.
func (f FieldInfo) IsStatic() bool { return f.ModBits&0x0008 != 0 }

// Fields lists the fields a type declares.
func (c *Client) Fields(ctx context.Context, refType uint64) ([]FieldInfo, error) {
	return replyList(ctx, c, "Fields", csRefType, 4, c.refTypeArg(refType), func(r *Reader) FieldInfo {
		return FieldInfo{ID: r.field(), Name: r.str(), Signature: r.str(), ModBits: r.i32()}
	})
}

// MethodInfo describes a method.
type MethodInfo struct {
	ID        uint64
	Name      string
	Signature string
	ModBits   int32
}

// IsStatic reports whether the method is static.
func (m MethodInfo) IsStatic() bool { return m.ModBits&0x0008 != 0 }

// IsSynthetic reports whether the compiler generated the method.
func (m MethodInfo) IsSynthetic() bool { return m.ModBits&0x1000 != 0 }

// Methods lists the methods a type declares.
func (c *Client) Methods(ctx context.Context, refType uint64) ([]MethodInfo, error) {
	return replyList(ctx, c, "Methods", csRefType, 5, c.refTypeArg(refType), func(r *Reader) MethodInfo {
		return MethodInfo{ID: r.method(), Name: r.str(), Signature: r.str(), ModBits: r.i32()}
	})
}

// StaticValues reads static fields of a type.
func (c *Client) StaticValues(ctx context.Context, refType uint64, fields []uint64) ([]Value, error) {
	w := c.writer()
	w.refType(refType)
	w.fields(fields)
	return replyList(ctx, c, "ReferenceType.GetValues", csRefType, 6, w, (*Reader).value)
}

// reply sends a command and reads its reply with read.
func reply[T any](ctx context.Context, c *Client, name string, set, cmd byte, w *Writer, read func(*Reader) T) (T, error) {
	r, err := c.call(ctx, name, set, cmd, w)
	if err != nil {
		var zero T
		return zero, err
	}
	v := read(r)
	return v, r.err
}

// replyList sends a command whose reply is a count and that many items,
// each read with item.
func replyList[T any](ctx context.Context, c *Client, name string, set, cmd byte, w *Writer, item func(*Reader) T) ([]T, error) {
	return reply(ctx, c, name, set, cmd, w, func(r *Reader) []T {
		n := r.count(1)
		out := make([]T, 0, n)
		for i := 0; i < n && r.err == nil; i++ {
			out = append(out, item(r))
		}
		return out
	})
}

// SourceFile returns the source file name of a type ("Loop.java").
func (c *Client) SourceFile(ctx context.Context, refType uint64) (string, error) {
	return reply(ctx, c, "SourceFile", csRefType, 7, c.refTypeArg(refType), (*Reader).str)
}

// Interfaces lists the interfaces a type directly implements.
func (c *Client) Interfaces(ctx context.Context, refType uint64) ([]uint64, error) {
	return replyList(ctx, c, "Interfaces", csRefType, 10, c.refTypeArg(refType), (*Reader).refType)
}

// Superclass returns a class's superclass (0 for java.lang.Object).
func (c *Client) Superclass(ctx context.Context, class uint64) (uint64, error) {
	return reply(ctx, c, "Superclass", csClassType, 1, c.refTypeArg(class), (*Reader).refType)
}

// Invoke options.
const (
	InvokeSingleThreaded = 1
	InvokeNonvirtual     = 2
)

// InvokeStatic runs a static method on a suspended thread. A thrown
// exception is returned as exc (non-zero), not as an error.
func (c *Client) InvokeStatic(ctx context.Context, class, thread, method uint64, args []Value) (ret Value, exc uint64, err error) {
	w := c.writer()
	w.refType(class)
	w.object(thread)
	w.method(method)
	return c.invoke(ctx, "ClassType.InvokeMethod", csClassType, 3, thread, w, args)
}

// invoke finishes an InvokeMethod command whose target, thread and method
// are written: the arguments, the options, and the (value, exception)
// answer. The thread is marked as invoking while it runs.
func (c *Client) invoke(ctx context.Context, name string, set, cmd byte, thread uint64, w *Writer, args []Value) (ret Value, exc uint64, err error) {
	w.i32(int32(len(args)))
	for _, a := range args {
		w.value(a)
	}
	w.i32(InvokeSingleThreaded)
	c.invokes.Add(1)
	c.invoking.Store(thread)
	defer c.invoking.Store(0)
	r, err := c.call(ctx, name, set, cmd, w)
	if err != nil {
		return Value{}, 0, err
	}
	ret = r.value()
	e := r.value()
	return ret, e.Object, r.err
}

// LineEntry maps a bytecode index to a source line.
type LineEntry struct {
	Index uint64
	Line  int32
}

// LineTable is a method's line number table.
type LineTable struct {
	Start, End uint64
	Lines      []LineEntry
}

// LineTable reads a method's line table.
func (c *Client) LineTable(ctx context.Context, refType, method uint64) (LineTable, error) {
	w := c.writer()
	w.refType(refType)
	w.method(method)
	r, err := c.call(ctx, "LineTable", csMethod, 1, w)
	if err != nil {
		return LineTable{}, err
	}
	t := LineTable{Start: uint64(r.i64()), End: uint64(r.i64())}
	n := r.count(12)
	for i := 0; i < n && r.err == nil; i++ {
		t.Lines = append(t.Lines, LineEntry{Index: uint64(r.i64()), Line: r.i32()})
	}
	return t, r.err
}

// VarInfo is one entry of a method's variable table.
type VarInfo struct {
	CodeIndex uint64
	Name      string
	Signature string
	Length    int32
	Slot      int32
}

// VariableTable reads a method's local variables; ArgCount counts the
// slots of the arguments.
func (c *Client) VariableTable(ctx context.Context, refType, method uint64) (argCount int32, vars []VarInfo, err error) {
	w := c.writer()
	w.refType(refType)
	w.method(method)
	r, err := c.call(ctx, "VariableTable", csMethod, 2, w)
	if err != nil {
		return 0, nil, err
	}
	argCount = r.i32()
	n := r.count(20)
	for i := 0; i < n && r.err == nil; i++ {
		vars = append(vars, VarInfo{CodeIndex: uint64(r.i64()), Name: r.str(), Signature: r.str(), Length: r.i32(), Slot: r.i32()})
	}
	return argCount, vars, r.err
}

// SetStaticValue writes a static field of a class.
func (c *Client) SetStaticValue(ctx context.Context, class, field uint64, v Value) error {
	w := c.writer()
	w.refType(class)
	w.i32(1)
	w.field(field)
	w.untagged(v)
	return c.send(ctx, "ClassType.SetValues", csClassType, 2, w)
}
