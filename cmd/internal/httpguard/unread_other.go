//go:build !linux

package httpguard

import "net"

// unread cannot tell here: every waiting connection counts as silent.
func unread(net.Conn) (int, bool) { return 0, false }
