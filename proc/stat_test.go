package proc

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// statLine is a /proc/PID/stat line with the given head fields; the rest
// are as the kernel writes them for a sleeping shell.
func statLine(pid int, comm string, state byte, ppid, pgid int, start uint64) string {
	return fmt.Sprintf("%d (%s) %c %d %d %d 0 -1 4194560 107 0 0 0 0 0 0 0 20 0 1 0 %d 8744960 230 18446744073709551615 1 1 0 0 0 0 0 0 65536 0 0 0 17 1 0 0 0 0 0",
		pid, comm, state, ppid, pgid, pgid, start)
}

func TestParseStat(t *testing.T) {
	for _, want := range []Stat{
		{PID: 42, Comm: "sleep", State: 'S', PPID: 1, PGID: 42, StartTime: 123456},
		{PID: 7, Comm: "a) (b", State: 'Z', PPID: 3, PGID: 2, StartTime: 0},
		{PID: 9, Comm: "with spaces ) and )", State: 'R', PPID: 0, PGID: 0, StartTime: 1 << 40},
		{PID: 10, Comm: "", State: 'T', PPID: 2, PGID: 10, StartTime: 5},
	} {
		want.Flags, want.ExitStatus = 4194560, -1 // as statLine writes them; its line is too short for an exit status
		got, err := ParseStat(statLine(want.PID, want.Comm, want.State, want.PPID, want.PGID, want.StartTime) + "\n")
		if err != nil || got != want {
			t.Errorf("ParseStat = %+v, %v; want %+v", got, err, want)
		}
	}
	// A zombie's exit status is field 52; PF_EXITING is bit 2 of field 9.
	zombie := "8 (gone) Z 1 8 8 0 -1 4194564" + strings.Repeat(" 0", 12) + " 77" + strings.Repeat(" 0", 29) + " 9"
	if st, err := ParseStat(zombie); err != nil || st.ExitStatus != 9 || st.StartTime != 77 || !st.Exiting() {
		t.Errorf("zombie: %+v, %v; want exit status 9 (SIGKILL), start 77, exiting", st, err)
	}
	// utime and stime are fields 14 and 15, in hundredths of a second.
	busy := "5 (busy) R 1 5 5 0 -1 4194304 0 0 0 0 250 50" + strings.Repeat(" 0", 6) + " 99" + strings.Repeat(" 0", 10)
	if st, err := ParseStat(busy); err != nil || st.CPU != 3*time.Second || st.StartTime != 99 {
		t.Errorf("busy: %+v, %v; want 3s of cpu, start 99", st, err)
	}
	for _, bad := range []string{
		"", "42", "42 sleep S 1 2", "42 (sleep S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20",
		"42 (sleep) S 1 2 3", "x (sleep)" + strings.Repeat(" 1", 20),
		"42 (sleep) SS" + strings.Repeat(" 1", 19), "42 (sleep) S x" + strings.Repeat(" 1", 18),
		"42 (sleep) S 1 x" + strings.Repeat(" 1", 17), "42 (sleep) S" + strings.Repeat(" 1", 18) + " -5",
		") 42 (", "-3 (sleep) S" + strings.Repeat(" 1", 19),
	} {
		if st, err := ParseStat(bad); err == nil {
			t.Errorf("ParseStat(%q) = %+v, want an error", bad, st)
		}
	}
}

func TestReadStatSelf(t *testing.T) {
	needProc(t)
	st, err := ReadStat(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if st.PID != os.Getpid() || st.PPID != os.Getppid() || st.State == 'Z' || st.StartTime == 0 {
		t.Errorf("ReadStat(self) = %+v", st)
	}
	// A process that has run a while has used processor time.
	for spin := time.Now(); time.Since(spin) < 50*time.Millisecond; {
	}
	if st, err := ReadStat(os.Getpid()); err != nil || st.CPU <= 0 {
		t.Errorf("ReadStat(self) after 50ms of spinning: cpu %v, %v", st.CPU, err)
	}
	if !Alive(os.Getpid()) || StartTime(os.Getpid()) == "" {
		t.Error("this process is neither alive nor started")
	}
	if _, err := ReadStat(missingPID); err == nil || !strings.Contains(err.Error(), ErrNoProcess.Error()) {
		t.Errorf("ReadStat of a missing pid: %v", err)
	}
	if Alive(missingPID) || Alive(0) || Alive(-1) || StartTime(missingPID) != "" {
		t.Error("a missing pid reads as alive")
	}
}

func FuzzParseStat(f *testing.F) {
	f.Add(statLine(42, "sleep", 'S', 1, 42, 123))
	f.Add(statLine(7, "a) (b", 'Z', 3, 2, 0))
	f.Add("1 (init) S 0 1 1 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 2")
	f.Add("42 (x")
	f.Add(") (")
	f.Fuzz(func(t *testing.T, text string) {
		st, err := ParseStat(text)
		if err != nil {
			if st != (Stat{}) {
				t.Fatalf("an error came with a non-zero Stat %+v", st)
			}
			return
		}
		if strings.ContainsRune(st.Comm, 0) && !strings.ContainsRune(text, 0) {
			t.Fatalf("command name %q is not from the text", st.Comm)
		}
		again, err := ParseStat(statLine(st.PID, st.Comm, st.State, st.PPID, st.PGID, st.StartTime))
		if st.CPU < 0 {
			t.Fatalf("ParseStat(%q): negative processor time %v", text, st.CPU)
		}
		// statLine writes fixed flags and times and no exit status: the
		// fields it takes must come back.
		again.Flags, again.ExitStatus, again.CPU = st.Flags, st.ExitStatus, st.CPU
		if err != nil || again != st {
			t.Fatalf("ParseStat(%q) = %+v, which writes back as %+v, %v", text, st, again, err)
		}
	})
}
