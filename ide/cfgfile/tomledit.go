package cfgfile

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
)

func tomlHasPrefix(path, prefix []string) bool {
	return len(path) >= len(prefix) && slices.Equal(path[:len(prefix)], prefix)
}

// SetTOMLTable returns src with the table [table.name] (and its
// sub-tables) replaced by o, or o appended as a new table; replaced says
// the table was there. The rest of the text is kept as it is. Tables
// defined inline or by dotted keys elsewhere are refused.
func SetTOMLTable(src []byte, table, name string, o Object) ([]byte, bool, error) {
	items, err := scanTOML(src)
	if err != nil {
		return nil, false, fmt.Errorf("cannot parse it as TOML: %w", err)
	}
	ours := []string{table, name}
	type region struct{ start, end int }
	var regions []region
	var cur []string
	in := false
	var r region
	for _, it := range items {
		switch it.kind {
		case tHeader:
			mine := tomlHasPrefix(it.path, ours)
			if in && !mine {
				regions = append(regions, r)
				in = false
			}
			if mine {
				if it.array && len(it.path) == 2 {
					return nil, false, fmt.Errorf("[[%s.%s]] is an array of tables", table, name)
				}
				if !in {
					in, r = true, region{it.start, it.end}
				}
				r.end = it.end
			}
			cur = it.path
		case tKeyVal:
			full := append(slices.Clone(cur), it.path...)
			if len(cur) == 0 && slices.Equal(it.path, []string{table}) {
				return nil, false, fmt.Errorf("%s is an inline table", table)
			}
			if !in && tomlHasPrefix(full, ours) {
				return nil, false, fmt.Errorf("%s.%s is defined by keys outside its own table", table, name)
			}
			if in {
				r.end = it.end
			}
		}
	}
	if in {
		regions = append(regions, r)
	}
	nl := newlineStyle(src)
	text := o.TOML(table, name, nl)
	var out []byte
	if len(regions) > 0 {
		edits := []textEdit{{regions[0].start, regions[0].end, text}}
		for _, r := range regions[1:] {
			edits = append(edits, textEdit{r.start, r.end, ""})
		}
		// A table ending the file without a line break gets one from text.
		out = applyTextEdits(src, edits)
	} else {
		out = slices.Clone(src)
		if len(bytes.TrimSpace(out)) > 0 {
			if !bytes.HasSuffix(out, []byte("\n")) {
				out = append(out, nl...)
			}
			if !bytes.HasSuffix(out, []byte(nl+nl)) {
				out = append(out, nl...)
			}
		} else {
			out = nil
		}
		out = append(out, text...)
	}
	if err := verifyTOMLEdit(items, out, ours); err != nil {
		return nil, false, fmt.Errorf("editing it would change more than the entry (%w)", err)
	}
	return out, len(regions) > 0, nil
}

// verifyTOMLEdit checks that out still scans, holds the table once, and
// keeps every other table in order.
func verifyTOMLEdit(before []titem, out []byte, ours []string) error {
	after, err := scanTOML(out)
	if err != nil {
		return err
	}
	others := func(items []titem) (l []string, n int) {
		for _, it := range items {
			if it.kind != tHeader {
				continue
			}
			if slices.Equal(it.path, ours) {
				n++
			}
			if !tomlHasPrefix(it.path, ours) {
				l = append(l, strings.Join(it.path, "\x00"))
			}
		}
		return l, n
	}
	b, _ := others(before)
	a, n := others(after)
	if n != 1 {
		return fmt.Errorf("the table appears %d times", n)
	}
	if !slices.Equal(a, b) {
		return errors.New("other tables changed")
	}
	return nil
}
