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
	// looks, when set, must accept the secret for it to be replaced.
	looks func(string) bool
}

// shapes are checked in order; each replaces only its secret part.
var shapes = []shape{
	// PEM blocks: certificates and keys alike, whole (an unterminated block to the end).
	{[]string{"-----begin "}, regexp.MustCompile(`-----BEGIN [A-Z0-9 ]{1,64}-----(?s:.*?)(?:-----END [A-Z0-9 ]{1,64}-----|\z)`), 0, nil},
	// HTTP credentials: Bearer tokens in any case, Basic as headers write it.
	{[]string{"bearer", "basic"}, regexp.MustCompile(`(?:\b[Bb][Ee][Aa][Rr][Ee][Rr]|\bBasic)\s+([A-Za-z0-9\-._~+/]{8,}=*)`), 1, nil},
	// AWS access key ids.
	{[]string{"akia", "asia", "agpa", "aida", "aroa", "anpa", "anva"}, regexp.MustCompile(`\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA)[A-Z0-9]{16}\b`), 0, nil},
	// GitHub, GitLab, Slack, Stripe, OpenAI-style, Google API, npm and
	// Hugging Face tokens.
	{[]string{"gh", "glpat-", "xox", "k_live_", "k_test_", "sk-", "aiza", "npm_", "hf_"}, regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9\-_]{20,}|xox[abposr]-[A-Za-z0-9\-]{10,}|[sr]k_(?:live|test)_[A-Za-z0-9]{16,}|sk-[A-Za-z0-9\-_]{20,}|AIza[0-9A-Za-z\-_]{35}|npm_[A-Za-z0-9]{30,}|hf_[A-Za-z0-9]{30,})`), 0, nil},
	// JSON Web Tokens.
	{[]string{"eyj"}, regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`), 0, nil},
	// Passwords in URLs: scheme://user:password@host.
	{[]string{"://"}, regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.\-]{0,30}://[^\s:/@'"]*:([^\s@/'"]+)@`), 1, nil},
	// A token as a URL's user: https://TOKEN@host (16 characters or more,
	// letters and digits; git@ and the like stay).
	{[]string{"://"}, regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.\-]{0,30}://([A-Za-z0-9_\-.~]{16,})@`), 1, lettersAndDigits},
}

// lettersAndDigits reports whether s mixes letters and digits, as tokens do.
func lettersAndDigits(s string) bool {
	return strings.ContainsAny(s, "0123456789") && strings.ContainsFunc(s, func(r rune) bool { return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' })
}

// String returns s with the credentials its shapes and credential-named
// pairs show replaced by [Mark], and whether it changed anything.
func String(s string) (string, bool) {
	if len(s) < 8 {
		return s, false
	}
	out, lower := s, strings.ToLower(s)
	for _, sh := range shapes {
		if containsAny(lower, sh.hints) {
			out = replaceSub(sh.re, out, sh.secret, sh.looks)
		}
	}
	if strings.ContainsAny(out, ":=,-<%\\") {
		out = redactPairs(out, strings.Contains(lower, "mysql") || strings.Contains(lower, "mariadb"))
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

// replaceSub replaces submatch n of every match of re in s by Mark (when
// looks, if set, accepts it).
func replaceSub(re *regexp.Regexp, s string, n int, looks func(string) bool) string {
	idx := re.FindAllStringSubmatchIndex(s, -1)
	if idx == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range idx {
		start, end := m[2*n], m[2*n+1]
		if start < 0 || start < last || (looks != nil && !looks(s[start:end])) {
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(Mark)
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}
