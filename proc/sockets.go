package proc

import (
	"encoding/hex"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// TCPSocket is one line of /proc/net/tcp or /proc/net/tcp6.
type TCPSocket struct {
	Local, Remote netip.AddrPort
	State         int // the kernel's TCP state: 1 established, 10 listen
	Inode         uint64
}

// TCP states of TCPSocket.State.
const (
	TCPEstablished = 1
	TCPListen      = 10
)

// ParseTCP parses the text of /proc/net/tcp or /proc/net/tcp6. Lines it
// cannot read are skipped.
func ParseTCP(text string) []TCPSocket {
	var out []TCPSocket
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 10 || !strings.HasSuffix(f[0], ":") {
			continue
		}
		local, err1 := parseHexAddr(f[1])
		remote, err2 := parseHexAddr(f[2])
		state, err3 := strconv.ParseUint(f[3], 16, 8)
		inode, err4 := strconv.ParseUint(f[9], 10, 64)
		if err := errors.Join(err1, err2, err3, err4); err != nil {
			continue
		}
		out = append(out, TCPSocket{Local: local, Remote: remote, State: int(state), Inode: inode})
	}
	return out
}

// parseHexAddr reads "0100007F:1F90": the address as the kernel holds it
// (32-bit words in host order, little-endian here) and the port.
func parseHexAddr(s string) (netip.AddrPort, error) {
	a, p, ok := strings.Cut(s, ":")
	if !ok {
		return netip.AddrPort{}, fmt.Errorf("address %q: no port", s)
	}
	port, err := strconv.ParseUint(p, 16, 16)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("address %q: %w", s, err)
	}
	b, err := hex.DecodeString(a)
	if err != nil || (len(b) != 4 && len(b) != 16) {
		return netip.AddrPort{}, fmt.Errorf("address %q: not 4 or 16 bytes of hex", s)
	}
	for i := 0; i < len(b); i += 4 {
		b[i], b[i+1], b[i+2], b[i+3] = b[i+3], b[i+2], b[i+1], b[i]
	}
	addr, _ := netip.AddrFromSlice(b)
	return netip.AddrPortFrom(addr.Unmap(), uint16(port)), nil
}

// TCPSockets reads this network namespace's TCP sockets, IPv4 and IPv6.
func TCPSockets() []TCPSocket {
	var out []TCPSocket
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		if b, err := os.ReadFile(table); err == nil {
			out = append(out, ParseTCP(string(b))...)
		}
	}
	return out
}

// SocketFD is a process's descriptor of a socket.
type SocketFD struct{ PID, FD int }

// SocketOwners finds, for each inode in want, a process holding that
// socket and its descriptor there, among the processes this user may
// look into. Sockets nobody visible holds are absent.
func SocketOwners(want map[uint64]bool) map[uint64]SocketFD {
	out := map[uint64]SocketFD{}
	for _, pid := range PIDs() {
		dir := Path(pid, "fd")
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			l, err := os.Readlink(filepath.Join(dir, e.Name()))
			if err != nil || !strings.HasPrefix(l, "socket:[") {
				continue
			}
			inode, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]"), 10, 64)
			fd, ferr := strconv.Atoi(e.Name())
			if err != nil || ferr != nil || !want[inode] {
				continue
			}
			if _, ok := out[inode]; !ok {
				out[inode] = SocketFD{PID: pid, FD: fd}
			}
		}
		if len(out) == len(want) {
			break
		}
	}
	return out
}
