package dap

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dbg-dev/dbg/safefs"
	"github.com/dbg-dev/dbg/safefs/attacker"
)

// Finding 10: a DBG_DAP_LOG folder another user made, or a log file she
// made first (mode 0666) in a folder of ours, never receives the
// traffic; a redact function rewrites what is written.
func TestTrafficLogRefusesOtherUsersFiles(t *testing.T) {
	eve := attacker.New(t)
	shared := attacker.SharedTemp(t)
	hers := filepath.Join(shared, "logs")
	eve.MustRun(t, "sh", "-c", "mkdir -m 777 "+hers+" && chmod 777 "+hers)
	if l, err := OpenTrafficLog(hers, "s1", nil); !errors.Is(err, safefs.ErrUnsafe) {
		l.Close()
		t.Fatalf("a log folder of hers: %v, want ErrUnsafe", err)
	}
	mine := t.TempDir()
	_ = os.Chmod(mine, 0o755)
	planted := filepath.Join(mine, "s2.jsonl")
	if err := os.WriteFile(planted, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	_ = os.Chmod(planted, 0o666)
	_ = os.Chown(planted, eve.UID, eve.GID)
	if l, err := OpenTrafficLog(mine, "s2", nil); !errors.Is(err, safefs.ErrUnsafe) {
		l.Close()
		t.Fatalf("a log file she made first: %v, want ErrUnsafe", err)
	}
	if b, _ := os.ReadFile(planted); len(b) != 0 {
		t.Fatalf("her file received %q", b)
	}
	l, err := OpenTrafficLog(mine, "s3", func(b []byte) []byte { return []byte(strings.ReplaceAll(string(b), "hunter2", "X")) })
	if err != nil {
		t.Fatal(err)
	}
	l.Record("recv", []byte(`{"value":"hunter2"}`))
	l.Close()
	if b, _ := os.ReadFile(filepath.Join(mine, "s3.jsonl")); strings.Contains(string(b), "hunter2") || !strings.Contains(string(b), `"X"`) {
		t.Fatalf("the log holds %q", b)
	}
}
