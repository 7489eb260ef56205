package main

import (
	"math"
	"sort"
)

// A figure is one thing the benchmark measures.
type figure int

const (
	coldStop     figure = iota // create_debug_session to the first stop, in a server just started
	firstStop                  // the same in a server that has run one session already
	stepOver                   // one step_over round trip
	evaluate                   // one evaluate_expression round trip
	memory                     // resident memory of the server's process tree, paused at the stop
	ownMemory                  // of that, the server's own process
	helperMemory               // of that, the rest: adapters, helpers, the debuggee
	flowBytes                  // the answers of the 14-call flow, as the client reads them
	answerBytes                // the mean answer of that flow
	startup                    // server exec to the answer to initialize
	listBytes                  // the answer to tools/list
	numFigures
)

// label is the figure's name in the table and the chart.
func (f figure) label() string {
	return [...]string{"first stop, new server", "first stop", "step_over", "evaluate", "memory, first stop",
		"memory: the server", "memory: adapters, program", "answers, 14-call flow", "bytes per answer", "start to initialize", "tools/list"}[f]
}

// unit is the unit its samples are kept in.
func (f figure) unit() string {
	switch f {
	case memory, ownMemory, helperMemory:
		return "MB"
	case flowBytes, listBytes:
		return "KB"
	case answerBytes:
		return "B"
	}
	return "ms"
}

// samples are one server's measurements of one language, with the errors
// of the runs that failed.
type samples struct {
	values [numFigures][]float64
	errs   []string
}

func (s *samples) add(f figure, v float64) { s.values[f] = append(s.values[f], v) }

// failed reports whether no run of this server got as far as figure f.
func (s *samples) failed(f figure) bool { return len(s.values[f]) == 0 }

// median is the middle of vs (the mean of the two middle values for an
// even count); NaN for none.
func median(vs []float64) float64 {
	if len(vs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}

// ratio is a/b, NaN when either is missing or b is zero.
func ratio(a, b float64) float64 {
	if math.IsNaN(a) || math.IsNaN(b) || b == 0 {
		return math.NaN()
	}
	return a / b
}

// addSession adds what the n-th session of a server (1 or 2) measured:
// its first stop (as coldStop for the first), its steps and evaluates,
// and for the first the memory at the stop, whole and split between the
// server's own process and the rest of its tree. Figures the session did not
// reach are left out.
func (s *samples) addSession(n int, t timings) {
	if t.firstStop == 0 {
		return
	}
	if n == 1 {
		s.add(coldStop, ms(t.firstStop))
		s.add(memory, float64(t.rss)/(1<<20))
		if t.ownRSS > 0 {
			s.add(ownMemory, float64(t.ownRSS)/(1<<20))
			s.add(helperMemory, float64(t.rss-t.ownRSS)/(1<<20))
		}
	} else {
		s.add(firstStop, ms(t.firstStop))
	}
	for _, d := range t.steps {
		s.add(stepOver, ms(d))
	}
	for _, d := range t.evals {
		s.add(evaluate, ms(d))
	}
}
