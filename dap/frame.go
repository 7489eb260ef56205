package dap

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// MaxFrameSize bounds a single DAP body. Real adapters send multi-megabyte
// variable dumps, so the bound is generous; it only stops a corrupt length
// from allocating unbounded memory.
const MaxFrameSize = 256 << 20

// ErrFrameTooLarge is returned when a Content-Length exceeds MaxFrameSize.
var ErrFrameTooLarge = errors.New("dap: frame exceeds maximum size")

// FrameReader reads DAP base-protocol frames ("Content-Length: N\r\n\r\n"
// followed by N bytes). It is tolerant of what real adapters emit: extra
// headers, headers in any case, bare "\n" line endings, stray blank lines
// between messages and non-header noise before a frame (for example a
// banner printed on the same stream) are skipped.
//
// A FrameReader is not safe for concurrent use.
type FrameReader struct {
	r   *bufio.Reader
	max int
}

// NewFrameReader returns a reader over r.
func NewFrameReader(r io.Reader) *FrameReader {
	return &FrameReader{r: bufio.NewReaderSize(r, 64<<10), max: MaxFrameSize}
}

// ReadFrame returns the next frame body. It returns io.EOF only when the
// stream ends cleanly between frames.
func (fr *FrameReader) ReadFrame() ([]byte, error) {
	length := -1
	sawHeader := false
	for {
		line, err := fr.r.ReadString('\n')
		if err != nil {
			if errors.Is(err, io.EOF) && (line == "" || !sawHeader) && length < 0 {
				if strings.TrimSpace(line) == "" {
					return nil, io.EOF
				}
				return nil, io.ErrUnexpectedEOF
			}
			if errors.Is(err, io.EOF) {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if length >= 0 {
				break // end of the header block
			}
			continue // stray blank line between messages
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			// Noise that is not a header: forget any partial header block.
			length, sawHeader = -1, false
			continue
		}
		sawHeader = true
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 {
				length, sawHeader = -1, false
				continue
			}
			if n > fr.max {
				return nil, fmt.Errorf("%w: %d bytes", ErrFrameTooLarge, n)
			}
			length = n
		}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(fr.r, body); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return body, nil
}

// WriteFrame writes body as one DAP frame in a single Write call.
func WriteFrame(w io.Writer, body []byte) error {
	var buf bytes.Buffer
	buf.Grow(len(body) + 32)
	fmt.Fprintf(&buf, "Content-Length: %d\r\n\r\n", len(body))
	buf.Write(body)
	_, err := w.Write(buf.Bytes())
	return err
}
