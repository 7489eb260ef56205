package proc

import (
	"os"
	"syscall"
	"testing"
)

const statusText = `Name:	java
Umask:	0022
State:	S (sleeping)
Tgid:	4242
NSpid:	4242	17
Pid:	4242
PPid:	1
Uid:	1000	1001	1002	1003
Gid:	2000	2001	2002	2003
Groups:	4 24 27
`

func TestParseStatus(t *testing.T) {
	got, err := ParseStatus(statusText)
	if want := (Status{UID: 1001, GID: 2001, NSPID: 17}); err != nil || got != want {
		t.Errorf("ParseStatus = %+v, %v; want %+v", got, err, want)
	}
	got, err = ParseStatus("Uid:\t0\t0\t0\t0\nGid:\t5\t6\t5\t5\n")
	if want := (Status{UID: 0, GID: 6}); err != nil || got != want {
		t.Errorf("ParseStatus without NSpid = %+v, %v; want %+v", got, err, want)
	}
	for _, bad := range []string{"", "Name:\tx\n", "Uid:\t1\t1\n", "Gid:\t1\t1\n", "Uid:\t1\nGid:\t1\t1\n",
		"Uid:\tx\tx\nGid:\t1\t1\n", "Uid:\t1\t1\nGid:\t1\t1\nNSpid:\n", "Uid:\t1\t1\nGid:\t1\t1\nNSpid:\tq\n",
		"Uid:\t1\t-1\nGid:\t1\t1\n", "Uid:\t1\t1\nGid:\t1\t1\nNSpid:\t0\n"} {
		if st, err := ParseStatus(bad); err == nil {
			t.Errorf("ParseStatus(%q) = %+v, want an error", bad, st)
		}
	}
}

func TestReadStatusSelf(t *testing.T) {
	needProc(t)
	st, err := ReadStatus(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if st.UID != os.Geteuid() || st.GID != os.Getegid() {
		t.Errorf("ReadStatus(self) = %+v, want uid %d gid %d", st, os.Geteuid(), os.Getegid())
	}
	if _, err := ReadStatus(missingPID); err == nil {
		t.Error("ReadStatus of a missing pid succeeded")
	}
}

func FuzzParseStatus(f *testing.F) {
	f.Add(statusText)
	f.Add("Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n")
	f.Add("NSpid:\t1\t2\t3\nUid: 1 2\nGid: 3 4\n")
	f.Add("Uid:")
	f.Fuzz(func(t *testing.T, text string) {
		st, err := ParseStatus(text)
		if err != nil {
			if st != (Status{}) {
				t.Fatalf("an error came with a non-zero Status %+v", st)
			}
			return
		}
		if st.UID < 0 || st.GID < 0 || st.NSPID < 0 {
			t.Fatalf("ParseStatus(%q) = %+v: negative id", text, st)
		}
		if p, err := ParsePendingSignals(text); err != nil || p != st.Pending {
			t.Fatalf("ParsePendingSignals(%q) = %x, %v; ParseStatus's pending %x", text, p, err, st.Pending)
		}
	})
}

func TestStatusPendingSignals(t *testing.T) {
	st, err := ParseStatus("Name:\tx\nUid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\nSigPnd:\t0000000000000000\nShdPnd:\t0000000000000100\n")
	if err != nil {
		t.Fatal(err)
	}
	if !st.SignalPending(syscall.SIGKILL) || st.SignalPending(syscall.SIGTERM) {
		t.Errorf("pending %x: want SIGKILL (bit 8) only", st.Pending)
	}
	if _, err := ParseStatus("Uid:\t0\t0\nGid:\t0\t0\nSigPnd:\tzz\n"); err == nil {
		t.Error("a bad SigPnd line parsed")
	}
	for text, want := range map[string]uint64{
		statusText: 0,
		"Name:\tx\nSigPnd:\t0000000000000001\nShdPnd:\t0000000000000100\nSigBlk:\tffff\n": 0x101,
		"ShdPnd:\t0000000000004000":             0x4000, // SIGTERM, on the first line, without a newline
		"XigPnd:\t1\nSigPnd:\t\nShdPnd:\t1 2\n": 0,      // not the lines, or not one value
	} {
		if got, err := ParsePendingSignals(text); err != nil || got != want {
			t.Errorf("ParsePendingSignals(%q) = %x, %v; want %x", text, got, err, want)
		}
	}
	if _, err := ParsePendingSignals("ShdPnd:\tzz\n"); err == nil {
		t.Error("ParsePendingSignals: a bad ShdPnd line parsed")
	}
	needProc(t)
	if p, err := PendingSignals(os.Getpid()); err != nil || SignalIn(p, syscall.SIGKILL) {
		t.Errorf("PendingSignals(self) = %x, %v: want no SIGKILL", p, err)
	}
	if _, err := PendingSignals(missingPID); err == nil {
		t.Error("PendingSignals of a missing pid succeeded")
	}
}
