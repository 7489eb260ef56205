// Package proc is dbg's one reader of /proc and its one way to stop a
// process group. It imports nothing else of dbg, so every layer (the DAP
// transport, the adapters, the session manager, the tools) can use it.
//
// # Reading processes
//
// [ReadStat] parses /proc/PID/stat (state, parent, process group, start
// time) and [ReadStatus] the ids in /proc/PID/status; both parsers also
// take the text itself ([ParseStat], [ParseStatus]); [RSS] reads the
// resident memory from the same file ([ParseRSS]). [Cmdline], [Exe],
// [Cwd], [Environ] and [Comm] read the other files dbg looks at,
// [Descendants] walks a process tree, [PIDs] lists every process and
// [BootID] names this boot of the machine. A process is known by its pid
// and its [StartTime] together: a pid is reused, the pair is not.
//
// Where there is no /proc (outside Linux) the readers fail or find
// nothing; none of them panics.
//
//	st, err := proc.ReadStat(pid)
//	if err == nil && st.State != 'Z' {
//		fmt.Println(pid, "runs in group", st.PGID)
//	}
//
// # Stopping processes
//
// [StopGroup] ends a process group politely, then firmly: a polite signal
// (SIGTERM unless told otherwise), a grace period that ctx can cut short,
// then SIGKILL to the whole group. [KillGroup] is the immediate SIGKILL
// and [KillAll] kills a list of processes with the groups they lead. None
// of them ever signals dbg's own process group, nor the group ids 0 and 1,
// which mean "every process" to kill(2).
package proc
