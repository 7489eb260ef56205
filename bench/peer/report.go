package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// serverNames are the table's column heads, dbg first.
var serverNames = [2]string{"dbg", "mcp-debugger 0.24.2"}

// A report is everything one run of the benchmark measured.
type report struct {
	langs             []string
	results           map[string]*[2]samples // by language: dbg, the peer
	runs, steps       int
	command           string
	started, finished time.Time
	machine, versions []string
	loadEnd           string
}

// langFigures are the rows of each language, in order; serverFigures are
// rows of their own for the servers, over every start.
var (
	langFigures   = []figure{coldStop, firstStop, stepOver, evaluate, memory, ownMemory, helperMemory, flowBytes, answerBytes}
	serverFigures = []figure{startup, listBytes}
)

// row is one line of the table: the medians of both servers, or why
// there is none.
type row struct {
	lang   string
	fig    figure
	values [2]float64 // NaN where a server has no sample
	failed [2]string  // the error shown in place of a missing value
}

func (r row) ratio() float64 { return ratio(r.values[0], r.values[1]) }

// rows lists the table's rows: each language's figures, then the start-up.
func (r *report) rows() []row {
	var out []row
	var all [2]samples
	for _, lang := range r.langs {
		res := r.results[lang]
		var told [2]bool // the error is written once, in the first failed row
		for _, f := range langFigures {
			rw := row{lang: lang, fig: f}
			for s := 0; s < 2; s++ {
				rw.values[s] = median(res[s].values[f])
				if res[s].failed(f) {
					rw.failed[s] = "failed"
					if !told[s] {
						rw.failed[s] = "failed: " + firstOr(res[s].errs, "no run got this far")
						told[s] = true
					}
				}
			}
			out = append(out, rw)
		}
		for s := 0; s < 2; s++ {
			for _, f := range serverFigures {
				all[s].values[f] = append(all[s].values[f], res[s].values[f]...)
			}
		}
	}
	for _, f := range serverFigures {
		rw := row{lang: "all", fig: f}
		for s := 0; s < 2; s++ {
			rw.values[s] = median(all[s].values[f])
			if all[s].failed(f) {
				rw.failed[s] = "failed"
			}
		}
		out = append(out, rw)
	}
	return out
}

func firstOr(list []string, def string) string {
	if len(list) == 0 {
		return def
	}
	return list[0]
}

// table renders the rows as Markdown.
func (r *report) table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "| language | figure (median) | %s | %s | dbg/peer |\n|---|---|---:|---:|---:|\n", serverNames[0], serverNames[1])
	for _, rw := range r.rows() {
		fmt.Fprintf(&b, "| %s | %s |", rw.lang, rw.fig.label())
		for s := 0; s < 2; s++ {
			if rw.failed[s] != "" {
				fmt.Fprintf(&b, " %s |", cellEscape(rw.failed[s]))
			} else {
				fmt.Fprintf(&b, " %s |", formatValue(rw.values[s], rw.fig.unit()))
			}
		}
		fmt.Fprintf(&b, " %s |\n", formatRatio(rw.ratio()))
	}
	return b.String()
}

// failures lists, for each server and language with errors, how many
// runs ended in one and the first error.
func (r *report) failures() []string {
	var out []string
	for _, lang := range r.langs {
		for s, res := range r.results[lang] {
			if len(res.errs) > 0 {
				out = append(out, fmt.Sprintf("%s, %s: %d of %d runs ended in an error (the first: %s); what they measured before it counts.",
					lang, serverNames[s], len(res.errs), r.runs, res.errs[0]))
			}
		}
	}
	return out
}

// errorList is the failures as a Markdown list ("" when there are none).
func (r *report) errorList() string {
	fails := r.failures()
	if len(fails) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nErrors:\n\n")
	for _, l := range fails {
		b.WriteString("- " + cellEscape(l) + "\n")
	}
	return b.String()
}

// formatValue writes a median with the precision its size deserves.
func formatValue(v float64, unit string) string {
	switch {
	case math.IsNaN(v):
		return "—"
	case v < 10:
		return fmt.Sprintf("%.2f %s", v, unit)
	case v < 100:
		return fmt.Sprintf("%.1f %s", v, unit)
	}
	return fmt.Sprintf("%.0f %s", v, unit)
}

func formatRatio(v float64) string {
	switch {
	case math.IsNaN(v):
		return "—"
	case v < 0.1:
		return fmt.Sprintf("%.3f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// cellEscape keeps a message inside its table cell.
func cellEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ", "\r", " ").Replace(s)
}

// markdown is the whole of peer.md.
func (r *report) markdown() string {
	var b strings.Builder
	b.WriteString("# dbg beside mcp-debugger\n\n")
	fmt.Fprintf(&b, "`%s`, %s to %s (UTC): %d alternating runs per language, %d step_over and %d evaluate_expression calls per session. ",
		r.command, r.started.Format("2006-01-02 15:04"), r.finished.Format("15:04"), r.runs, r.steps, r.steps)
	b.WriteString("A ratio below 1 means dbg is faster or smaller.\n\n")
	b.WriteString(r.table())
	b.WriteString(r.errorList())
	b.WriteString("\n![dbg/peer ratios](peer.svg)\n\n## Machine\n\n")
	for _, l := range r.machine {
		b.WriteString("- " + l + "\n")
	}
	if r.loadEnd != "" {
		b.WriteString("- load average at the end: " + r.loadEnd + "\n")
	}
	b.WriteString("\n## Versions\n\n")
	for _, l := range r.versions {
		b.WriteString("- " + l + "\n")
	}
	b.WriteString(method)
	return b.String()
}

// method says how the figures were taken.
const method = `
## Method

Both servers are driven by the same client (the MCP go-sdk over stdio)
with the same calls: create_debug_session, set_breakpoint,
start_debugging (stopOnEntry false; list_debug_sessions is polled until
the session is paused when the answer comes before the stop), step_over,
evaluate_expression, close_debug_session. The fixtures are testdata's
loop programs (python/loop.py, go/loop/main.go, javascript/loop.js,
java/Loop.java, compiled once with javac -g and run by class name on that
classpath by both).

Each run starts each server afresh for each language, dbg first in one
run and mcp-debugger first in the next, so a busy machine weighs on both
alike. A server runs the scenario twice. *first stop, new server* is
create_debug_session to the first stop of the first session, *first stop*
the same for the second session; step_over and evaluate count every call
of both. *start to initialize* is exec to the answer to initialize, over
every start. *memory, first stop* is the sum of VmRSS over the server's
whole process tree (the server, its adapters and helpers, the debuggee)
when the first session has stopped; *memory: the server* is the server's
own process of that tree, *memory: adapters, program* the rest (dbg's
idle warm adapter counts there). *answers, 14-call flow* is the bytes
of the answers a client reads (each answer's text content) in a third
session of create_debug_session, set_breakpoint, start_debugging,
get_stack_trace, get_local_variables, three step_over and three
evaluate_expression, continue_execution, get_output and
close_debug_session (the polls of list_debug_sessions for the first
stop are not counted), and *bytes per answer* that total over its 14
answers; *tools/list* is the bytes of the answer to
tools/list (its result, every page), which the client reads before the
first call: dbg runs with --toolsets core, its default in a project that
needs no other toolset (every set: TestToolsListBytes in cmd/dbg logs it).
Both are in KB (1024 bytes). Figures are medians over the runs. A run
that ends in an error keeps what it measured before it; a figure no run
reached says "failed" with the first error.

The machine may be shared with other work: the load averages above say
how busy it was. Both servers ran in turn under the same load, so the
ratios hold better than the absolute times.
`

// write saves peer.md and peer.svg under out and, when readme is set,
// puts the table between the README's peer-bench markers.
func (r *report) write(root, out, readme string) error {
	if !filepath.IsAbs(out) {
		out = filepath.Join(root, out)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "peer.md"), []byte(r.markdown()), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "peer.svg"), []byte(r.svg()), 0o644); err != nil {
		return err
	}
	fmt.Print(r.table())
	if readme == "" {
		return nil
	}
	if !filepath.IsAbs(readme) {
		readme = filepath.Join(root, readme)
	}
	text, err := os.ReadFile(readme)
	if err != nil {
		return err
	}
	spliced, err := splice(string(text), r.readmeBlock())
	if err != nil {
		return fmt.Errorf("%s: %w", readme, err)
	}
	return os.WriteFile(readme, []byte(spliced), 0o644)
}

// readmeBlock is what the README shows: the table and where it comes from.
func (r *report) readmeBlock() string {
	return fmt.Sprintf("Measured %s UTC with `%s` (%d alternating runs; versions and method in\n[bench/results/peer.md](bench/results/peer.md), chart in [bench/results/peer.svg](bench/results/peer.svg)) on %s; load average at the end %s:\n\n%s",
		r.started.Format("2006-01-02"), r.command, r.runs, strings.Join(r.machine, "; "), r.loadEnd, r.table()+r.errorList())
}

const (
	beginMarker = "<!-- peer-bench:begin -->"
	endMarker   = "<!-- peer-bench:end -->"
)

// splice replaces what lies between the markers in text with block.
func splice(text, block string) (string, error) {
	i := strings.Index(text, beginMarker)
	j := strings.Index(text, endMarker)
	if i < 0 || j < i {
		return "", fmt.Errorf("no %s … %s section", beginMarker, endMarker)
	}
	return text[:i+len(beginMarker)] + "\n" + block + text[j:], nil
}
