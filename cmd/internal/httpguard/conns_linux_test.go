package httpguard

import (
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// Past the cap, silent sockets make room first, oldest first; a
// connection whose request waits to be read (a loaded machine) is kept
// for its grace however many arrive after it, and then makes room too.
// The connections are real sockets that nothing reads, admitted one by
// one on a clock the test moves.
func TestSocketsThatSpokeKeepTheirGrace(t *testing.T) {
	t.Parallel()
	lim := DefaultLimits
	lim.MaxConns, lim.MaxConnsPerAddr, lim.Grace = 10, 3, 3*time.Second
	s := NewServer(http.NotFoundHandler(), lim)
	now := time.Unix(1e9, 0)
	s.now = func() time.Time { return now }
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	type pair struct{ client, server net.Conn }
	open := func(speak bool) pair {
		t.Helper()
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		sc, err := ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { sc.Close() })
		if speak {
			_, _ = io.WriteString(c, "GET /mcp HTTP/1.1\r\n\r\n")
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
				if n, _ := unread(sc); n > 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("the request never reached the server's socket")
				}
			}
		}
		return pair{c, sc}
	}
	closed := func(p pair) bool {
		_ = p.client.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		_, err := p.client.Read(make([]byte, 1))
		var ne net.Error // a socket closed with its request unread is reset
		return err != nil && !(errors.As(err, &ne) && ne.Timeout())
	}
	admit := func(p pair) {
		t.Helper()
		if ok, wait := s.admit(p.server); !ok {
			t.Fatalf("refused, wait %s", wait)
		}
	}
	a, b, c := open(true), open(false), open(false)
	admit(a)
	admit(b)
	admit(c)
	d := open(true)
	admit(d) // closes b, the oldest silent one
	if !closed(b) || closed(a) {
		t.Fatalf("b closed %v, a closed %v; want b closed and a kept", closed(b), closed(a))
	}
	e := open(true)
	admit(e) // closes c
	if !closed(c) || closed(a) {
		t.Fatal("a silent socket was kept over one that spoke")
	}
	f := open(true)
	if ok, wait := s.admit(f.server); ok || wait != lim.Grace {
		t.Fatalf("with every socket in its grace: admitted %v, wait %s; want a wait of %s", ok, wait, lim.Grace)
	}
	if closed(a) || closed(d) || closed(e) {
		t.Fatal("a socket in its grace was closed")
	}
	now = now.Add(lim.Grace)
	admit(f) // a is past its grace, and the oldest
	if !closed(a) || closed(d) {
		t.Fatal("past the grace, the oldest socket that spoke did not make room")
	}
}
