// Package cobol lets a C debug adapter (LLDB) debug GnuCOBOL programs in
// COBOL terms.
//
// [Build] compiles a .cob source with cobc so that every generated C line
// of a statement carries that statement's .cob line (breakpoints, stops
// and steps speak .cob lines), and reads from cobc's output which C
// storage (b_8) holds which data item (WS-TOTAL) with its PICTURE and
// USAGE. [Layer] sits between a debug session and LLDB's DAP adapter: it
// shows WORKING-STORAGE items by their COBOL names with decoded values
// ([Decode]) and sets them from typed values ([Encode]); it evaluates
// breakpoint conditions and log messages written with COBOL names
// ([ParseCond]); and it makes "next" step over a PERFORM and "stepOut"
// leave a PERFORMed paragraph (see stepping.go).
//
// # Limits
//
// WORKING-STORAGE items are shown; LOCAL-STORAGE and LINKAGE are not.
// OCCURS tables show their first element's storage; REDEFINES items
// overlay the item they redefine.
package cobol

import (
	"bufio"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Usage is how a data item is stored.
type Usage int

const (
	Display Usage = iota // characters; numeric DISPLAY with trailing overpunch sign
	Packed               // COMP-3 / PACKED-DECIMAL
	Binary               // COMP / COMP-4 / BINARY (big-endian)
	Native               // COMP-5 (little-endian)
	Group                // a group item
)

// Field is one WORKING-STORAGE data item.
type Field struct {
	Name     string
	Level    int
	Size     int    // bytes
	Offset   int    // from the start of its level-01 record
	Storage  string // the C array of its level-01 record (b_8)
	Numeric  bool
	Signed   bool
	Digits   int
	Scale    int // digits after the decimal point
	Usage    Usage
	Picture  string
	Children []*Field
}

// listingRE matches a symbol line of `cobc -t FILE --tsymbols`:
// "00005 NUMERIC        01   WS-TOTAL                       9(5)".
var listingRE = regexp.MustCompile(`^(\d{5})\s+([A-Z][A-Z0-9-]*)\s+(\d\d)\s+([A-Za-z0-9][A-Za-z0-9_-]*)\s*(.*)$`)

// storageRE matches a level-01 storage declaration of cobc's generated
// local header: "static cob_u8_t	b_8[5] __attribute__((aligned));	/* WS-TOTAL */".
var storageRE = regexp.MustCompile(`^static\s+cob_u8_t\s+(b_\d+)\[(\d+)\].*/\*\s*(\S+)\s*\*/`)

// compRE matches plain COMP / COMPUTATIONAL usage (binary).
var compRE = regexp.MustCompile(`\bCOMP\b|\bCOMPUTATIONAL\b`)

// ParseListing reads the WORKING-STORAGE symbol table of a cobc listing
// and returns the level-01/77 items with their subordinates laid out.
// Unknown lines are ignored; the result may be empty.
func ParseListing(listing string) []*Field {
	var roots []*Field
	var stack []*Field // open groups, outermost first
	inWS := false
	sc := bufio.NewScanner(strings.NewReader(listing))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \r")
		trim := strings.TrimSpace(line)
		if strings.HasSuffix(trim, " SECTION") {
			inWS = trim == "WORKING-STORAGE SECTION"
			stack = nil
			continue
		}
		if !inWS {
			continue
		}
		m := listingRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		size, _ := strconv.Atoi(m[1])
		level, _ := strconv.Atoi(m[3])
		if level == 88 || level == 66 || size <= 0 {
			continue
		}
		f := &Field{Name: strings.ToUpper(m[4]), Level: level, Size: size, Picture: strings.TrimSpace(m[5])}
		classify(f, m[2])
		if level == 1 || level == 77 {
			roots = append(roots, f)
			stack = []*Field{f}
			continue
		}
		for len(stack) > 0 && stack[len(stack)-1].Level >= level {
			stack = stack[:len(stack)-1]
		}
		if len(stack) == 0 {
			continue // a subordinate without a record: malformed, skip
		}
		parent := stack[len(stack)-1]
		f.Offset = parent.Offset
		if n := len(parent.Children); n > 0 {
			prev := parent.Children[n-1]
			f.Offset = prev.Offset + prev.Size
		}
		if f.Offset+f.Size > rootOf(stack).Size {
			continue // does not fit its record (OCCURS, REDEFINES): skip
		}
		parent.Children = append(parent.Children, f)
		stack = append(stack, f)
	}
	return roots
}

func rootOf(stack []*Field) *Field { return stack[0] }

// classify sets the numeric attributes of f from its listing type and
// PICTURE/USAGE text ("S9(5)V99 COMP-3").
func classify(f *Field, typ string) {
	pic := strings.ToUpper(f.Picture)
	switch {
	case typ == "GROUP":
		f.Usage = Group
		return
	case strings.Contains(pic, "COMP-3") || strings.Contains(pic, "PACKED-DECIMAL"):
		f.Usage = Packed
	case strings.Contains(pic, "COMP-5"):
		f.Usage = Native
	case strings.Contains(pic, "COMP-4") || strings.Contains(pic, "BINARY") || compRE.MatchString(pic):
		f.Usage = Binary
	}
	f.Numeric = typ == "NUMERIC"
	if !f.Numeric {
		return
	}
	word := strings.Fields(pic)
	if len(word) == 0 {
		return
	}
	p := word[0]
	if strings.HasPrefix(p, "S") {
		f.Signed = true
		p = p[1:]
	}
	intPart, frac, _ := strings.Cut(p, "V")
	f.Digits = countNines(intPart)
	f.Scale = countNines(frac)
	f.Digits += f.Scale
}

// countNines counts the digit positions of a PICTURE fragment: 9(5)99 → 7.
func countNines(p string) int {
	n := 0
	for i := 0; i < len(p); i++ {
		if p[i] != '9' && p[i] != 'P' {
			continue
		}
		if i+1 < len(p) && p[i+1] == '(' {
			end := strings.IndexByte(p[i:], ')')
			if end < 0 {
				return n + 1
			}
			k, err := strconv.Atoi(p[i+2 : i+end])
			if err != nil || k < 0 || k > 1000 {
				k = 1
			}
			n += k
			i += end
			continue
		}
		n++
	}
	return n
}

// ParseStorage maps level-01 item names to their C storage arrays, from
// cobc's generated local header (prog.c.l.h).
func ParseStorage(header string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(header, "\n") {
		if m := storageRE.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			out[strings.ToUpper(m[3])] = m[1]
		}
	}
	return out
}

// Attach sets the Storage of every field of roots from storage (see
// ParseStorage) and drops records without storage.
func Attach(roots []*Field, storage map[string]string) []*Field {
	var out []*Field
	for _, r := range roots {
		b, ok := storage[r.Name]
		if !ok {
			continue
		}
		setStorage(r, b)
		out = append(out, r)
	}
	return out
}

func setStorage(f *Field, b string) {
	f.Storage = b
	for _, c := range f.Children {
		setStorage(c, b)
	}
}

// Lookup finds a field by COBOL name (case-insensitive) among roots and
// their subordinates.
func Lookup(roots []*Field, name string) (*Field, bool) {
	name = strings.ToUpper(strings.TrimSpace(name))
	for _, r := range roots {
		if r.Name == name {
			return r, true
		}
		if f, ok := Lookup(r.Children, name); ok {
			return f, true
		}
	}
	return nil, false
}

// String describes f for messages.
func (f *Field) String() string {
	return fmt.Sprintf("%02d %s %s (%d bytes at %s+%d)", f.Level, f.Name, f.Picture, f.Size, f.Storage, f.Offset)
}
