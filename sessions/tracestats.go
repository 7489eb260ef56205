package sessions

import (
	"sort"
	"strconv"
	"strings"
	"time"
)

// ExprStats sums up the values one trace expression took over a probe's
// hits. Every figure covers every hit, whatever the hit buffer dropped.
type ExprStats struct {
	Expression string `json:"expression"`
	First      string `json:"first,omitempty"`
	Last       string `json:"last,omitempty"`
	// Min and Max are the smallest and largest numeric values, as shown;
	// absent when no value was a number.
	Min string `json:"min,omitempty"`
	Max string `json:"max,omitempty"`
	// Distinct holds up to the trace's distinct cap of values with how
	// often each was seen, most frequent first. Values first seen after
	// the cap was reached are counted in Others.
	Distinct       []ValueCount `json:"distinct"`
	DistinctCapped bool         `json:"distinctCapped,omitempty"`
	Others         int          `json:"others,omitempty"`
	// Errors counts the hits where the expression could not be read; the
	// last error says why.
	Errors    int    `json:"errors,omitempty"`
	LastError string `json:"lastError,omitempty"`

	min, max   float64
	hasNumber  bool
	counts     map[string]int
	firstOrder map[string]int
}

// ValueCount is one distinct value and how many hits had it.
type ValueCount struct {
	Value string `json:"value"`
	Count int    `json:"count"`
}

// TraceHit is one buffered hit of a probe.
type TraceHit struct {
	Probe  int       `json:"probe"`
	Seq    int       `json:"seq"` // the hit's number within its probe, from 1
	Time   time.Time `json:"time"`
	Values []string  `json:"values"`
	Thread int       `json:"threadId,omitempty"`
}

// traceValue is one expression's reading at a hit: a value, or why none.
type traceValue struct {
	value string
	err   string
}

// add records one reading, keeping at most distinctCap distinct values.
func (e *ExprStats) add(v traceValue, distinctCap int) {
	if v.err != "" {
		e.Errors++
		e.LastError = v.err
		return
	}
	val := unquote(v.value)
	if e.counts == nil {
		e.counts, e.firstOrder = map[string]int{}, map[string]int{}
		e.First = val
	}
	e.Last = val
	if f, ok := number(val); ok {
		if !e.hasNumber || f < e.min {
			e.min, e.Min = f, val
		}
		if !e.hasNumber || f > e.max {
			e.max, e.Max = f, val
		}
		e.hasNumber = true
	}
	if _, seen := e.counts[val]; seen {
		e.counts[val]++
		return
	}
	if len(e.counts) >= distinctCap {
		e.DistinctCapped = true
		e.Others++
		return
	}
	e.firstOrder[val] = len(e.firstOrder)
	e.counts[val] = 1
}

// snapshot returns a copy with Distinct filled in.
func (e *ExprStats) snapshot() ExprStats {
	out := *e
	out.counts, out.firstOrder = nil, nil
	out.Distinct = make([]ValueCount, 0, len(e.counts))
	for v, n := range e.counts {
		out.Distinct = append(out.Distinct, ValueCount{Value: v, Count: n})
	}
	sort.Slice(out.Distinct, func(i, j int) bool {
		a, b := out.Distinct[i], out.Distinct[j]
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		return e.firstOrder[a.Value] < e.firstOrder[b.Value]
	})
	return out
}

// unquote shows a string value without the quotes adapters put around it
// in one way of reading it and not in another (an evaluate answer against
// a logpoint's interpolation), so one value is always spelt one way.
func unquote(v string) string {
	if len(v) >= 2 {
		q := v[0]
		if (q == '"' || q == '\'') && v[len(v)-1] == q && !strings.ContainsRune(v[1:len(v)-1], rune(q)) {
			return v[1 : len(v)-1]
		}
	}
	return v
}

// number reads a value as a number: decimal, with an optional sign and
// fraction; "5 (0x5)"-style annotations are not numbers.
func number(v string) (float64, bool) {
	v = strings.TrimSpace(v)
	if v == "" || strings.ContainsAny(v, " xX_") || !strings.ContainsAny(v[:1], "+-.0123456789") {
		return 0, false // also refuses NaN and Inf
	}
	f, err := strconv.ParseFloat(v, 64)
	return f, err == nil
}
