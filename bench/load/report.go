package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/proc"
	"github.com/dbg-dev/dbg/sessions"
)

// Report is what one load run measured.
type Report struct {
	Config      Config
	CPUs        int
	Began       time.Time
	Elapsed     time.Duration
	LoadAverage string
	Sessions    int

	Single, Loaded *recorder

	Idle, Start, End holdings
	HeapPerSession   int64
	Memory           []perSession

	RunCPU, PausedCPU cpuUse
	SingleCPU         cpuUse        // while one client looped alone
	SingleTime        time.Duration // how long it did

	AllListed, AllOwned   int    // list_debug_sessions all: true at the end
	ForeignAudited        int    // audit lines of calls on another client's session
	ProfileTop, PausedTop string // the CPU profiles' heads: loaded, every session paused
}

// holdings is what the server holds at one moment.
type holdings struct {
	Goroutines, FDs, Children int
	RSS, Heap                 int64
	fdLinks                   map[string]int // what the descriptors are, by kind
}

func snapshot(*sessions.Manager) holdings {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fds, _ := os.ReadDir("/proc/self/fd")
	links := map[string]int{}
	for _, fd := range fds {
		l, _ := os.Readlink("/proc/self/fd/" + fd.Name())
		if i := strings.IndexByte(l, ':'); i > 0 && !strings.HasPrefix(l, "/") {
			l = l[:i] // socket:[123] → socket
		}
		links[l]++
	}
	rss, _ := proc.RSS(os.Getpid())
	return holdings{Goroutines: runtime.NumGoroutine(), FDs: len(fds), Children: len(descendants(os.Getpid())), RSS: rss, Heap: int64(ms.HeapInuse), fdLinks: links}
}

// settle waits up to d for the goroutines and descriptors to come back
// to base (a call's goroutines end just after its answer), and returns
// the last snapshot.
func settle(m *sessions.Manager, base holdings, d time.Duration) holdings {
	deadline := time.Now().Add(d)
	for {
		h := snapshot(m)
		if (h.Goroutines <= base.Goroutines && h.FDs <= base.FDs) || time.Now().After(deadline) {
			return h
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func descendants(pid int) []int { return proc.Descendants(pid) }

func rssOf(pid int) int64 { r, _ := proc.RSS(pid); return r }

// cpuMark is the CPU time used so far by this process (dbg's server
// and the load's clients) and by its descendants (adapters, programs).
type cpuMark struct {
	self, others time.Duration
	at           time.Time
}

// cpuUse is the CPU used between two marks, as a share of one core.
type cpuUse struct {
	Self, Others float64
}

func treeCPU() cpuMark {
	m := cpuMark{self: cpuOf(os.Getpid()), at: time.Now()}
	for _, pid := range descendants(os.Getpid()) {
		m.others += cpuOf(pid)
	}
	return m
}

func (m cpuMark) since(from cpuMark) cpuUse {
	wall := m.at.Sub(from.at).Seconds()
	if wall <= 0 {
		return cpuUse{}
	}
	others := (m.others - from.others).Seconds()
	if others < 0 {
		others = 0 // processes that ended took their time with them
	}
	return cpuUse{Self: (m.self - from.self).Seconds() / wall, Others: others / wall}
}

// cpuOf reads a process's user and system time from /proc/PID/stat.
func cpuOf(pid int) time.Duration {
	b, err := readAll(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ
}

func pct(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[int(float64(len(s)-1)*p)]
}

func ms(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e6, 'f', 1, 64) + " ms" }

// loopTools are the tools of a pass, in order.
var loopTools = []string{"get_local_variables", "step_over", "evaluate_expression", "continue_execution", "wait_for_stop", "list_debug_sessions"}

// Failed returns what misses the targets that a test asserts: errors,
// growth, isolation.
func (r *Report) Failed() []string {
	var out []string
	if n := len(r.Loaded.Errors()) + len(r.Single.Errors()); n > 0 {
		out = append(out, fmt.Sprintf("%d errors", n))
	}
	if f := append(r.Single.Foreign(), r.Loaded.Foreign()...); len(f) > 0 {
		out = append(out, fmt.Sprintf("clients saw %d other clients' sessions unasked", len(f)))
	}
	if r.End.Goroutines > r.Start.Goroutines {
		out = append(out, fmt.Sprintf("goroutines grew from %d to %d", r.Start.Goroutines, r.End.Goroutines))
	}
	if r.End.FDs > r.Start.FDs {
		var grew []string
		for k, n := range r.End.fdLinks {
			if d := n - r.Start.fdLinks[k]; d > 0 {
				grew = append(grew, fmt.Sprintf("%d more %s", d, k))
			}
		}
		sort.Strings(grew)
		out = append(out, fmt.Sprintf("file descriptors grew from %d to %d (%s)", r.Start.FDs, r.End.FDs, strings.Join(grew, ", ")))
	}
	if r.AllListed != r.Sessions || r.AllOwned != r.Sessions-len(r.Config.Langs) {
		out = append(out, fmt.Sprintf("all: true listed %d sessions, %d with an owner; want %d, %d", r.AllListed, r.AllOwned, r.Sessions, r.Sessions-len(r.Config.Langs)))
	}
	if r.ForeignAudited == 0 {
		out = append(out, "the call on another client's session left no audit line")
	}
	return out
}

// targets says, for each tool, whether its p99 is within 3× its p50 and
// its p50 within 2× the single-client median; for a tail it names the
// language whose calls make it.
func (r *Report) targets() string {
	var miss []string
	for _, t := range loopTools[:5] {
		l := r.Loaded.lat[t]
		if len(l) == 0 {
			continue
		}
		p50, p99, s50 := pct(l, .5), pct(l, .99), pct(r.Single.lat[t], .5)
		if p99 > 3*p50 {
			slow, slow99 := "", time.Duration(0)
			for _, lang := range r.Config.Langs {
				if d := pct(r.Loaded.lat[t+"/"+lang], .99); d > slow99 {
					slow, slow99 = lang, d
				}
			}
			lp50 := pct(r.Loaded.lat[t+"/"+slow], .5)
			miss = append(miss, fmt.Sprintf("%s p99 %s > 3× p50 %s: the tail is %s's calls (its own p50 %s, p99 %s, %.1f×)",
				t, ms(p99), ms(p50), slow, ms(lp50), ms(slow99), float64(slow99)/float64(max(lp50, 1))))
		}
		if s50 > 0 && p50 > 2*s50 {
			miss = append(miss, fmt.Sprintf("%s p50 %s > 2× the single-client %s", t, ms(p50), ms(s50)))
		}
	}
	if len(miss) == 0 {
		return "Targets met: every tool's p99 within 3× its p50, and its p50 within 2× one client's alone.\n"
	}
	return "Targets missed:\n\n- " + strings.Join(miss, "\n- ") + "\n"
}

// Markdown renders the report.
func (r *Report) Markdown() string {
	var b strings.Builder
	c := r.Config
	fmt.Fprintf(&b, "# Many agents on one server\n\n")
	fmt.Fprintf(&b, "%d MCP clients over Streamable HTTP (loopback, bearer token, one connection each) on one dbg server, each with %d sessions (%s), every session looping locals → step_over ×%d → evaluate → continue → stop at its breakpoint, side by side, for %s; before that, one client alone for %s (the single-client medians). %s, %d CPUs, load average at the end %s.\n\n",
		c.Clients, len(c.Langs), strings.Join(c.Langs, ", "), c.Steps, r.Elapsed.Round(time.Second), c.Baseline, r.Began.UTC().Format("2006-01-02"), r.CPUs, r.LoadAverage)
	fmt.Fprintf(&b, "Passes: %d loaded, %d single-client. Errors: %d. Other clients' sessions seen unasked: %d.\n\n", r.Loaded.passes.Load(), r.Single.passes.Load(), len(r.Loaded.Errors())+len(r.Single.Errors()), len(r.Loaded.Foreign()))

	fmt.Fprintln(&b, "| tool | calls | p50 | p99 | p99/p50 | single-client p50 | p50/single |")
	fmt.Fprintln(&b, "|---|---|---|---|---|---|---|")
	for _, t := range loopTools {
		l := r.Loaded.lat[t]
		if len(l) == 0 {
			continue
		}
		p50, p99, s50 := pct(l, .5), pct(l, .99), pct(r.Single.lat[t], .5)
		single, ratio := "—", "—"
		if s50 > 0 {
			single, ratio = ms(s50), fmt.Sprintf("%.2f", float64(p50)/float64(s50))
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %.2f | %s | %s |\n", t, len(l), ms(p50), ms(p99), float64(p99)/float64(max(p50, 1)), single, ratio)
	}
	fmt.Fprintln(&b)
	if t := r.targets(); t != "" {
		b.WriteString(t + "\n")
	}
	fmt.Fprintln(&b, "By language (where a tail comes from):")
	fmt.Fprintln(&b)
	fmt.Fprintf(&b, "| tool | %s |\n|---|%s\n", strings.Join(c.Langs, " p50 / p99 | ")+" p50 / p99", strings.Repeat("---|", len(c.Langs)))
	for _, t := range loopTools[:5] {
		fmt.Fprintf(&b, "| %s |", t)
		for _, l := range c.Langs {
			d := r.Loaded.lat[t+"/"+l]
			fmt.Fprintf(&b, " %s / %s |", ms(pct(d, .5)), ms(pct(d, .99)))
		}
		fmt.Fprintln(&b)
	}
	fmt.Fprintln(&b)
	fmt.Fprintf(&b, "CPU during the loaded phase, in cores: this process (dbg's server and the load's clients) %.2f, the adapters and programs %.2f.\n\n", r.RunCPU.Self, r.RunCPU.Others)
	if n, ln := r.Single.passes.Load(), r.Loaded.passes.Load(); n > 0 && ln > 0 && r.SingleTime > 0 {
		per := func(u cpuUse, d time.Duration, passes int) (float64, float64) {
			return u.Self * d.Seconds() * 1000 / float64(passes), u.Others * d.Seconds() * 1000 / float64(passes)
		}
		s1, o1 := per(r.SingleCPU, r.SingleTime, n)
		s2, o2 := per(r.RunCPU, r.Elapsed, ln)
		fmt.Fprintf(&b, "CPU per pass, in ms: one client alone (%.2f cores in all) this process %.1f, the adapters and programs %.1f; loaded (%.2f of the %d cores) %.1f and %.1f. "+
			"Where a pass costs the same CPU loaded as alone, the loaded latencies are the wait for a core, not work dbg added.\n\n",
			r.SingleCPU.Self+r.SingleCPU.Others, s1, o1, r.RunCPU.Self+r.RunCPU.Others, r.CPUs, s2, o2)
	}
	fmt.Fprintf(&b, "CPU with every session paused (%s), in cores: this process %.3f, the adapters and programs %.3f.\n\n", c.Idle, r.PausedCPU.Self, r.PausedCPU.Others)

	fmt.Fprintln(&b, "| memory per session | mean resident (adapter and program) |")
	fmt.Fprintln(&b, "|---|---|")
	by := map[string][]int64{}
	for _, m := range r.Memory {
		by[m.Lang] = append(by[m.Lang], m.RSS)
	}
	for _, l := range c.Langs {
		var sum int64
		for _, v := range by[l] {
			sum += v
		}
		if n := len(by[l]); n > 0 {
			fmt.Fprintf(&b, "| %s | %.1f MiB |\n", l, float64(sum)/float64(n)/(1<<20))
		}
	}
	fmt.Fprintf(&b, "| dbg's heap, each session | %.0f KiB |\n\n", float64(r.HeapPerSession)/1024)

	fmt.Fprintln(&b, "| the server holds | no session | start | end |")
	fmt.Fprintln(&b, "|---|---|---|---|")
	fmt.Fprintf(&b, "| goroutines | %d | %d | %d |\n", r.Idle.Goroutines, r.Start.Goroutines, r.End.Goroutines)
	fmt.Fprintf(&b, "| open file descriptors | %d | %d | %d |\n", r.Idle.FDs, r.Start.FDs, r.End.FDs)
	fmt.Fprintf(&b, "| child processes | %d | %d | %d |\n", r.Idle.Children, r.Start.Children, r.End.Children)
	fmt.Fprintf(&b, "| resident memory (with the clients) | %.1f MiB | %.1f MiB | %.1f MiB |\n\n", float64(r.Idle.RSS)/(1<<20), float64(r.Start.RSS)/(1<<20), float64(r.End.RSS)/(1<<20))
	fmt.Fprintf(&b, "Isolation: each client's list_debug_sessions named its own %d sessions and no other after every pass; with all: true a client listed %d sessions, %d of them with an owner (every client's but its own); a call on another client's session by id worked and left %d audit line(s) with both client ids.\n\n", len(c.Langs), r.AllListed, r.AllOwned, r.ForeignAudited)
	if f := r.Failed(); len(f) > 0 {
		fmt.Fprintf(&b, "**Missed:** %s.\n\n", strings.Join(f, "; "))
	}
	errs := append(r.Single.Errors(), r.Loaded.Errors()...)
	for i, e := range errs {
		if i == 10 {
			fmt.Fprintf(&b, "- … %d more\n", len(errs)-10)
			break
		}
		fmt.Fprintf(&b, "- error: %s\n", e)
	}
	if r.ProfileTop != "" {
		fmt.Fprintf(&b, "\nCPU profile of this process during the loaded phase (top by flat time):\n\n```\n%s\n```\n", strings.TrimSpace(r.ProfileTop))
	}
	if r.PausedTop != "" {
		fmt.Fprintf(&b, "\nCPU profile of this process while every session is paused:\n\n```\n%s\n```\n", strings.TrimSpace(r.PausedTop))
	}
	return b.String()
}
