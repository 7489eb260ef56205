package toolkit

import "syscall"

// onSpecialFS reports whether path lies on procfs or sysfs, whose files
// say they are regular but are views of the kernel.
func onSpecialFS(path string) bool {
	const procMagic, sysfsMagic = 0x9fa0, 0x62656572
	var st syscall.Statfs_t
	if syscall.Statfs(path, &st) != nil {
		return false
	}
	return st.Type == procMagic || st.Type == sysfsMagic
}
