package httpguard

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

const testToken = "0123456789abcdef0123456789abcdef0123456789a"

// serve runs one request through a guard on port 7077 and returns the
// status; next answers 204.
func serve(t *testing.T, g *Guard, mutate func(*http.Request)) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest("POST", "http://127.0.0.1:7077/mcp", strings.NewReader(`{}`))
	r.RemoteAddr = "127.0.0.1:50000"
	r.Header.Set("Authorization", "Bearer "+testToken)
	mutate(r)
	w := httptest.NewRecorder()
	g.Wrap(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Cache-Control", "no-cache") // as the SDK's event streams do
		w.WriteHeader(http.StatusNoContent)
	})).ServeHTTP(w, r)
	if got := w.Header().Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control %q on %d", got, w.Code)
	}
	return w
}

func TestGuard(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(*http.Request)
		want   int
	}{
		{"right token", func(*http.Request) {}, 204},
		{"localhost host", func(r *http.Request) { r.Host = "localhost:7077" }, 204},
		{"ipv6 loopback peer", func(r *http.Request) { r.RemoteAddr = "[::1]:5" }, 204},
		{"loopback origin", func(r *http.Request) { r.Header.Set("Origin", "http://localhost:3000") }, 204},
		{"ipv6 origin", func(r *http.Request) { r.Header.Set("Origin", "http://[::1]:3000") }, 204},
		{"remote peer", func(r *http.Request) { r.RemoteAddr = "192.0.2.1:5" }, 403},
		{"rebound host", func(r *http.Request) { r.Host = "evil.example:7077" }, 403},
		{"wrong port in host", func(r *http.Request) { r.Host = "127.0.0.1:1" }, 403},
		{"host without port", func(r *http.Request) { r.Host = "127.0.0.1" }, 403},
		{"foreign origin", func(r *http.Request) { r.Header.Set("Origin", "https://evil.example") }, 403},
		{"origin without scheme", func(r *http.Request) { r.Header.Set("Origin", "localhost") }, 403},
		{"no token", func(r *http.Request) { r.Header.Del("Authorization") }, 401},
		{"basic auth", func(r *http.Request) { r.Header.Set("Authorization", "Basic "+testToken) }, 401},
		{"body over 1 MiB", func(r *http.Request) { r.ContentLength = MaxBody + 1 }, 413},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := New(testToken, 7077, time.Now)
			if got := serve(t, g, c.mutate).Code; got != c.want {
				t.Fatalf("status %d, want %d", got, c.want)
			}
		})
	}
}

func TestGuardRateLimit(t *testing.T) {
	now := time.Unix(1000, 0)
	g := New(testToken, 7077, func() time.Time { return now })
	wrong := func(r *http.Request) { r.Header.Set("Authorization", "Bearer wrong") }
	for i := 0; i < MaxFailures; i++ {
		if got := serve(t, g, wrong).Code; got != 401 {
			t.Fatalf("failure %d: status %d, want 401", i+1, got)
		}
	}
	w := serve(t, g, wrong)
	if w.Code != 429 || w.Header().Get("Retry-After") != "30" {
		t.Fatalf("after %d failures: status %d, Retry-After %q", MaxFailures, w.Code, w.Header().Get("Retry-After"))
	}
	if got := serve(t, g, func(*http.Request) {}).Code; got != 204 {
		t.Fatalf("the right token was refused after others failed: %d", got)
	}
	now = now.Add(FailureWindow + time.Second)
	if got := serve(t, g, wrong).Code; got != 401 {
		t.Fatalf("after the window: status %d, want 401", got)
	}
}

func TestCheckListenAddr(t *testing.T) {
	for _, ok := range []string{"127.0.0.1:7077", "localhost:0", "[::1]:80", "127.1.2.3:9"} {
		if err := CheckListenAddr(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"0.0.0.0:0", "192.0.2.1:80", ":7077", "example.com:80", "nope"} {
		if err := CheckListenAddr(bad); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}
