package nodedap

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// sourceMap is a decoded source map (revision 3): which generated
// positions come from which original file positions. Lines and columns are
// 0-based. A sourceMap is immutable once parsed.
type sourceMap struct {
	sources []string    // absolute paths where the source is a file, else the URL
	lines   [][]mapping // by generated line, sorted by generated column
	byOrig  []mapping   // every mapping with a source, sorted by source, line, column
}

type mapping struct {
	genLine, genCol   int
	src               int // index into sources, -1 when the segment has none
	origLine, origCol int
}

type rawSourceMap struct {
	Version    int      `json:"version"`
	SourceRoot string   `json:"sourceRoot"`
	Sources    []string `json:"sources"`
	Mappings   string   `json:"mappings"`
	Sections   []any    `json:"sections"`
}

// parseSourceMap decodes a map. base is the absolute path of the map file
// (or of the script, for inline maps); relative sources resolve against
// its folder.
func parseSourceMap(data []byte, base string) (*sourceMap, error) {
	var raw rawSourceMap
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("source map %s: %w", base, err)
	}
	if len(raw.Sections) > 0 {
		return nil, fmt.Errorf("source map %s: index maps (sections) are not supported", base)
	}
	if raw.Version != 3 {
		return nil, fmt.Errorf("source map %s: version %d, want 3", base, raw.Version)
	}
	sm := &sourceMap{}
	dir := filepath.Dir(base)
	for _, s := range raw.Sources {
		sm.sources = append(sm.sources, resolveSource(dir, raw.SourceRoot, s))
	}
	if err := sm.decodeMappings(raw.Mappings); err != nil {
		return nil, fmt.Errorf("source map %s: %w", base, err)
	}
	return sm, nil
}

func resolveSource(dir, root, s string) string {
	if root != "" && !strings.Contains(s, "://") && !filepath.IsAbs(s) {
		s = strings.TrimSuffix(root, "/") + "/" + s
	}
	if strings.HasPrefix(s, "file://") {
		if p := urlPath(s); p != "" {
			return filepath.Clean(p)
		}
	}
	if strings.Contains(s, "://") {
		return s
	}
	if !filepath.IsAbs(s) {
		s = filepath.Join(dir, filepath.FromSlash(s))
	}
	return filepath.Clean(s)
}

const b64chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

var b64index = func() (t [256]int8) {
	for i := range t {
		t[i] = -1
	}
	for i := 0; i < len(b64chars); i++ {
		t[b64chars[i]] = int8(i)
	}
	return t
}()

var errBadVLQ = errors.New("bad VLQ in mappings")

// decodeMappings decodes the "mappings" string.
func (sm *sourceMap) decodeMappings(s string) error {
	var src, origLine, origCol, name int
	var fields [5]int
	genLine := 0
	var line []mapping
	flush := func() {
		sort.SliceStable(line, func(i, j int) bool { return line[i].genCol < line[j].genCol })
		sm.lines = append(sm.lines, line)
		line = nil
	}
	i := 0
	genCol := 0
	for i <= len(s) {
		if i == len(s) || s[i] == ';' {
			flush()
			genLine++
			genCol = 0
			i++
			continue
		}
		if s[i] == ',' {
			i++
			continue
		}
		n := 0
		for i < len(s) && s[i] != ',' && s[i] != ';' {
			if n == len(fields) {
				return errBadVLQ
			}
			v, next, err := decodeVLQ(s, i)
			if err != nil {
				return err
			}
			fields[n] = v
			n++
			i = next
		}
		switch n {
		case 1, 4, 5:
		default:
			return fmt.Errorf("%w: segment with %d fields", errBadVLQ, n)
		}
		genCol += fields[0]
		m := mapping{genLine: genLine, genCol: genCol, src: -1}
		if n >= 4 {
			src += fields[1]
			origLine += fields[2]
			origCol += fields[3]
			if src < 0 || src >= len(sm.sources) || origLine < 0 {
				return fmt.Errorf("%w: source %d line %d out of range", errBadVLQ, src, origLine)
			}
			m.src, m.origLine, m.origCol = src, origLine, origCol
			sm.byOrig = append(sm.byOrig, m)
		}
		if n == 5 {
			name += fields[4]
		}
		line = append(line, m)
	}
	sort.SliceStable(sm.byOrig, func(i, j int) bool {
		a, b := sm.byOrig[i], sm.byOrig[j]
		if a.src != b.src {
			return a.src < b.src
		}
		if a.origLine != b.origLine {
			return a.origLine < b.origLine
		}
		if a.genLine != b.genLine {
			return a.genLine < b.genLine
		}
		return a.genCol < b.genCol
	})
	return nil
}

func decodeVLQ(s string, i int) (value, next int, err error) {
	shift := 0
	result := 0
	for {
		if i >= len(s) {
			return 0, i, errBadVLQ
		}
		d := b64index[s[i]]
		if d < 0 || shift > 60 {
			return 0, i, errBadVLQ
		}
		i++
		result += int(d&31) << shift
		if d&32 == 0 {
			break
		}
		shift += 5
	}
	if result&1 == 1 {
		return -(result >> 1), i, nil
	}
	return result >> 1, i, nil
}

// source returns the index of the source at path, or -1.
func (sm *sourceMap) source(path string) int {
	for i, s := range sm.sources {
		if s == path {
			return i
		}
	}
	return -1
}

// original maps a generated position to its source position.
func (sm *sourceMap) original(genLine, genCol int) (path string, line, col int, ok bool) {
	if genLine < 0 || genLine >= len(sm.lines) {
		return "", 0, 0, false
	}
	segs := sm.lines[genLine]
	best := -1
	for i, m := range segs {
		if m.src < 0 {
			continue
		}
		if m.genCol <= genCol || best < 0 {
			best = i
		}
		if m.genCol > genCol {
			break
		}
	}
	if best < 0 {
		return "", 0, 0, false
	}
	m := segs[best]
	return sm.sources[m.src], m.origLine, m.origCol, true
}

// generated maps a source line to the first generated position of the
// first mapped line at or after it (within 50 lines). actual is the source
// line that position comes from.
func (sm *sourceMap) generated(path string, origLine int) (genLine, genCol, actual int, ok bool) {
	src := sm.source(path)
	if src < 0 {
		return 0, 0, 0, false
	}
	i := sort.Search(len(sm.byOrig), func(i int) bool {
		m := sm.byOrig[i]
		return m.src > src || (m.src == src && m.origLine >= origLine)
	})
	if i == len(sm.byOrig) || sm.byOrig[i].src != src || sm.byOrig[i].origLine-origLine > 50 {
		return 0, 0, 0, false
	}
	m := sm.byOrig[i]
	return m.genLine, m.genCol, m.origLine, true
}

// loadSourceMap reads the map a script names: a data: URL, a file: URL,
// or a path relative to the script.
func loadSourceMap(scriptPath, ref string) (*sourceMap, error) {
	if strings.HasPrefix(ref, "data:") {
		meta, payload, ok := strings.Cut(ref[len("data:"):], ",")
		if !ok {
			return nil, errors.New("malformed data: URL source map")
		}
		var data []byte
		if strings.HasSuffix(meta, ";base64") {
			b, err := base64.StdEncoding.DecodeString(payload)
			if err != nil {
				return nil, fmt.Errorf("inline source map: %w", err)
			}
			data = b
		} else {
			s, err := url.PathUnescape(payload)
			if err != nil {
				return nil, fmt.Errorf("inline source map: %w", err)
			}
			data = []byte(s)
		}
		return parseSourceMap(data, scriptPath)
	}
	p := ref
	if strings.HasPrefix(ref, "file://") {
		p = urlPath(ref)
	} else if strings.Contains(ref, "://") {
		return nil, fmt.Errorf("source map %s: only file and data URLs are read", ref)
	} else if !filepath.IsAbs(p) {
		u, err := url.PathUnescape(p)
		if err == nil {
			p = u
		}
		p = filepath.Join(filepath.Dir(scriptPath), filepath.FromSlash(p))
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("source map: %w", err)
	}
	return parseSourceMap(data, p)
}
