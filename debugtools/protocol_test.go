package debugtools

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// loadGolden reads a .frame file: a comment line, the header in hex, and
// the body on the last line.
func loadGolden(t *testing.T, path string) (header []byte, body []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitN(strings.TrimRight(string(b), "\n"), "\n", 3)
	if len(lines) != 3 {
		t.Fatalf("%s: want comment, header, body", path)
	}
	header, err = hex.DecodeString(strings.ReplaceAll(lines[1], " ", ""))
	if err != nil || len(header) != HeaderSize {
		t.Fatalf("%s: bad header %q: %v", path, lines[1], err)
	}
	return header, []byte(lines[2])
}

func TestGoldenFrames(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("testdata/frames/*.frame")
	if len(files) < 5 {
		t.Fatalf("want golden frames, found %d", len(files))
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			header, body := loadGolden(t, path)
			wire := append(append([]byte(nil), header...), body...)
			f, err := ReadFrame(bytes.NewReader(wire))
			if err != nil {
				t.Fatal(err)
			}
			if f.Version != 1 || f.Serializer != 1 || !bytes.Equal(f.Body, body) {
				t.Fatalf("decoded %+v", f)
			}
			out, err := NewFrame(f.Command, f.ResultFlag, body).MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, wire) {
				t.Fatalf("encode:\n got %x\nwant %x", out, wire)
			}
			if !json.Valid(f.Body) {
				t.Fatal("body is not JSON")
			}
		})
	}
}

func TestGoldenRunRequestKeepsArgumentOrder(t *testing.T) {
	t.Parallel()
	_, body := loadGolden(t, "testdata/frames/run_request.frame")
	var dto RunDTO
	if err := json.Unmarshal(body, &dto); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(dto.TargetMethodContent.Keys(), ","); got != "zeta,alpha" {
		t.Fatalf("keys %s", got)
	}
	args, err := dto.ValidateArgs()
	if err != nil || len(args) != 2 || string(args[1].Content) != `"EUR"` {
		t.Fatalf("args %+v %v", args, err)
	}
	again, err := json.Marshal(dto)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, body) {
		t.Fatalf("re-encoded\n got %s\nwant %s", again, body)
	}
}

func TestGoldenRunResponse(t *testing.T) {
	t.Parallel()
	header, body := loadGolden(t, "testdata/frames/run_response_failure.frame")
	f, err := ReadFrame(bytes.NewReader(append(header, body...)))
	if err != nil {
		t.Fatal(err)
	}
	if f.Command != CmdRunResponse || f.ResultFlag != ResultFailure {
		t.Fatalf("frame %+v", f)
	}
	var r RunResult
	if err := json.Unmarshal(f.Body, &r); err != nil {
		t.Fatal(err)
	}
	if r.Throwable == nil || !strings.Contains(*r.Throwable, "boom") || r.PrintResult != nil || r.Duration != 3 || *r.OffsetPath != "7" {
		t.Fatalf("result %+v", r)
	}
}

func TestFrameRoundTrip(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	in := []Frame{
		NewFrame(CmdHeartbeatRequest, ResultSuccess, []byte(`{}`)),
		NewFrame(CmdRunRequest, ResultSuccess, []byte(`{"identity":"x","headers":{"a":"b"}}`)),
		NewFrame(CmdClearResult, ResultFailure, nil),
	}
	for _, f := range in {
		if err := WriteFrame(&buf, f); err != nil {
			t.Fatal(err)
		}
	}
	for i, want := range in {
		got, err := ReadFrame(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if got.Command != want.Command || got.ResultFlag != want.ResultFlag || !bytes.Equal(got.Body, want.Body) && len(want.Body) > 0 {
			t.Fatalf("frame %d: %+v != %+v", i, got, want)
		}
	}
	if _, err := ReadFrame(&buf); err != io.EOF {
		t.Fatalf("want io.EOF at the end, got %v", err)
	}
}

func TestFrameErrors(t *testing.T) {
	t.Parallel()
	good, _ := NewFrame(CmdRunRequest, 1, []byte(`{"a":1}`)).MarshalBinary()
	bad := append([]byte(nil), good...)
	bad[0] = 9
	if _, err := ReadFrame(bytes.NewReader(bad)); !errors.Is(err, ErrBadMagic) {
		t.Fatalf("magic: %v", err)
	}
	bad = append([]byte(nil), good...)
	bad[5] = 2
	if _, err := ReadFrame(bytes.NewReader(bad)); !errors.Is(err, ErrBadSerializer) {
		t.Fatalf("serializer: %v", err)
	}
	bad = append([]byte(nil), good...)
	bad[8] = 0x7f
	if _, err := ReadFrame(bytes.NewReader(bad)); !errors.Is(err, ErrFrameTooLarge) {
		t.Fatalf("size: %v", err)
	}
	if _, err := ReadFrame(bytes.NewReader(good[:len(good)-1])); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("cut body: %v", err)
	}
	if _, err := ReadFrame(bytes.NewReader(good[:5])); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("cut header: %v", err)
	}
	if _, err := UnmarshalFrame(append(good, 'x')); err == nil {
		t.Fatal("trailing bytes accepted")
	}
	if f, err := UnmarshalFrame(good); err != nil || string(f.Body) != `{"a":1}` {
		t.Fatalf("unmarshal: %+v %v", f, err)
	}
}

func FuzzReadFrame(f *testing.F) {
	files, _ := filepath.Glob("testdata/frames/*.frame")
	for _, path := range files {
		b, _ := os.ReadFile(path)
		lines := strings.SplitN(strings.TrimRight(string(b), "\n"), "\n", 3)
		h, _ := hex.DecodeString(strings.ReplaceAll(lines[1], " ", ""))
		f.Add(append(h, lines[2]...))
	}
	f.Add([]byte{1, 0x34, 0xd8, 0x7c, 1, 1, 3, 1, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, err := ReadFrame(bytes.NewReader(data))
		if err != nil {
			return
		}
		out, err := fr.MarshalBinary()
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		if !bytes.Equal(out, data[:len(out)]) {
			t.Fatalf("round trip differs")
		}
		if fr.Command == CmdRunRequest {
			var dto RunDTO
			if json.Unmarshal(fr.Body, &dto) == nil {
				if _, err := json.Marshal(dto); err != nil {
					t.Fatalf("RunDTO re-marshal: %v", err)
				}
			}
		}
	})
}
