package console

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
)

// complete offers completions of the text before the cursor: command
// names, then each command's arguments. It returns the word being
// completed and the candidates, each a whole word.
func (p *prompt) complete(text string) (string, []string) {
	verb, rest, spaced := strings.Cut(text, " ")
	if !spaced {
		return text, commandNames(text)
	}
	c := lookup(verb)
	if c == nil || c.args == nil {
		return "", nil
	}
	return c.args(p, strings.TrimLeft(rest, " "))
}

// completeFile completes the last word as a file name (directories end
// in a slash); a word with a colon (FILE:LINE) is left alone.
func (p *prompt) completeFile(rest string) (string, []string) {
	word := rest[strings.LastIndex(rest, " ")+1:]
	if strings.Contains(word, ":") {
		return word, nil
	}
	matches, _ := filepath.Glob(globEscape(word) + "*")
	var out []string
	for _, m := range matches {
		if st, err := os.Stat(m); err == nil && st.IsDir() {
			m += "/"
		} else {
			m += ":"
		}
		if strings.HasPrefix(word, "./") && !strings.HasPrefix(m, "./") {
			m = "./" + m
		}
		out = append(out, m)
	}
	sort.Strings(out)
	return word, out
}

// globEscape quotes a word's glob characters.
func globEscape(s string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`, `\`, `\\`)
	return r.Replace(s)
}

// completeName completes the identifier at the end of rest with the
// selected frame's local names (read once per stop and frame).
func (p *prompt) completeName(rest string) (string, []string) {
	i := len(rest)
	for i > 0 {
		r := rune(rest[i-1])
		if r != '_' && r != '$' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			break
		}
		i--
	}
	word := rest[i:]
	if p.stop == nil {
		return word, nil
	}
	if p.names == nil {
		var out variablesOut
		if _, err := p.tools.Call(p.ctx, "get_local_variables", p.frameArgs(), &out); err != nil {
			return word, nil
		}
		p.names = []string{}
		for _, v := range out.Variables {
			p.names = append(p.names, v.Name)
		}
		sort.Strings(p.names)
	}
	var cands []string
	for _, n := range p.names {
		if strings.HasPrefix(n, word) {
			cands = append(cands, n)
		}
	}
	return word, cands
}
