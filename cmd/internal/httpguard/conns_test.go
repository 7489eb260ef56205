package httpguard

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/safefs/attacker"
)

// guarded serves "ok" behind a guard admitting token, with lim.
func guarded(t *testing.T, token string, lim Limits) (*Server, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	h := New(token, port, time.Now).Wrap(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") }))
	s := NewServer(h, lim)
	go func() { _ = s.Serve(ln) }()
	t.Cleanup(func() { _ = s.Close() })
	return s, ln.Addr().String()
}

// Finding 8: about 20,000 idle unauthenticated connections exhausted the
// server's descriptors and a client with the token timed out. The
// attacker (a second user) holds 20,000 idle sockets on loopback while a
// client with the token keeps asking: every one of its requests is
// served, and the server never holds more than its cap.
func TestServerServesTheTokenThroughAFloodOfIdleSockets(t *testing.T) {
	eve := attacker.New(t)
	const flood = 20000
	token := strings.Repeat("t", 43)
	s, addr := guarded(t, token, DefaultLimits)
	good := &http.Client{Timeout: 10 * time.Second, Transport: BearerTransport{Token: token}}
	ask := func() (time.Duration, error) {
		start := time.Now()
		resp, err := good.Get("http://" + addr + "/mcp")
		if err != nil {
			return 0, err
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(b) != "ok" {
			return 0, fmt.Errorf("status %d: %s", resp.StatusCode, b)
		}
		return time.Since(start), nil
	}
	if _, err := ask(); err != nil {
		t.Fatalf("before the flood: %v", err)
	}
	var mu sync.Mutex
	var during []time.Duration
	var goodErr error
	maxOpen := 0
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
			d, err := ask()
			mu.Lock()
			if err != nil && goodErr == nil {
				goodErr = err
			}
			during = append(during, d)
			maxOpen = max(maxOpen, s.Open())
			mu.Unlock()
		}
	}()
	fl := eve.HoldSockets(t, addr, flood, attacker.FloodOptions{})
	held, failed := fl.Held, fl.Failed
	after := make([]time.Duration, 0, 100)
	for range 100 {
		d, err := ask()
		if err != nil {
			t.Fatalf("with %d idle sockets held: %v", held, err)
		}
		after = append(after, d)
	}
	close(stop)
	<-done
	reopened := fl.Stop()
	mu.Lock()
	defer mu.Unlock()
	if goodErr != nil {
		t.Fatalf("during the flood the client with the token failed: %v", goodErr)
	}
	if maxOpen > DefaultLimits.MaxConns {
		t.Errorf("the server held %d connections, over its cap of %d", maxOpen, DefaultLimits.MaxConns)
	}
	if held < flood*9/10 {
		t.Errorf("the attacker could open only %d of %d sockets (%d failed)", held, flood, failed)
	}
	t.Logf("the attacker held %d idle sockets (%d dials failed, %d opened again); the server held at most %d connections (cap %d, %d per address)",
		held, failed, reopened, maxOpen, DefaultLimits.MaxConns, DefaultLimits.MaxConnsPerAddr)
	t.Logf("the client with the token: %d requests during the flood, p50 %s p99 %s max %s; %d after it, p50 %s p99 %s",
		len(during), pct(during, 50), pct(during, 99), pct(during, 100), len(after), pct(after, 50), pct(after, 99))
}

func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[max(0, min(i, len(s))-1)].Round(10 * time.Microsecond)
}

// A refused request's connection is closed after the answer: 401, 403
// and 429 alike.
func TestRefusedRequestsCloseTheirConnection(t *testing.T) {
	t.Parallel()
	_, addr := guarded(t, strings.Repeat("t", 43), DefaultLimits)
	for _, c := range []struct {
		name, header string
		want         int
	}{
		{"no token", "", 401},
		{"foreign origin", "Authorization: Bearer " + strings.Repeat("t", 43) + "\r\nOrigin: https://evil.example\r\n", 403},
		{"a wrong token", "Authorization: Bearer wrong\r\n", 401},
	} {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "GET /mcp HTTP/1.1\r\nHost: %s\r\n%s\r\n", addr, c.header)
		_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("%s: status %d, want %d", c.name, resp.StatusCode, c.want)
		}
		if _, err := br.ReadByte(); !errors.Is(err, io.EOF) {
			t.Errorf("%s: after the answer the connection stays open (%v)", c.name, err)
		}
		conn.Close()
	}
}

// A connection that never completes its request header is closed after
// ReadHeaderTimeout.
func TestSlowHeadersAreCutOff(t *testing.T) {
	t.Parallel()
	lim := DefaultLimits
	lim.ReadHeaderTimeout = 200 * time.Millisecond
	_, addr := guarded(t, strings.Repeat("t", 43), lim)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /mcp HTTP/1.1\r\nHost: %s\r\nX-Slow: ", addr)
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	_, err = io.ReadAll(conn)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatal("the server kept a connection whose header never ended")
	}
}

// Past the cap, idle sockets without the token make room: the oldest
// goes first, and a connection that authenticated stays.
func TestIdleUnauthenticatedConnectionsMakeRoom(t *testing.T) {
	t.Parallel()
	token := strings.Repeat("t", 43)
	lim := DefaultLimits
	lim.MaxConns, lim.MaxConnsPerAddr = 4, 3
	s, addr := guarded(t, token, lim)
	tr := &http.Transport{MaxConnsPerHost: 1}
	defer tr.CloseIdleConnections()
	good := &http.Client{Timeout: 10 * time.Second, Transport: BearerTransport{Token: token, Base: tr}}
	get := func() {
		t.Helper()
		resp, err := good.Get("http://" + addr + "/mcp")
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	get() // one authenticated, kept-alive connection
	var idle []net.Conn
	for range 10 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		idle = append(idle, c)
		defer c.Close()
	}
	deadline := time.Now().Add(10 * time.Second)
	for s.Open() > lim.MaxConnsPerAddr {
		if time.Now().After(deadline) {
			t.Fatalf("the server holds %d connections from one address, over %d", s.Open(), lim.MaxConnsPerAddr)
		}
		time.Sleep(5 * time.Millisecond)
	}
	// The oldest idle sockets were closed by the server.
	_ = idle[0].SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := idle[0].Read(make([]byte, 1)); err == nil {
		t.Fatal("the oldest idle socket is still served")
	}
	get() // the authenticated connection was kept, and serves
}
