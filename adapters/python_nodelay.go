package adapters

import (
	"fmt"
	"net"
	"net/netip"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/dbg-dev/dbg/dap"
	"github.com/dbg-dev/dbg/proc"
)

// A program started under `python -m debugpy --listen` (or calling
// debugpy.listen) runs debugpy's adapter in a process of its own, which
// dbg did not start, so dbg's hook never ran there: neither the adapter's
// sockets nor pydevd's in the program have TCP_NODELAY, and every step
// waits for delayed ACKs (about 190 ms a step here, against 12 ms in a
// session dbg launched). Setting it on one side is not enough: both wait.
// So once the adapter has answered initialize (it is debugpy's, and it
// has accepted dbg's connection), dbg sets TCP_NODELAY on the adapter's
// TCP connections and, on each one's other end, on that socket alone in
// the process holding it (pydevd's, in the program), through a copy of
// the descriptor (pidfd_getfd). Nothing runs in either process, and no
// other socket of the program is touched. It needs the right to trace
// those processes (dbg's own user's, or root); without it, the session
// runs at debugpy's own speed.

// noDelayLayer sets TCP_NODELAY on debugpy's side of conn, dbg's
// connection to a debugpy adapter, once the adapter answers initialize.
func noDelayLayer(conn net.Conn) dap.Layer {
	return func(l *dap.Link) dap.Hooks {
		return dap.Hooks{Response: func(r *dap.Request, resp *dap.Message) dap.Verdict {
			if r.Command == "initialize" && resp.OK() {
				l.Go(func() { _, _ = noDelayDebugpy(conn) })
			}
			return dap.Pass
		}}
	}
}

// noDelayDebugpy sets TCP_NODELAY on the connections of the debugpy
// adapter at the other end of conn, and on their other ends but dbg's. It
// returns how many sockets it set.
func noDelayDebugpy(conn net.Conn) (int, error) {
	local, err1 := netip.ParseAddrPort(conn.LocalAddr().String())
	remote, err2 := netip.ParseAddrPort(conn.RemoteAddr().String())
	if err1 != nil || err2 != nil || !remote.Addr().IsLoopback() {
		return 0, fmt.Errorf("not a local connection: %v", conn.RemoteAddr())
	}
	socks := proc.TCPSockets()
	var mine *proc.TCPSocket
	for i, s := range socks {
		if s.State == proc.TCPEstablished && s.Local == normal(remote) && s.Remote == normal(local) {
			mine = &socks[i]
		}
	}
	if mine == nil {
		return 0, fmt.Errorf("the adapter's end of %v is not in this network namespace's table", conn.RemoteAddr())
	}
	want := map[uint64]bool{mine.Inode: true}
	for _, s := range socks {
		if s.State == proc.TCPEstablished && s.Local.Addr().IsLoopback() {
			want[s.Inode] = true
		}
	}
	owners := proc.SocketOwners(want)
	adapter, ok := owners[mine.Inode]
	if !ok {
		return 0, fmt.Errorf("no visible process holds the adapter's end of %v", conn.RemoteAddr())
	}
	if argv, err := proc.Cmdline(adapter.PID); err != nil || !strings.Contains(strings.Join(argv, " "), "debugpy") {
		return 0, fmt.Errorf("process %d at the other end of %v is not debugpy's adapter", adapter.PID, conn.RemoteAddr())
	}
	n := 0
	var errs []error
	set := func(o proc.SocketFD) {
		if err := setNoDelay(o); err != nil {
			errs = append(errs, err)
			return
		}
		n++
	}
	for _, s := range socks {
		o, ok := owners[s.Inode]
		if s.State != proc.TCPEstablished || !ok || o.PID != adapter.PID {
			continue
		}
		set(o)
		for _, peer := range socks {
			if peer.State == proc.TCPEstablished && peer.Local == s.Remote && peer.Remote == s.Local && peer.Inode != mine.Inode {
				if po, ok := owners[peer.Inode]; ok && po.PID != adapter.PID && po.PID != unix.Getpid() {
					set(po)
				}
			}
		}
	}
	if len(errs) > 0 {
		return n, errs[0]
	}
	return n, nil
}

// normal is a as the kernel's table writes it: an IPv4 address mapped in
// IPv6 as plain IPv4.
func normal(a netip.AddrPort) netip.AddrPort {
	return netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
}

// setNoDelay sets TCP_NODELAY on the socket o.FD of process o.PID,
// through a copy of the descriptor.
func setNoDelay(o proc.SocketFD) error {
	pidfd, err := unix.PidfdOpen(o.PID, 0)
	if err != nil {
		return fmt.Errorf("pidfd_open %d: %w", o.PID, err)
	}
	defer unix.Close(pidfd)
	fd, err := unix.PidfdGetfd(pidfd, o.FD, 0)
	if err != nil {
		return fmt.Errorf("pidfd_getfd %d/%d: %w", o.PID, o.FD, err)
	}
	defer unix.Close(fd)
	return unix.SetsockoptInt(fd, unix.IPPROTO_TCP, unix.TCP_NODELAY, 1)
}
