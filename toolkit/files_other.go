//go:build !linux

package toolkit

// onSpecialFS reports whether path lies on a kernel file system; only
// Linux has one to refuse.
func onSpecialFS(string) bool { return false }
