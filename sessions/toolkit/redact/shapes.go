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
var pair = regexp.MustCompile(`(["']?)([A-Za-z_][A-Za-z0-9_.\-]{0,80})(["']?)(\s*(?::|=>|=)\s*)("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\s,;}\])&"'?=]+)`)

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
		out = pair.ReplaceAllStringFunc(out, redactPair)
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

// redactPair replaces the value of one key/value match when the key
// looks like a credential, keeping the value's quotes.
func redactPair(m string) string {
	sub := pair.FindStringSubmatch(m)
	if sub != nil && sub[1] != "" && sub[3] == "" {
		// A quote opens the value holding the pair ("KEY=value"), not
		// the key.
		return sub[1] + pair.ReplaceAllStringFunc(m[1:], redactPair)
	}
	if sub == nil || sub[1] != sub[3] || !SecretName(sub[2]) {
		return m
	}
	v := sub[5]
	if v == Mark || strings.Trim(v, `"'`) == Mark {
		return m
	}
	q := ""
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') {
		q = v[:1]
	}
	return sub[1] + sub[2] + sub[3] + sub[4] + q + Mark + q
}
