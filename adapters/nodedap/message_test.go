package nodedap

import (
	"errors"
	"testing"
)

func TestDecodeMessage(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in      string
		event   bool
		resp    bool
		wantErr bool
	}{
		{in: `{"id":3,"result":{}}`, resp: true},
		{in: `{"id":4,"error":{"code":-32000,"message":"no","data":"why"}}`, resp: true},
		{in: `{"method":"Debugger.paused","params":{"reason":"other"}}`, event: true},
		{in: `{"id":1,"method":"Debugger.enable","params":{}}`},
		{in: `{"id":5}`, wantErr: true},
		{in: `{}`, wantErr: true},
		{in: `{"id":-1,"result":{}}`, wantErr: true},
		{in: `{"method":"X","error":{"code":1,"message":"m"}}`, wantErr: true},
		{in: `[1,2]`, wantErr: true},
		{in: `not json`, wantErr: true},
		{in: `{"id":"7","result":{}}`, wantErr: true},
	}
	for _, c := range cases {
		m, err := DecodeMessage([]byte(c.in))
		if c.wantErr {
			if !errors.Is(err, ErrMalformed) {
				t.Errorf("%s: err = %v, want ErrMalformed", c.in, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if m.IsEvent() != c.event || m.IsResponse() != c.resp {
			t.Errorf("%s: event=%v response=%v", c.in, m.IsEvent(), m.IsResponse())
		}
	}
}

func TestCDPErrorText(t *testing.T) {
	t.Parallel()
	m, err := DecodeMessage([]byte(`{"id":4,"error":{"code":-32000,"message":"Could not find","data":"objectId"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m.Error.Error(), "cdp error -32000: Could not find (objectId)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func FuzzDecodeMessage(f *testing.F) {
	for _, s := range []string{
		`{"id":3,"result":{"result":{"type":"number","value":3,"description":"3"}}}`,
		`{"id":4,"error":{"code":-32000,"message":"no"}}`,
		`{"method":"Debugger.scriptParsed","params":{"scriptId":"5","url":"file:///a.js"}}`,
		`{"method":"Runtime.consoleAPICalled","params":{"type":"log","args":[]},"sessionId":"s"}`,
		`{"id":0}`, `null`, `""`, `{"id":1e99,"result":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeMessage(b)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("error %v does not wrap ErrMalformed", err)
			}
			return
		}
		if !m.IsEvent() && !m.IsResponse() && (m.ID == 0 || m.Method == "") {
			t.Fatalf("accepted a message that is neither event, response nor command: %s", b)
		}
		if m.Error != nil {
			_ = m.Error.Error()
		}
	})
}
