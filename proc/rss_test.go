package proc

import (
	"errors"
	"os"
	"testing"
)

func TestParseRSS(t *testing.T) {
	got, err := ParseRSS(statusText + "VmPeak:\t  9000 kB\nVmRSS:\t    1234 kB\nRssAnon:\t 1000 kB\n")
	if err != nil || got != 1234*1024 {
		t.Errorf("ParseRSS = %d, %v; want %d", got, err, 1234*1024)
	}
	if _, err := ParseRSS(statusText); !errors.Is(err, ErrNoRSS) {
		t.Errorf("ParseRSS without VmRSS: %v, want ErrNoRSS", err)
	}
	for _, bad := range []string{"VmRSS:\n", "VmRSS:\t12\n", "VmRSS:\t12 MB\n", "VmRSS:\tx kB\n", "VmRSS:\t-1 kB\n", "VmRSS:\t1 2 kB\n"} {
		if n, err := ParseRSS(bad); err == nil || errors.Is(err, ErrNoRSS) {
			t.Errorf("ParseRSS(%q) = %d, %v; want a parse error", bad, n, err)
		}
	}
}

func TestRSSSelf(t *testing.T) {
	needProc(t)
	n, err := RSS(os.Getpid())
	if err != nil || n < 1<<20 {
		t.Errorf("RSS(self) = %d, %v; want at least a megabyte", n, err)
	}
	if _, err := RSS(missingPID); err == nil {
		t.Error("RSS of a missing pid succeeded")
	}
}
