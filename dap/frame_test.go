package dap

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func frame(body string) string {
	return "Content-Length: " + itoa(len(body)) + "\r\n\r\n" + body
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	if n == 0 {
		return "0"
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

func readAll(t *testing.T, r io.Reader) []string {
	t.Helper()
	fr := NewFrameReader(r)
	var out []string
	for {
		b, err := fr.ReadFrame()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("ReadFrame: %v (after %q)", err, out)
		}
		out = append(out, string(b))
	}
}

func TestFrameReaderTolerance(t *testing.T) {
	a, b := `{"seq":1,"type":"event","event":"x"}`, `{"seq":2,"type":"event","event":"y"}`
	cases := map[string]string{
		"plain":         frame(a) + frame(b),
		"extra headers": "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n" + frame(a) + "X-Other: 1\r\n" + frame(b),
		"lower case":    "content-length: " + itoa(len(a)) + "\r\n\r\n" + a + frame(b),
		"bare newlines": "Content-Length: " + itoa(len(a)) + "\n\n" + a + frame(b),
		"stray CRLF":    "\r\n\r\n" + frame(a) + "\r\n" + frame(b) + "\r\n",
		"banner noise":  "DAP server listening at 127.0.0.1:1234\n" + frame(a) + frame(b),
		"spaces":        "Content-Length:   " + itoa(len(a)) + "  \r\n\r\n" + a + frame(b),
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			got := readAll(t, strings.NewReader(in))
			if len(got) != 2 || got[0] != a || got[1] != b {
				t.Fatalf("got %q", got)
			}
		})
	}
}

func TestFrameReaderSplitReads(t *testing.T) {
	body := `{"seq":1,"type":"response","request_seq":1,"success":true,"command":"x"}`
	in := frame(body) + frame(body)
	got := readAll(t, iotest.OneByteReader(strings.NewReader(in)))
	if len(got) != 2 || got[1] != body {
		t.Fatalf("got %q", got)
	}
}

func TestFrameReaderHugeBody(t *testing.T) {
	big := `{"seq":1,"type":"event","event":"output","body":{"output":"` + strings.Repeat("x", 6<<20) + `"}}`
	got := readAll(t, strings.NewReader(frame(big)))
	if len(got) != 1 || len(got[0]) != len(big) {
		t.Fatalf("huge body lost: %d frames", len(got))
	}
	m, err := Decode([]byte(got[0]))
	if err != nil || m.Event != "output" {
		t.Fatalf("decode huge: %v", err)
	}
}

func TestFrameReaderLimits(t *testing.T) {
	fr := NewFrameReader(strings.NewReader("Content-Length: 999999999999\r\n\r\n"))
	if _, err := fr.ReadFrame(); !errors.Is(err, ErrFrameTooLarge) {
		t.Fatalf("want ErrFrameTooLarge, got %v", err)
	}
	fr = NewFrameReader(strings.NewReader("Content-Length: 100\r\n\r\nshort"))
	if _, err := fr.ReadFrame(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("truncated body: want ErrUnexpectedEOF, got %v", err)
	}
	fr = NewFrameReader(strings.NewReader("Content-Length: abc\r\n\r\n" + frame(`{}`)))
	if b, err := fr.ReadFrame(); err != nil || string(b) != "{}" {
		t.Fatalf("bad length header not skipped: %q %v", b, err)
	}
}

func TestDecodeKeepsUnknownMessages(t *testing.T) {
	m, err := Decode([]byte(`{"seq":3,"type":"event","event":"rdbgCustom","body":{"k":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	if m.Event != "rdbgCustom" || string(m.Body) != `{"k":1}` {
		t.Fatalf("unknown event mangled: %+v", m)
	}
	if _, err := m.Typed(); err == nil {
		t.Fatalf("Typed of an unknown event should fail")
	}
	m, err = Decode([]byte(`{"seq":4,"type":"event","event":"stopped","body":{"reason":"step","threadId":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	if typed, err := m.Typed(); err != nil || typed.GetSeq() != 4 {
		t.Fatalf("Typed: %v %v", typed, err)
	}
	for _, bad := range []string{`[]`, `{"type":"request"}`, `{"type":"response"}`, `{"type":"event"}`, `{"type":"nope"}`, `garbage`} {
		if _, err := Decode([]byte(bad)); !errors.Is(err, ErrMalformed) {
			t.Errorf("Decode(%s) = %v, want ErrMalformed", bad, err)
		}
	}
}

func TestWriteFrameRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteFrame(&buf, []byte(`{"a":1}`)); err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, &buf); len(got) != 1 || got[0] != `{"a":1}` {
		t.Fatalf("got %q", got)
	}
}

func FuzzFrameReader(f *testing.F) {
	f.Add([]byte(frame(`{"seq":1,"type":"event","event":"x"}`)))
	f.Add([]byte("Content-Length: 2\r\nX: y\r\n\r\n{}\r\n"))
	f.Add([]byte("\r\n\r\nnoise\nContent-Length: 3\n\n{}}"))
	f.Add([]byte("Content-Length: -1\r\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fr := NewFrameReader(bytes.NewReader(data))
		for i := 0; i < 100; i++ {
			b, err := fr.ReadFrame()
			if err != nil {
				return
			}
			if len(b) > len(data) {
				t.Fatalf("frame longer than the input")
			}
			_, _ = Decode(b)
		}
	})
}
