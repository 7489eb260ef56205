package ide

import (
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/dbg-dev/dbg/toolkit"
)

// readRegular reads a project file of at most limit bytes, refusing
// anything that is not a regular file: a FIFO would block the read until
// some writer came, a device (/dev/zero) would never end. The file is
// opened without blocking and checked on the open descriptor, so a file
// swapped for a FIFO between a check and the open is refused too.
func readRegular(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s); dbg reads only regular files here", path, toolkit.FileKind(st.Mode()))
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", path, limit)
	}
	return b, nil
}
