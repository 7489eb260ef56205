package nodedap

import (
	"net"
	"syscall"
)

// quickAckConn acknowledges every segment at once (TCP_QUICKACK, which
// Linux resets after a while, so it is set again before each read).
// Node's inspector writes one message in more than one segment with
// Nagle's algorithm on; with delayed acknowledgements on our side every
// answer would otherwise wait 40 ms for our ACK.
type quickAckConn struct {
	*net.TCPConn
	raw syscall.RawConn
}

func newQuickAckConn(c net.Conn) net.Conn {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return c
	}
	raw, err := tc.SyscallConn()
	if err != nil {
		return c
	}
	return &quickAckConn{TCPConn: tc, raw: raw}
}

func (c *quickAckConn) Read(b []byte) (int, error) {
	_ = c.raw.Control(func(fd uintptr) {
		_ = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_QUICKACK, 1)
	})
	n, err := c.TCPConn.Read(b)
	_ = c.raw.Control(func(fd uintptr) {
		_ = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_QUICKACK, 1)
	})
	return n, err
}
