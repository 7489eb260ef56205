package remote

import (
	"context"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/textcut"
)

// listScript lists the target's processes from /proc, one "dbg-p" line
// each: pid, uid, executable and command line (arguments joined by
// \037); then "dbg-users" with uid:name pairs. It leaves out kernel
// threads and itself. It reads each process's status with the shell's
// own read and runs one tr and one readlink per process: a host runs
// hundreds.
const listScript = `for d in /proc/[0-9]*; do
	pid=${d#/proc/}
	[ "$pid" = "$$" ] && continue
	ppid= uid=
	{ while IFS= read -r line; do
		case $line in
		PPid:*) set -- ${line#PPid:}; ppid=$1 ;;
		Uid:*) set -- ${line#Uid:}; uid=$1; break ;;
		esac
	done <"$d/status"; } 2>/dev/null || continue
	[ -n "$uid" ] || continue
	[ "$ppid" = "$$" ] && continue
	args=$(tr '\000\n\t' '\037  ' <"$d/cmdline" 2>/dev/null)
	[ -n "$args" ] || continue
	printf 'dbg-p %s\t%s\t%s\t%s\n' "$pid" "$uid" "$(readlink "$d/exe" 2>/dev/null)" "$args"
done
printf 'dbg-users '
awk -F: '{ printf "%s:%s\037", $3, $1 }' /etc/passwd 2>/dev/null
echo
`

// marksScript says which of the marks (the arguments after "--") each
// executable (the arguments before it) holds: one "dbg-m" line each,
// the executable then its marks, joined by \037. One grep reads each
// executable once for all the marks.
const marksScript = `LC_ALL=C; export LC_ALL
n=0
for a in "$@"; do [ "$a" = "--" ] && break; n=$((n + 1)); done
pats=
j=0
for m in "$@"; do
	j=$((j + 1))
	[ "$j" -gt $((n + 1)) ] || continue
	[ -z "$pats" ] || pats="$pats
"
	pats=$pats$m
done
[ -n "$pats" ] || pats=$(printf '\037none\037')
i=0
for exe in "$@"; do
	i=$((i + 1))
	[ "$i" -gt "$n" ] && break
	found=$(grep -a -o -F -e "$pats" "$exe" 2>/dev/null | awk '!seen[$0]++ { printf "\037%s", $0 }')
	printf 'dbg-m %s%s\n' "$exe" "$found"
done
`

// maxMarked bounds how many executables a listing reads for marks.
const maxMarked = 64

// RemoteProcess is one process of a target, for the picker.
type RemoteProcess struct {
	PID      int    `json:"pid"`
	User     string `json:"user"`
	Language string `json:"language,omitempty"`
	Command  string `json:"command"`
}

// maxListed bounds list_remote_processes' answer.
const maxListed = 200

// ListProcesses lists the processes of v's target with their language
// where dbg tells it (all: also those it does not), at most maxListed;
// cut says some were left out.
func (x *Remote) ListProcesses(ctx context.Context, v sessions.Via, all bool) (list []RemoteProcess, cut bool, err error) {
	list, err = x.processes(ctx, v, all, 0)
	if cut = len(list) > maxListed; cut {
		list = list[:maxListed]
	}
	return list, cut, err
}

// FindProcess is process pid of v's target, as ListProcesses lists it.
func (x *Remote) FindProcess(ctx context.Context, v sessions.Via, pid int) (RemoteProcess, bool, error) {
	list, err := x.processes(ctx, v, true, pid)
	if err != nil {
		return RemoteProcess{}, false, err
	}
	i := slices.IndexFunc(list, func(p RemoteProcess) bool { return p.PID == pid })
	if i < 0 {
		return RemoteProcess{}, false, nil
	}
	return list[i], true, nil
}

func (x *Remote) processes(ctx context.Context, v sessions.Via, all bool, only int) ([]RemoteProcess, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout(v))
	defer cancel()
	tg, err := x.open(ctx, v)
	if err != nil {
		return nil, err
	}
	defer tg.close(context.WithoutCancel(ctx))
	out, err := tg.exec(ctx, listScript)
	if err != nil {
		return nil, err
	}
	procs, users := parseList(out)
	if only != 0 {
		procs = slices.DeleteFunc(procs, func(p listed) bool { return p.pid != only })
	}
	marks, err := x.marks(ctx, tg, procs)
	if err != nil {
		return nil, err
	}
	var list []RemoteProcess
	for _, p := range procs {
		lang, _ := x.cfg.Adapters.DetectRemote(p.exe, p.argv, func(m string) bool { return slices.Contains(marks[p.exe], m) })
		if lang == "" && !all {
			continue
		}
		user := users[p.uid]
		if user == "" {
			user = p.uid
		}
		list = append(list, RemoteProcess{PID: p.pid, User: user, Language: lang, Command: textcut.Clip(strings.Join(p.argv, " "), 200)})
	}
	return list, nil
}

// marks reads the marks of the executables whose name does not tell
// their language (outside the system's folders), the newest processes'
// first, at most maxMarked.
func (x *Remote) marks(ctx context.Context, tg target, procs []listed) (map[string][]string, error) {
	var exes []string
	for i := len(procs) - 1; i >= 0 && len(exes) < maxMarked; i-- {
		p := procs[i]
		if p.exe == "" || systemPath(p.exe) || slices.Contains(exes, p.exe) {
			continue
		}
		if _, ok := x.cfg.Adapters.DetectRemote(p.exe, p.argv, func(string) bool { return false }); ok {
			continue
		}
		exes = append(exes, p.exe)
	}
	out := map[string][]string{}
	if len(exes) == 0 {
		return out, nil
	}
	res, err := tg.exec(ctx, marksScript, append(append(exes, "--"), x.cfg.Adapters.RemoteMarks()...)...)
	if err != nil {
		return nil, err
	}
	for _, line := range strings.Split(res, "\n") {
		if rest, ok := strings.CutPrefix(line, "dbg-m "); ok {
			f := strings.Split(rest, "\x1f")
			out[f[0]] = f[1:]
		}
	}
	return out, nil
}

// systemPath reports whether exe is in a folder of the system's own
// programs, whose language nobody debugs.
func systemPath(exe string) bool {
	for _, p := range []string{"/usr/lib/", "/usr/libexec/", "/usr/sbin/", "/sbin/", "/lib/", "/lib64/", "/usr/lib64/"} {
		if strings.HasPrefix(exe, p) {
			return true
		}
	}
	return false
}

// listed is one line of listScript.
type listed struct {
	pid      int
	uid, exe string
	argv     []string
}

// parseList reads listScript's output: the processes by pid, and the
// users by uid.
func parseList(out string) ([]listed, map[string]string) {
	users := map[string]string{}
	var procs []listed
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(line, "dbg-users "); ok {
			for _, pair := range strings.Split(rest, "\x1f") {
				if uid, name, ok := strings.Cut(pair, ":"); ok {
					users[uid] = name
				}
			}
			continue
		}
		rest, ok := strings.CutPrefix(line, "dbg-p ")
		if !ok {
			continue
		}
		f := strings.SplitN(rest, "\t", 4)
		if len(f) != 4 {
			continue
		}
		pid, err := strconv.Atoi(f[0])
		if err != nil {
			continue
		}
		procs = append(procs, listed{pid: pid, uid: f[1], exe: f[2], argv: strings.Split(strings.TrimSuffix(f[3], "\x1f"), "\x1f")})
	}
	sort.Slice(procs, func(i, j int) bool { return procs[i].pid < procs[j].pid })
	return procs, users
}
