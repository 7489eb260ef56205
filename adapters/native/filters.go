package native

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// Filter is an exception filter the LLDB layer implements with an LLDB
// breakpoint on a runtime function.
type Filter struct {
	ID, Label string
	Symbol    string // function to break on
	Text      string // the exception text of a stop there
}

// Filters returns the exception filters of a language.
func Filters(lang string) []Filter {
	switch lang {
	case "rust":
		return []Filter{{ID: "rust_panic", Label: "Rust panics", Symbol: "rust_panic", Text: "Rust panic (see the program's stderr for the message)"}}
	case "cobol":
		return []Filter{{ID: "cobol_runtime_error", Label: "COBOL runtime errors", Symbol: "cob_runtime_error", Text: "COBOL runtime error (see the program's stderr for the message)"}}
	}
	return nil
}

// addFilters lists the layer's filters in an initialize answer.
func (s *lldb) addFilters(m *dap.Message) {
	var caps map[string]any
	if err := m.DecodeBody(&caps); err != nil || caps == nil {
		return
	}
	list, _ := caps["exceptionBreakpointFilters"].([]any)
	for _, f := range s.filters {
		list = append(list, map[string]any{"filter": f.ID, "label": f.Label, "default": true})
	}
	caps["exceptionBreakpointFilters"] = list
	m.Body, _ = json.Marshal(caps)
}

// exceptionFilters sets or removes the breakpoints of the layer's own
// filters named in a setExceptionBreakpoints request, and takes those
// filters out of it (for lldb). It waits for lldb's answers.
func (s *lldb) exceptionFilters(r *dap.Request) {
	var args map[string]any
	if err := r.DecodeBody(&args); err != nil {
		return
	}
	want := map[string]bool{}
	var rest []any
	list, _ := args["filters"].([]any)
	for _, f := range list {
		id, _ := f.(string)
		own := false
		for _, nf := range s.filters {
			if nf.ID == id {
				want[id], own = true, true
			}
		}
		if !own {
			rest = append(rest, f)
		}
	}
	ctx, cancel := context.WithTimeout(s.link.Context(), 10*time.Second)
	defer cancel()
	for _, nf := range s.filters {
		s.mu.Lock()
		n, set := s.filterBP[nf.ID]
		s.mu.Unlock()
		switch {
		case want[nf.ID] && !set:
			out, err := s.command(ctx, "breakpoint set --name "+nf.Symbol)
			// the output starts with the echoed command, then "Breakpoint N: ..."
			for _, line := range strings.Split(out, "\n") {
				if mm := bpNumberRE.FindStringSubmatch(line); err == nil && mm != nil && !strings.Contains(line, "set --name") {
					n, _ := strconv.Atoi(mm[1])
					s.mu.Lock()
					s.filterBP[nf.ID] = n
					s.excBP[n] = nf
					s.mu.Unlock()
					break
				}
			}
		case !want[nf.ID] && set:
			_, _ = s.command(ctx, "breakpoint delete "+strconv.Itoa(n))
			s.mu.Lock()
			delete(s.filterBP, nf.ID)
			delete(s.excBP, n)
			s.mu.Unlock()
		}
	}
	if rest == nil {
		rest = []any{}
	}
	args["filters"] = rest
	r.Arguments, _ = json.Marshal(args)
}
