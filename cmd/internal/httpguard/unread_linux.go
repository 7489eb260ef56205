package httpguard

import (
	"net"
	"syscall"

	"golang.org/x/sys/unix"
)

// unread reports how many bytes c has received that were not read yet,
// and whether it could tell.
func unread(c net.Conn) (n int, known bool) {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return 0, false
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return 0, false
	}
	var ierr error
	if err := raw.Control(func(fd uintptr) { n, ierr = unix.IoctlGetInt(int(fd), unix.SIOCINQ) }); err != nil || ierr != nil {
		return 0, false
	}
	return n, true
}
