package debugtools

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Wire constants of the agent protocol.
const (
	// Magic starts every frame.
	Magic uint32 = 20240508
	// ProtocolVersion is the version byte dbg writes.
	ProtocolVersion byte = 1
	// SerializerJSON is the only serializer: UTF-8 JSON bodies.
	SerializerJSON byte = 1
	// HeaderSize is the length of a frame header.
	HeaderSize = 12
	// MaxBodySize bounds a frame body; larger frames are refused.
	MaxBodySize = 64 << 20
)

// Commands of the agent protocol.
const (
	CmdHeartbeatRequest  byte = 1
	CmdHeartbeatResponse byte = 2
	CmdRunRequest        byte = 3
	CmdRunResponse       byte = 4
	CmdClearResult       byte = 7
)

// Result flags.
const (
	ResultFailure byte = 0
	ResultSuccess byte = 1
)

// Errors of the frame codec.
var (
	ErrBadMagic      = errors.New("debugtools: bad frame magic")
	ErrBadSerializer = errors.New("debugtools: unsupported serializer")
	ErrFrameTooLarge = errors.New("debugtools: frame body too large")
)

// Frame is one message of the agent protocol.
type Frame struct {
	Version    byte
	Serializer byte
	Command    byte
	ResultFlag byte
	Body       []byte
}

// NewFrame returns a JSON frame of command cmd with the current version.
func NewFrame(cmd, flag byte, body []byte) Frame {
	return Frame{Version: ProtocolVersion, Serializer: SerializerJSON, Command: cmd, ResultFlag: flag, Body: body}
}

// MarshalBinary encodes the frame: header then body.
func (f Frame) MarshalBinary() ([]byte, error) {
	if len(f.Body) > MaxBodySize {
		return nil, fmt.Errorf("%w: %d bytes", ErrFrameTooLarge, len(f.Body))
	}
	b := make([]byte, HeaderSize+len(f.Body))
	binary.BigEndian.PutUint32(b[0:4], Magic)
	b[4] = f.Version
	b[5] = f.Serializer
	b[6] = f.Command
	b[7] = f.ResultFlag
	binary.BigEndian.PutUint32(b[8:12], uint32(len(f.Body)))
	copy(b[HeaderSize:], f.Body)
	return b, nil
}

// WriteFrame writes f to w in one Write call.
func WriteFrame(w io.Writer, f Frame) error {
	b, err := f.MarshalBinary()
	if err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("debugtools: write frame: %w", err)
	}
	return nil
}

// ReadFrame reads one frame. It refuses a wrong magic, a serializer other
// than JSON and bodies over MaxBodySize before allocating them. A clean
// end of stream before the header is io.EOF; a cut frame is
// io.ErrUnexpectedEOF.
func ReadFrame(r io.Reader) (Frame, error) {
	var h [HeaderSize]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		return Frame{}, err
	}
	return readBody(r, h)
}

func readBody(r io.Reader, h [HeaderSize]byte) (Frame, error) {
	if m := binary.BigEndian.Uint32(h[0:4]); m != Magic {
		return Frame{}, fmt.Errorf("%w: %d", ErrBadMagic, m)
	}
	f := Frame{Version: h[4], Serializer: h[5], Command: h[6], ResultFlag: h[7]}
	if f.Serializer != SerializerJSON {
		return Frame{}, fmt.Errorf("%w: %d", ErrBadSerializer, f.Serializer)
	}
	n := binary.BigEndian.Uint32(h[8:12])
	if n > MaxBodySize {
		return Frame{}, fmt.Errorf("%w: %d bytes", ErrFrameTooLarge, n)
	}
	f.Body = make([]byte, n)
	if _, err := io.ReadFull(r, f.Body); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return Frame{}, fmt.Errorf("debugtools: frame body: %w", err)
	}
	return f, nil
}

// UnmarshalFrame decodes exactly one frame from b.
func UnmarshalFrame(b []byte) (Frame, error) {
	if len(b) < HeaderSize {
		return Frame{}, io.ErrUnexpectedEOF
	}
	var h [HeaderSize]byte
	copy(h[:], b)
	if n := binaryLen(h); int64(len(b)-HeaderSize) != n && n <= MaxBodySize {
		if int64(len(b)-HeaderSize) < n {
			return Frame{}, io.ErrUnexpectedEOF
		}
		return Frame{}, fmt.Errorf("debugtools: %d bytes after the frame", int64(len(b)-HeaderSize)-n)
	}
	return readBody(bytes.NewReader(b[HeaderSize:]), h)
}

func binaryLen(h [HeaderSize]byte) int64 { return int64(binary.BigEndian.Uint32(h[8:12])) }
