package redact

import (
	"regexp"
	"strings"
)

// A shape is a credential recognised by its form, whatever it is called.
// Only its secret part is replaced: "Bearer " stays, the token goes.
type shape struct {
	// hints: a text holding none of them (compared in lower case)
	// cannot hold the shape, and skips its expression.
	hints []string
	re    *regexp.Regexp
	// secret is the index of the submatch that is the credential (0: the
	// whole match).
	secret int
}

// shapes are checked in order; each replaces only its secret part.
var shapes = []shape{
	// PEM blocks: certificates and keys alike, whole (an unterminated block to the end).
	{[]string{"-----begin "}, regexp.MustCompile(`-----BEGIN [A-Z0-9 ]{1,64}-----(?s:.*?)(?:-----END [A-Z0-9 ]{1,64}-----|\z)`), 0},
	// HTTP credentials: Bearer tokens in any case, Basic as headers write it.
	{[]string{"bearer", "basic"}, regexp.MustCompile(`(?:\b[Bb][Ee][Aa][Rr][Ee][Rr]|\bBasic)\s+([A-Za-z0-9\-._~+/]{8,}=*)`), 1},
	// AWS access key ids.
	{[]string{"akia", "asia", "agpa", "aida", "aroa", "anpa", "anva"}, regexp.MustCompile(`\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA)[A-Z0-9]{16}\b`), 0},
	// GitHub, GitLab, Slack, Stripe, OpenAI-style and Google API tokens.
	{[]string{"gh", "glpat-", "xox", "k_live_", "k_test_", "sk-", "aiza"}, regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9\-_]{20,}|xox[abposr]-[A-Za-z0-9\-]{10,}|[sr]k_(?:live|test)_[A-Za-z0-9]{16,}|sk-[A-Za-z0-9\-_]{20,}|AIza[0-9A-Za-z\-_]{35})`), 0},
	// JSON Web Tokens.
	{[]string{"eyj"}, regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`), 0},
	// Passwords in URLs: scheme://user:password@host.
	{[]string{"://"}, regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.\-]{0,30}://[^\s:/@'"]*:([^\s@/'"]+)@`), 1},
}

// pair finds key/value pairs inside a rendered value: key: value,
// key=value, key => value, with the key bare or quoted and the value
// quoted or bare. The key decides (see SecretName).
var pair = regexp.MustCompile(`(["']?)([A-Za-z_][A-Za-z0-9_.\-]{0,80})(["']?)([ \t]*(?::|=>|=)[ \t]*)("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\s,;}\])&"'?=][^\n\r,;}\])&"'?=]*)`)

// String returns s with the credentials its shapes and credential-named
// pairs show replaced by [Mark], and whether it changed anything.
func String(s string) (string, bool) {
	if len(s) < 8 {
		return s, false
	}
	out, lower := s, strings.ToLower(s)
	for _, sh := range shapes {
		if containsAny(lower, sh.hints) {
			out = replaceSub(sh.re, out, sh.secret)
		}
	}
	if strings.ContainsAny(out, ":=") {
		out = redactPairs(out)
	}
	return out, out != s
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// replaceSub replaces submatch n of every match of re in s by Mark.
func replaceSub(re *regexp.Regexp, s string, n int) string {
	idx := re.FindAllStringSubmatchIndex(s, -1)
	if idx == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range idx {
		start, end := m[2*n], m[2*n+1]
		if start < 0 || start < last {
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(Mark)
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}

// redactPairs replaces the values of the credential-named pairs of s.
// A bare value runs to the end of its field (a comma, a brace, a line
// end) so that a pass phrase with spaces goes whole; where a space
// separates pairs (API_TOKEN=abc PATH=/bin) it ends before the next key.
func redactPairs(s string) string {
	var b strings.Builder
	pos := 0
	for pos < len(s) {
		m := pair.FindStringSubmatchIndex(s[pos:])
		if m == nil {
			break
		}
		for i := range m {
			if m[i] >= 0 {
				m[i] += pos
			}
		}
		start, end := m[0], m[1]
		oq, key, cq := s[m[2]:m[3]], s[m[4]:m[5]], s[m[6]:m[7]]
		vs, ve := m[10], m[11]
		if oq != "" && cq == "" {
			// A quote opens the value holding the pair ("KEY=value"),
			// not the key: look again after it.
			b.WriteString(s[pos : start+1])
			pos = start + 1
			continue
		}
		bare := s[vs] != '"' && s[vs] != '\''
		if bare {
			if ve < len(s) && (s[ve] == '=' || s[ve] == ':') {
				// The value's last word is the next pair's key.
				if sp := strings.LastIndexAny(s[vs:ve], " \t"); sp > 0 {
					ve = vs + sp
				}
			}
			for ve > vs && (s[ve-1] == ' ' || s[ve-1] == '\t') {
				ve--
			}
			end = ve
		}
		b.WriteString(s[pos:vs])
		v := s[vs:ve]
		switch {
		case oq != cq || !SecretName(key) || v == Mark || strings.Trim(v, `"'`) == Mark:
			b.WriteString(v)
		case bare:
			b.WriteString(Mark)
		default:
			b.WriteString(v[:1] + Mark + v[:1])
		}
		pos = end
	}
	b.WriteString(s[pos:])
	return b.String()
}
