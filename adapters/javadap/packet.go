package javadap

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
)

// handshake is the 14 bytes each side sends first.
const handshake = "JDWP-Handshake"

// headerSize is the size of a JDWP packet header.
const headerSize = 11

// maxPacket bounds the packets the reader accepts (64 MiB).
const maxPacket = 64 << 20

// flagReply marks a reply packet.
const flagReply = 0x80

// ErrMalformedPacket reports bytes that are not a JDWP packet.
var ErrMalformedPacket = errors.New("jdwp: malformed packet")

// Packet is one JDWP command or reply packet.
type Packet struct {
	ID    uint32
	Flags byte
	// CommandSet and Command are set on command packets.
	CommandSet, Command byte
	// ErrorCode is set on reply packets.
	ErrorCode uint16
	Data      []byte
}

// IsReply reports whether p is a reply.
func (p *Packet) IsReply() bool { return p.Flags&flagReply != 0 }

// Marshal encodes p with its header.
func (p *Packet) Marshal() []byte {
	b := make([]byte, headerSize, headerSize+len(p.Data))
	binary.BigEndian.PutUint32(b[0:], uint32(headerSize+len(p.Data)))
	binary.BigEndian.PutUint32(b[4:], p.ID)
	b[8] = p.Flags
	if p.IsReply() {
		binary.BigEndian.PutUint16(b[9:], p.ErrorCode)
	} else {
		b[9], b[10] = p.CommandSet, p.Command
	}
	return append(b, p.Data...)
}

// ReadPacket reads one packet from r. Packets shorter than a header or
// longer than 64 MiB are ErrMalformedPacket.
func ReadPacket(r io.Reader) (*Packet, error) {
	var h [headerSize]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(h[0:])
	if n < headerSize || n > maxPacket {
		return nil, fmt.Errorf("%w: length %d", ErrMalformedPacket, n)
	}
	p := &Packet{ID: binary.BigEndian.Uint32(h[4:]), Flags: h[8]}
	if p.IsReply() {
		p.ErrorCode = binary.BigEndian.Uint16(h[9:])
	} else {
		p.CommandSet, p.Command = h[9], h[10]
	}
	p.Data = make([]byte, n-headerSize)
	if _, err := io.ReadFull(r, p.Data); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return p, nil
}

// Handshake performs the JDWP handshake on rw.
func Handshake(rw io.ReadWriter) error {
	if _, err := io.WriteString(rw, handshake); err != nil {
		return fmt.Errorf("jdwp handshake: %w", err)
	}
	buf := make([]byte, len(handshake))
	if _, err := io.ReadFull(rw, buf); err != nil {
		return fmt.Errorf("jdwp handshake: %w", err)
	}
	if string(buf) != handshake {
		return fmt.Errorf("jdwp handshake: peer answered %q", buf)
	}
	return nil
}

// IDSizes are the byte sizes of the VM's ids (VirtualMachine.IDSizes).
type IDSizes struct {
	Field, Method, Object, RefType, Frame int
}

// defaultSizes are HotSpot's sizes; used until IDSizes has been asked.
var defaultSizes = IDSizes{8, 8, 8, 8, 8}

func (s IDSizes) valid() bool {
	for _, n := range []int{s.Field, s.Method, s.Object, s.RefType, s.Frame} {
		if n < 1 || n > 8 {
			return false
		}
	}
	return true
}

// Location is a code position: a method of a class and a bytecode index.
type Location struct {
	TypeTag byte
	Class   uint64
	Method  uint64
	Index   uint64
}

// Writer builds the data of a command packet.
type Writer struct {
	b []byte
	s IDSizes
}

func (w *Writer) u8(v byte) { w.b = append(w.b, v) }
func (w *Writer) bool(v bool) {
	if v {
		w.u8(1)
	} else {
		w.u8(0)
	}
}
func (w *Writer) i32(v int32)  { w.b = binary.BigEndian.AppendUint32(w.b, uint32(v)) }
func (w *Writer) i64(v int64)  { w.b = binary.BigEndian.AppendUint64(w.b, uint64(v)) }
func (w *Writer) str(s string) { w.i32(int32(len(s))); w.b = append(w.b, s...) }
func (w *Writer) id(v uint64, size int) {
	for i := size - 1; i >= 0; i-- {
		w.b = append(w.b, byte(v>>(8*uint(i))))
	}
}
func (w *Writer) object(v uint64)  { w.id(v, w.s.Object) }
func (w *Writer) refType(v uint64) { w.id(v, w.s.RefType) }
func (w *Writer) method(v uint64)  { w.id(v, w.s.Method) }
func (w *Writer) field(v uint64)   { w.id(v, w.s.Field) }
func (w *Writer) frame(v uint64)   { w.id(v, w.s.Frame) }

// fields writes a count and that many field ids.
func (w *Writer) fields(ids []uint64) {
	w.i32(int32(len(ids)))
	for _, id := range ids {
		w.field(id)
	}
}

func (w *Writer) location(l Location) {
	w.u8(l.TypeTag)
	w.refType(l.Class)
	w.method(l.Method)
	w.i64(int64(l.Index))
}

// value writes a tagged value.
func (w *Writer) value(v Value) {
	w.u8(v.Tag)
	w.untagged(v)
}

func (w *Writer) untagged(v Value) {
	switch v.Tag {
	case TagByte, TagBoolean:
		w.u8(byte(v.Long))
	case TagChar, TagShort:
		w.b = binary.BigEndian.AppendUint16(w.b, uint16(v.Long))
	case TagInt:
		w.i32(int32(v.Long))
	case TagLong:
		w.i64(v.Long)
	case TagFloat:
		w.b = binary.BigEndian.AppendUint32(w.b, math.Float32bits(float32(v.Double)))
	case TagDouble:
		w.b = binary.BigEndian.AppendUint64(w.b, math.Float64bits(v.Double))
	case TagVoid:
	default:
		w.object(v.Object)
	}
}

// Reader decodes the data of a packet. The first error sticks: later reads
// return zero values, and Err reports it, so decoders can read a whole
// structure and check once.
type Reader struct {
	b   []byte
	off int
	s   IDSizes
	err error
}

func newReader(b []byte, s IDSizes) *Reader { return &Reader{b: b, s: s} }

// Err returns the first decoding error.
func (r *Reader) Err() error { return r.err }

func (r *Reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || len(r.b)-r.off < n {
		r.err = fmt.Errorf("%w: need %d bytes at offset %d of %d", ErrMalformedPacket, n, r.off, len(r.b))
		return nil
	}
	b := r.b[r.off : r.off+n]
	r.off += n
	return b
}

func (r *Reader) u8() byte {
	b := r.take(1)
	if b == nil {
		return 0
	}
	return b[0]
}
func (r *Reader) bool() bool { return r.u8() != 0 }
func (r *Reader) u16() uint16 {
	b := r.take(2)
	if b == nil {
		return 0
	}
	return binary.BigEndian.Uint16(b)
}
func (r *Reader) i32() int32 {
	b := r.take(4)
	if b == nil {
		return 0
	}
	return int32(binary.BigEndian.Uint32(b))
}

// count reads a non-negative int32 used as a repeat count; counts that
// cannot fit in the rest of the packet (each item takes ≥ minItem bytes)
// are errors, so hostile input cannot make huge allocations.
func (r *Reader) int() int { return int(r.i32()) }

func (r *Reader) count(minItem int) int {
	n := r.i32()
	if r.err != nil {
		return 0
	}
	if n < 0 || (minItem > 0 && int(n) > (len(r.b)-r.off)/minItem) {
		r.err = fmt.Errorf("%w: bad count %d", ErrMalformedPacket, n)
		return 0
	}
	return int(n)
}
func (r *Reader) i64() int64 {
	b := r.take(8)
	if b == nil {
		return 0
	}
	return int64(binary.BigEndian.Uint64(b))
}
func (r *Reader) str() string {
	n := r.count(1)
	return string(r.take(n))
}
func (r *Reader) id(size int) uint64 {
	b := r.take(size)
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v
}
func (r *Reader) object() uint64  { return r.id(r.s.Object) }
func (r *Reader) refType() uint64 { return r.id(r.s.RefType) }
func (r *Reader) method() uint64  { return r.id(r.s.Method) }
func (r *Reader) field() uint64   { return r.id(r.s.Field) }
func (r *Reader) frame() uint64   { return r.id(r.s.Frame) }
func (r *Reader) location() Location {
	return Location{TypeTag: r.u8(), Class: r.refType(), Method: r.method(), Index: uint64(r.i64())}
}

// value reads a tagged value.
func (r *Reader) value() Value { return r.untagged(r.u8()) }

// untagged reads a value whose tag is known.
func (r *Reader) untagged(tag byte) Value {
	v := Value{Tag: tag}
	switch tag {
	case TagByte:
		v.Long = int64(int8(r.u8()))
	case TagBoolean:
		v.Long = int64(r.u8())
	case TagChar:
		v.Long = int64(r.u16())
	case TagShort:
		v.Long = int64(int16(r.u16()))
	case TagInt:
		v.Long = int64(r.i32())
	case TagLong:
		v.Long = r.i64()
	case TagFloat:
		b := r.take(4)
		if b != nil {
			v.Double = float64(math.Float32frombits(binary.BigEndian.Uint32(b)))
		}
	case TagDouble:
		b := r.take(8)
		if b != nil {
			v.Double = math.Float64frombits(binary.BigEndian.Uint64(b))
		}
	case TagVoid:
	case TagObject, TagArray, TagString, TagThread, TagThreadGroup, TagClassLoader, TagClassObject:
		v.Object = r.object()
	default:
		if r.err == nil {
			r.err = fmt.Errorf("%w: unknown value tag %d", ErrMalformedPacket, tag)
		}
	}
	return v
}
