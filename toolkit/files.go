package toolkit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// MaxSourceBytes is the largest source file or script a tool reads whole.
const MaxSourceBytes = 16 << 20

// CheckReadable refuses, as INVALID_ARGUMENT naming the argument, a path
// a tool must not read as a source or script: one that does not exist, a
// device, pipe or socket (/dev/zero), a file of /proc or /sys
// (/proc/self/mem, which says it is regular), or a file over maxBytes
// (0: no size limit, for programs and binaries). Directories pass when
// dirOK is set. It follows symbolic links.
func CheckReadable(arg, path string, maxBytes int64, dirOK bool) error {
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return NewError(CodeInvalidArgument, fmt.Sprintf("%s %s does not exist", arg, Clip(path)), "pass the path of an existing file")
		}
		return NewError(CodeInvalidArgument, fmt.Sprintf("cannot read %s %s: %v", arg, Clip(path), errors.Unwrap(err)), "pass the path of a readable file").Wrap(err)
	}
	switch {
	case st.IsDir():
		if dirOK {
			return nil
		}
		return NewError(CodeInvalidArgument, fmt.Sprintf("%s %s is a directory", arg, Clip(path)), "pass the path of a source file")
	case !st.Mode().IsRegular():
		return NewError(CodeInvalidArgument, fmt.Sprintf("%s %s is not a regular file (%s)", arg, Clip(path), FileKind(st.Mode())),
			"pass the path of a regular file; devices, pipes and sockets are never read")
	case onSpecialFS(path):
		return NewError(CodeInvalidArgument, fmt.Sprintf("%s %s is a file of the kernel (/proc or /sys), not a source file", arg, Clip(path)),
			"pass the path of a regular file on disk")
	case maxBytes > 0 && st.Size() > maxBytes:
		return NewError(CodeInvalidArgument, fmt.Sprintf("%s %s is %d bytes; the limit is %d bytes", arg, Clip(path), st.Size(), maxBytes),
			"pass a smaller file")
	}
	return nil
}

// FileKind names what a file that is not a regular file is, for an
// error message.
func FileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeDevice != 0 && m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}
