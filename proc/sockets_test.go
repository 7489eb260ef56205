package proc

import (
	"net"
	"net/netip"
	"os"
	"strings"
	"testing"
)

const tcpText = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 0000000000000000 100 0 0 10 0
   1: 0100007F:1F90 0100007F:D431 01 00000000:00000000 00:00000000 00000000     0        0 4243 1 0000000000000000 20 4 30 10 -1
`

const tcp6Text = `  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000001000000:1F91 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 77 1 0000000000000000 100 0 0 10 0
   1: 0000000000000000FFFF00000100007F:1F92 0000000000000000FFFF00000100007F:D432 01 00000000:00000000 00:00000000 00000000     0        0 78 1 0000000000000000 20 4 30 10 -1
`

func TestParseTCP(t *testing.T) {
	got := ParseTCP(tcpText + tcp6Text + "garbage line\n   9: zz:1 00:0 01 0 0 0 0 0 1\n")
	want := []TCPSocket{
		{netip.MustParseAddrPort("127.0.0.1:8080"), netip.MustParseAddrPort("0.0.0.0:0"), TCPListen, 4242},
		{netip.MustParseAddrPort("127.0.0.1:8080"), netip.MustParseAddrPort("127.0.0.1:54321"), TCPEstablished, 4243},
		{netip.MustParseAddrPort("[::1]:8081"), netip.MustParseAddrPort("[::]:0"), TCPListen, 77},
		{netip.MustParseAddrPort("127.0.0.1:8082"), netip.MustParseAddrPort("127.0.0.1:54322"), TCPEstablished, 78},
	}
	if len(got) != len(want) {
		t.Fatalf("got %d sockets, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("socket %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// A connection this test makes is in the kernel's table, both ends, and
// SocketOwners finds this process holding each.
func TestTCPSocketsAndOwners(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	local := netip.MustParseAddrPort(c.LocalAddr().String())
	remote := netip.MustParseAddrPort(c.RemoteAddr().String())
	want := map[uint64]bool{}
	for _, sk := range TCPSockets() {
		if sk.State == TCPEstablished && (sk.Local == local && sk.Remote == remote || sk.Local == remote && sk.Remote == local) {
			want[sk.Inode] = true
		}
	}
	if len(want) != 2 {
		t.Fatalf("the connection's two ends in the table: %v", want)
	}
	owners := SocketOwners(want)
	for inode := range want {
		if o, ok := owners[inode]; !ok || o.PID != os.Getpid() {
			t.Errorf("socket %d: owner %+v, want this process", inode, o)
		}
	}
}

func FuzzParseTCP(f *testing.F) {
	f.Add(tcpText)
	f.Add(tcp6Text)
	f.Add("   0: 0100007F:1F90 00000000:0000 0A 0 0 0 0 0 1\n")
	f.Fuzz(func(t *testing.T, text string) {
		for _, sk := range ParseTCP(text) {
			if !sk.Local.IsValid() || !sk.Remote.IsValid() || sk.State < 0 || sk.State > 255 {
				t.Fatalf("ParseTCP(%q) gave %+v", text, sk)
			}
			if !strings.Contains(text, ":") {
				t.Fatalf("a socket from text without an address: %+v", sk)
			}
		}
	})
}
