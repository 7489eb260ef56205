package javadap

import (
	"bytes"
	"errors"
	"io"
	"net"
	"testing"
)

func TestPacketRoundTrip(t *testing.T) {
	cmd := &Packet{ID: 7, CommandSet: 1, Command: 7, Data: []byte{1, 2, 3}}
	got, err := ReadPacket(bytes.NewReader(cmd.Marshal()))
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != 7 || got.CommandSet != 1 || got.Command != 7 || got.IsReply() || !bytes.Equal(got.Data, []byte{1, 2, 3}) {
		t.Fatalf("command round trip: %+v", got)
	}
	rep := &Packet{ID: 9, Flags: flagReply, ErrorCode: 101}
	got, err = ReadPacket(bytes.NewReader(rep.Marshal()))
	if err != nil {
		t.Fatal(err)
	}
	if !got.IsReply() || got.ErrorCode != 101 || len(got.Data) != 0 {
		t.Fatalf("reply round trip: %+v", got)
	}
}

func TestReadPacketRejectsBadLengths(t *testing.T) {
	for _, b := range [][]byte{
		{0, 0, 0, 5, 0, 0, 0, 1, 0, 1, 1},    // shorter than a header
		{0x7f, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1}, // absurdly long
	} {
		if _, err := ReadPacket(bytes.NewReader(b)); !errors.Is(err, ErrMalformedPacket) {
			t.Errorf("ReadPacket(%v) = %v, want ErrMalformedPacket", b, err)
		}
	}
	// Truncated body.
	p := (&Packet{ID: 1, CommandSet: 1, Command: 1, Data: []byte{1, 2, 3, 4}}).Marshal()
	if _, err := ReadPacket(bytes.NewReader(p[:len(p)-1])); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("truncated: %v", err)
	}
}

func TestReaderWriterValues(t *testing.T) {
	s := IDSizes{Field: 4, Method: 8, Object: 8, RefType: 4, Frame: 8}
	w := &Writer{s: s}
	vals := []Value{
		{Tag: TagInt, Long: -42}, {Tag: TagLong, Long: 1 << 40}, {Tag: TagBoolean, Long: 1},
		{Tag: TagChar, Long: 'x'}, {Tag: TagShort, Long: -3}, {Tag: TagByte, Long: -1},
		{Tag: TagDouble, Double: 2.5}, {Tag: TagFloat, Double: 1.5},
		{Tag: TagString, Object: 0xdeadbeef01}, {Tag: TagObject}, {Tag: TagVoid},
	}
	for _, v := range vals {
		w.value(v)
	}
	w.str("héllo")
	w.location(Location{TypeTag: 1, Class: 0x01020304, Method: 99, Index: 12})
	r := newReader(w.b, s)
	for _, want := range vals {
		if got := r.value(); got != want {
			t.Errorf("value: got %+v want %+v", got, want)
		}
	}
	if got := r.str(); got != "héllo" {
		t.Errorf("str: %q", got)
	}
	if got := r.location(); got != (Location{1, 0x01020304, 99, 12}) {
		t.Errorf("location: %+v", got)
	}
	if r.Err() != nil || r.off != len(w.b) {
		t.Errorf("err %v, off %d of %d", r.Err(), r.off, len(w.b))
	}
	// Reading past the end sticks an error and returns zero values.
	if r.i32() != 0 || !errors.Is(r.Err(), ErrMalformedPacket) {
		t.Errorf("read past end: %v", r.Err())
	}
}

func TestReaderRejectsHugeCounts(t *testing.T) {
	r := newReader([]byte{0x7f, 0xff, 0xff, 0xff, 'a'}, defaultSizes)
	if s := r.str(); s != "" || !errors.Is(r.Err(), ErrMalformedPacket) {
		t.Fatalf("str = %q, err %v", s, r.Err())
	}
}

func TestHandshake(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	go func() {
		buf := make([]byte, len(handshake))
		_, _ = io.ReadFull(b, buf)
		_, _ = b.Write(buf)
	}()
	if err := Handshake(a); err != nil {
		t.Fatal(err)
	}
	c, d := net.Pipe()
	defer c.Close()
	defer d.Close()
	go func() {
		buf := make([]byte, len(handshake))
		_, _ = io.ReadFull(d, buf)
		_, _ = d.Write([]byte("HTTP/1.1 400 x"))
	}()
	if err := Handshake(c); err == nil {
		t.Fatal("handshake with a non-JDWP peer succeeded")
	}
}

func TestSignatureNames(t *testing.T) {
	for sig, want := range map[string]string{
		"Ljava/util/List;": "java.util.List", "[I": "int[]", "[[Ljava/lang/String;": "java.lang.String[][]", "Z": "boolean",
	} {
		if got := javaTypeName(sig); got != want {
			t.Errorf("javaTypeName(%q) = %q, want %q", sig, got, want)
		}
	}
	if got := signatureOfClassName("a.b.C$D"); got != "La/b/C$D;" {
		t.Errorf("signatureOfClassName: %q", got)
	}
}

// FuzzReadPacket feeds arbitrary bytes to the packet reader and then to the
// composite event decoder; neither may panic.
func FuzzReadPacket(f *testing.F) {
	f.Add((&Packet{ID: 1, CommandSet: 64, Command: 100, Data: []byte{2, 0, 0, 0, 1, 90, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}}).Marshal())
	f.Add((&Packet{ID: 2, Flags: flagReply, ErrorCode: 0, Data: []byte{0, 0, 0, 8, 0, 0, 0, 8}}).Marshal())
	f.Add([]byte{0, 0, 0, 11, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := ReadPacket(bytes.NewReader(b))
		if err != nil {
			return
		}
		if len(p.Data) != len(b)-headerSize && len(b) >= headerSize {
			if int(len(p.Data)) > len(b) {
				t.Fatalf("data longer than input")
			}
		}
		_, _ = decodeEventSet(p.Data, defaultSizes)
		_, _ = decodeEventSet(p.Data, IDSizes{4, 4, 4, 4, 4})
	})
}
