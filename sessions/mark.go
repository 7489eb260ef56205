package sessions

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"slices"

	"github.com/dbg-dev/dbg/proc"
)

// A launched program's process tree is not all of what it started: a
// process can leave it (its parent killed while it was being started,
// before the adapter named it, or one that detaches itself), and is then
// a child of init. Every launched debuggee therefore carries its
// session's mark in its environment, which what it starts inherits; at
// close, at restart and after a crash (through the session's record) the
// processes that hold the mark are killed with the session's tree.

// MarkEnv is the variable of a launched debuggee's environment that holds
// its session's mark.
const MarkEnv = "DBG_SESSION_MARK"

// newMark returns a mark no other session has.
func newMark() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// withMark returns a copy of env with the mark added.
func withMark(env map[string]string, mark string) map[string]string {
	out := make(map[string]string, len(env)+1)
	for k, v := range env {
		out[k] = v
	}
	out[MarkEnv] = mark
	return out
}

// marked lists the processes whose environment holds mark (this
// server's own never does).
func marked(mark string) []int {
	if mark == "" {
		return nil
	}
	want := MarkEnv + "=" + mark
	var out []int
	for _, pid := range proc.PIDs() {
		if pid == os.Getpid() {
			continue
		}
		if env, err := proc.Environ(pid); err == nil && slices.Contains(env, want) {
			out = append(out, pid)
		}
	}
	return out
}
