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
// each: pid, uid, executable, the marks ($@) its executable holds (for
// at most 48 executables outside the system's folders), and its command
// line (arguments joined by \037); then "dbg-users" with uid:name pairs.
// It leaves out kernel threads and itself.
const listScript = `LC_ALL=C; export LC_ALL
n=0
for d in /proc/[0-9]*; do
	pid=${d#/proc/}
	[ "$pid" = "$$" ] && continue
	st=$(cat "$d/status" 2>/dev/null) || continue
	ppid=$(printf '%s\n' "$st" | sed -n 's/^PPid:[[:space:]]*//p')
	[ "$ppid" = "$$" ] && continue
	args=$(tr '\000\n\t' '\037  ' <"$d/cmdline" 2>/dev/null)
	[ -n "$args" ] || continue
	uid=$(printf '%s\n' "$st" | sed -n 's/^Uid:[[:space:]]*\([0-9]*\).*/\1/p')
	exe=$(readlink "$d/exe" 2>/dev/null)
	marks=
	case "$exe" in
	"" | /usr/lib/* | /usr/libexec/* | /usr/sbin/* | /sbin/* | /lib/* | /lib64/* | /usr/lib64/*) ;;
	*) if [ "$n" -lt 48 ] && [ -r "$exe" ]; then
		n=$((n + 1))
		for m in "$@"; do grep -q -a -F -e "$m" "$exe" 2>/dev/null && marks="$marks$m$(printf '\037')"; done
	fi ;;
	esac
	printf 'dbg-p %s\t%s\t%s\t%s\t%s\n' "$pid" "$uid" "$exe" "$marks" "$args"
done
printf 'dbg-users '
awk -F: '{ printf "%s:%s\037", $3, $1 }' /etc/passwd 2>/dev/null
echo
`

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
	list, err = x.processes(ctx, v, all)
	if cut = len(list) > maxListed; cut {
		list = list[:maxListed]
	}
	return list, cut, err
}

// FindProcess is process pid of v's target, as ListProcesses lists it.
func (x *Remote) FindProcess(ctx context.Context, v sessions.Via, pid int) (RemoteProcess, bool, error) {
	list, err := x.processes(ctx, v, true)
	if err != nil {
		return RemoteProcess{}, false, err
	}
	i := slices.IndexFunc(list, func(p RemoteProcess) bool { return p.PID == pid })
	if i < 0 {
		return RemoteProcess{}, false, nil
	}
	return list[i], true, nil
}

func (x *Remote) processes(ctx context.Context, v sessions.Via, all bool) ([]RemoteProcess, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout(v))
	defer cancel()
	tg, err := x.open(ctx, v)
	if err != nil {
		return nil, err
	}
	defer tg.close(context.WithoutCancel(ctx))
	out, err := tg.exec(ctx, listScript, x.cfg.Adapters.RemoteMarks()...)
	if err != nil {
		return nil, err
	}
	return x.parseList(out, all), nil
}

// parseList reads listScript's output.
func (x *Remote) parseList(out string, all bool) []RemoteProcess {
	users := map[string]string{}
	var rows [][]string
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(line, "dbg-users "); ok {
			for _, pair := range strings.Split(rest, "\x1f") {
				if uid, name, ok := strings.Cut(pair, ":"); ok {
					users[uid] = name
				}
			}
			continue
		}
		if rest, ok := strings.CutPrefix(line, "dbg-p "); ok {
			if f := strings.SplitN(rest, "\t", 5); len(f) == 5 {
				rows = append(rows, f)
			}
		}
	}
	var list []RemoteProcess
	for _, f := range rows {
		pid, err := strconv.Atoi(f[0])
		if err != nil {
			continue
		}
		marks := strings.Split(f[3], "\x1f")
		argv := strings.Split(strings.TrimSuffix(f[4], "\x1f"), "\x1f")
		lang, _ := x.cfg.Adapters.DetectRemote(f[2], argv, func(m string) bool { return slices.Contains(marks, m) })
		if lang == "" && !all {
			continue
		}
		user := users[f[1]]
		if user == "" {
			user = f[1]
		}
		list = append(list, RemoteProcess{PID: pid, User: user, Language: lang, Command: textcut.Clip(strings.Join(argv, " "), 200)})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].PID < list[j].PID })
	return list
}
