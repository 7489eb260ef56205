package proc

import (
	"strconv"
	"strings"
)

// Mapping is one line of /proc/PID/maps: an address range, its
// permissions ("r-xp") and the file mapped there ("" for anonymous
// memory).
type Mapping struct {
	Start, End uint64
	Perms      string
	Path       string
}

// Mappings returns pid's memory mappings.
func Mappings(pid int) ([]Mapping, error) {
	b, err := readFile(pid, "maps")
	if err != nil {
		return nil, err
	}
	return ParseMaps(string(b)), nil
}

// ParseMaps reads the text of a maps file; lines it cannot read are
// skipped.
func ParseMaps(text string) []Mapping {
	var out []Mapping
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 5 {
			continue
		}
		lo, hi, ok := strings.Cut(f[0], "-")
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if !ok || err1 != nil || err2 != nil || end <= start {
			continue
		}
		m := Mapping{Start: start, End: end, Perms: f[1]}
		if len(f) >= 6 {
			m.Path = strings.Join(f[5:], " ")
		}
		out = append(out, m)
	}
	return out
}
