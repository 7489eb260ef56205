package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters"
	"github.com/dbg-dev/dbg/cmd/internal/httpguard"
	"github.com/dbg-dev/dbg/cmd/internal/iostreams"
)

// FuzzHTTPHandler sends one hostile request body to the HTTP JSON-RPC
// handler of `dbg serve` (the guard in front of the Streamable HTTP
// transport and every tool), after a valid initialize. The server only
// has the in-process mock adapter, so no input starts a process. Every
// answer is an HTTP status the protocol knows, the server never panics,
// and a JSON answer is JSON-RPC 2.0.
func FuzzHTTPHandler(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"create_debug_session","arguments":{"language":"mock"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"set_breakpoint","arguments":{"sessionId":"mock-1","file":"/etc/passwd","line":-1}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"evaluate_expression","arguments":{"sessionId":"x","expression":"a+"}}}`,
		`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"list_debug_sessions","arguments":{"sessionId":1e400}}}`,
		`[{"jsonrpc":"2.0","id":7,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}]`,
		`{"jsonrpc":"2.0","id":null,"method":"tools/call","params":null}`,
		`{"jsonrpc":"1.0","id":{},"method":""}`,
		`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"get_source_context","arguments":{"file":"/dev/zero","line":1}}}`,
		strings.Repeat("[", 300), `{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{"uri":"file:///proc/self/mem"}}`,
		"", "\x00", `{"jsonrpc":"2.0","id":10,"method":"initialize","params":{}}`,
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	ios, _, _, _ := iostreams.Test()
	fac := &factory{io: ios, now: time.Now, registry: func() *adapters.Registry { return adapters.NewRegistry(adapters.Mock{}) },
		getenv: func(k string) string {
			switch k {
			case "DBG_STATE_DIR":
				return dir
			case "DBG_WARM_ADAPTERS":
				return "0"
			}
			return ""
		}}
	srv, release := fac.newServer(context.Background(), dir)
	f.Cleanup(release)
	const token = "fuzz-token"
	h := httpguard.New(token, 7077, time.Now).Wrap(mcpHandler(srv))
	post := func(t *testing.T, body []byte, session string) *httptest.ResponseRecorder {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		r := httptest.NewRequestWithContext(ctx, http.MethodPost, "http://127.0.0.1:7077/mcp", bytes.NewReader(body))
		r.RemoteAddr = "127.0.0.1:40000"
		r.Header.Set("Authorization", "Bearer "+token)
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			r.Header.Set("Mcp-Session-Id", session)
			r.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		init := post(t, []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}`), "")
		session := init.Header().Get("Mcp-Session-Id")
		if init.Code != http.StatusOK || session == "" {
			t.Fatalf("initialize: %d %q", init.Code, init.Body.String())
		}
		post(t, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`), session)
		w := post(t, body, session)
		switch w.Code {
		case http.StatusOK, http.StatusAccepted, http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed,
			http.StatusUnsupportedMediaType, http.StatusRequestEntityTooLarge, http.StatusNotAcceptable, http.StatusForbidden:
		default:
			t.Fatalf("status %d for %q: %s", w.Code, body, w.Body.String())
		}
		if strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") && w.Code == http.StatusOK {
			var msg any
			if err := json.Unmarshal(w.Body.Bytes(), &msg); err != nil {
				t.Fatalf("answer is not JSON: %v: %s", err, w.Body.String())
			}
		}
		// The session still answers.
		if ping := post(t, []byte(`{"jsonrpc":"2.0","id":99,"method":"ping"}`), session); ping.Code != http.StatusOK {
			t.Fatalf("ping after %q: %d %s", body, ping.Code, ping.Body.String())
		}
	})
}
