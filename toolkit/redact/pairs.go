package redact

import "strings"

// Pairs are found by one scan of the text rather than by a pattern, so
// that quotes may come escaped to any depth (JSON inside a string,
// `{\"password\":\"x\"}`, or inside a Python repr of one), values may
// hold escaped quotes (password="Sec\"ret"), and forms without a
// separator of their own are seen too: --password X, ('api_key', 'x'),
// <password>x</password>, mysql's -pX, and pairs URL-encoded inside a
// query (password%3Dx). A value whose end cannot be found is redacted to
// the end of the text: redaction fails closed.

// maxKey bounds a key's length, as it is read back from its separator.
const maxKey = 81

// quote is a quote as it appears in the text: the quote character and
// the backslashes escaping it (0 plain, 1 inside a JSON string, ...).
type quote struct {
	char    byte
	escapes int
}

// quoteAt reads a quote starting at s[i]: backslashes then ' or ".
func quoteAt(s string, i int) (quote, int, bool) {
	j := i
	for j < len(s) && s[j] == '\\' {
		j++
	}
	if j < len(s) && (s[j] == '"' || s[j] == '\'') {
		return quote{s[j], j - i}, j + 1, true
	}
	return quote{}, i, false
}

// quoteBefore reads a quote ending just before s[end]: a quote character
// and the backslashes before it. It returns where the quote starts.
func quoteBefore(s string, end int) (quote, int, bool) {
	if end == 0 || (s[end-1] != '"' && s[end-1] != '\'') {
		return quote{}, end, false
	}
	i := end - 1
	for i > 0 && s[i-1] == '\\' {
		i--
	}
	return quote{s[end-1], end - 1 - i}, i, true
}

// closing finds the quote q that ends a value starting at s[from]: the
// quote character with exactly q.escapes backslashes before it (for a
// plain quote, an even number: \\" ends a value, \" does not). It
// returns the index of the quote's first byte, or -1.
func closing(s string, from int, q quote) int {
	for i := from; i < len(s); i++ {
		if s[i] != q.char {
			continue
		}
		n := 0
		for n < i-from && s[i-1-n] == '\\' {
			n++
		}
		if (q.escapes == 0 && n%2 == 0) || (q.escapes > 0 && n == q.escapes) {
			return i - n
		}
	}
	return -1
}

func isKeyByte(c byte) bool {
	return isAlnum(c) || c == '_' || c == '.' || c == '-'
}

// keyBefore reads the key ending before s[end] (spaces skipped): a bare
// word, or a quoted one. It returns the key, where it starts (its
// opening quote included) and its quote.
func keyBefore(s string, end int) (key string, start int, q quote, quoted, ok bool) {
	for end > 0 && (s[end-1] == ' ' || s[end-1] == '\t') {
		end--
	}
	q, kend, quoted := quoteBefore(s, end)
	i := kend
	for i > 0 && kend-i < maxKey && isKeyByte(s[i-1]) {
		i--
	}
	for i < kend && s[i] == '-' {
		i++ // --password=x: the dashes are the flag's, not the key's
	}
	if i == kend || !(isAlnum(s[i]) || s[i] == '_') {
		return "", 0, q, false, false
	}
	key, start = s[i:kend], i
	if quoted {
		oq, ostart, ok := quoteBefore(s, i)
		if !ok || oq != q {
			// "KEY=value": the quote is the value's, holding the pair.
			return "", 0, q, false, false
		}
		start = ostart
	}
	return key, start, q, quoted, true
}

// separatorAt reads a key/value separator at s[i]: ':' (not a URL's
// "://"), '=', "=>", or '=' URL-encoded (%3D, %253D, ...). It returns
// where the separator ends.
func separatorAt(s string, i int) (int, bool) {
	switch s[i] {
	case '=':
		if i+1 < len(s) && s[i+1] == '>' {
			return i + 2, true
		}
		return i + 1, true
	case ':':
		if strings.HasPrefix(s[i:], "://") {
			return 0, false
		}
		return i + 1, true
	case '%':
		if e, ok := encodedAt(s, i, "3d"); ok {
			return e, true
		}
	}
	return 0, false
}

// encodedAt reads a URL-encoded byte (hex, lower case) at s[i], encoded
// once or more (%3D, %253D).
func encodedAt(s string, i int, hex string) (int, bool) {
	j := i + 1
	for strings.HasPrefix(s[j:], "25") {
		j += 2
	}
	if j+2 <= len(s) && strings.EqualFold(s[j:j+2], hex) {
		return j + 2, true
	}
	return 0, false
}

// headerKeys take the rest of their line as their value (Cookie: a=1;
// b=2), as an HTTP header's value is.
func headerKey(key string) bool {
	n := normalize(key)
	return strings.Contains(n, "cookie") || strings.Contains(n, "authorization") || n == "xauth" || strings.HasSuffix(n, "authtoken")
}

// bareEnd is the end of a bare value starting at s[from]: the end of its
// field (a comma, semicolon, brace, bracket, parenthesis, ampersand,
// quote or line end, or an encoded & or ;), so that a pass phrase with
// spaces goes whole; where a space separates pairs (API_TOKEN=abc
// PATH=/bin) it ends before the next key, and an escaped quote ends it
// (the end of the string holding the pair). A header's value runs to
// the end of its line.
func bareEnd(s string, from int, header bool) int {
	i := from
	for i < len(s) {
		c := s[i]
		if c == '\n' || c == '\r' {
			break
		}
		if header {
			if c == '\\' && i+1 < len(s) && (s[i+1] == 'n' || s[i+1] == 'r') {
				break // an escaped line end
			}
			i++
			continue
		}
		if strings.IndexByte(",;}])&\"'?=", c) >= 0 {
			break
		}
		if c == '\\' && i+1 < len(s) && (s[i+1] == 'n' || s[i+1] == 'r' || s[i+1] == 't') {
			break // an escaped line end or tab
		}
		if c == '%' {
			if _, ok := encodedAt(s, i, "26"); ok {
				break
			}
			if _, ok := encodedAt(s, i, "3b"); ok {
				break
			}
		}
		if c == '\\' {
			j := i
			for j < len(s) && s[j] == '\\' {
				j++
			}
			if j < len(s) && (s[j] == '"' || s[j] == '\'') {
				break // an escaped quote: the end of the string holding the pair
			}
			i = j
			continue
		}
		i++
	}
	end := i
	if end < len(s) && (s[end] == '=' || s[end] == ':') && !header {
		// Padding (AccountKey=abc==;) belongs to the value; a separator
		// means the value's last word is the next pair's key.
		j := end
		for j < len(s) && s[j] == '=' {
			j++
		}
		if s[end] == '=' && (j == len(s) || strings.IndexByte(",;}])&\"' \t\n\r", s[j]) >= 0) {
			return j
		}
		if sp := strings.LastIndexAny(s[from:end], " \t"); sp > 0 {
			end = from + sp
		}
	}
	for end > from && (s[end-1] == ' ' || s[end-1] == '\t') {
		end--
	}
	return end
}

// valueAt reads the value starting at s[from] (spaces skipped): quoted,
// to its closing quote (or, failing closed, to the end of s), or bare
// (see bareEnd). It returns the span to replace, and where the value
// ends, its closing quote included.
func valueAt(s string, from int, header bool) (vs, ve, end int, ok bool) {
	for from < len(s) && (s[from] == ' ' || s[from] == '\t') {
		from++
	}
	if from >= len(s) {
		return 0, 0, 0, false
	}
	if q, open, isQuote := quoteAt(s, from); isQuote {
		c := closing(s, open, q)
		if c < 0 {
			return open, len(s), len(s), true
		}
		return open, c, c + q.escapes + 1, true
	}
	e := bareEnd(s, from, header)
	return from, e, e, e > from
}

// span is a part of the text to replace by Mark.
type span struct{ start, end int }

// pairSpans finds the values of credential-named pairs in s, in order.
func pairSpans(s string, mysql bool) []span {
	var out []span
	add := func(vs, ve int) {
		if ve > vs && s[vs:ve] != Mark {
			out = append(out, span{vs, ve})
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ':' || c == '=' || c == '%':
			sepEnd, ok := separatorAt(s, i)
			if !ok {
				continue
			}
			key, _, _, _, ok := keyBefore(s, i)
			if !ok || !SecretName(key) {
				continue
			}
			header := c == ':' && headerKey(key)
			if vs, ve, end, ok := valueAt(s, sepEnd, header); ok {
				add(vs, ve)
				i = end - 1
			}
		case c == ',':
			// A Python tuple: ('api_key', 'x').
			key, start, _, quoted, ok := keyBefore(s, i)
			if !ok || !quoted || !SecretName(key) {
				continue
			}
			j := start
			for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
				j--
			}
			if j == 0 || s[j-1] != '(' {
				continue
			}
			k := i + 1
			for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
				k++
			}
			if _, _, isQuote := quoteAt(s, k); !isQuote {
				continue
			}
			if vs, ve, end, ok := valueAt(s, k, false); ok {
				add(vs, ve)
				i = end - 1
			}
		case c == '-' && i+1 < len(s) && s[i+1] == '-' && (i == 0 || !isKeyByte(s[i-1])):
			if vs, ve, end, ok := flagValue(s, i); ok {
				add(vs, ve)
				i = end - 1
			}
		case c == '-' && mysql && i+2 < len(s) && s[i+1] == 'p' && (i == 0 || strings.IndexByte(" \t'\",[", s[i-1]) >= 0):
			// mysql -pSECRET: the password joined to its flag.
			e := i + 2
			for e < len(s) && strings.IndexByte(" \t\n'\",]\\", s[e]) < 0 {
				e++
			}
			add(i+2, e)
			i = e - 1
		case c == '<':
			if vs, ve, ok := xmlValue(s, i); ok {
				add(vs, ve)
				i = ve - 1
			}
		case c == '\\':
			// A run of backslashes is looked at once: it may start an
			// escaped angle bracket.
			if vs, ve, ok := xmlValue(s, i); ok {
				add(vs, ve)
				i = ve - 1
				continue
			}
			for i+1 < len(s) && s[i+1] == '\\' {
				i++
			}
		}
	}
	return out
}

// flagValue reads the value of a credential-named flag at s[i] ("--"),
// given as the next word: --password X, or the next element of a list
// of arguments: '--password', 'X'. --password=X is a pair.
func flagValue(s string, i int) (vs, ve, end int, ok bool) {
	j := i + 2
	for j < len(s) && isKeyByte(s[j]) {
		j++
	}
	if j == i+2 || !SecretName(s[i+2:j]) || j >= len(s) {
		return 0, 0, 0, false
	}
	k := j
	if q, e, isQuote := quoteAt(s, k); isQuote {
		// The flag is a quoted element: skip to the next one.
		oq, _, ok := quoteBefore(s, i)
		if !ok || oq != q {
			return 0, 0, 0, false
		}
		k = e
		for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
			k++
		}
		if k >= len(s) || s[k] != ',' {
			return 0, 0, 0, false
		}
		k++
		for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
			k++
		}
		if _, _, isQuote := quoteAt(s, k); !isQuote {
			return 0, 0, 0, false
		}
		return valueAt(s, k, false)
	}
	if s[k] != ' ' && s[k] != '\t' {
		return 0, 0, 0, false
	}
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	if k >= len(s) || s[k] == '-' {
		return 0, 0, 0, false // another flag follows
	}
	if _, _, isQuote := quoteAt(s, k); isQuote {
		return valueAt(s, k, false)
	}
	e := k
	for e < len(s) && strings.IndexByte(" \t\n\r,;'\"]})\\", s[e]) < 0 {
		e++
	}
	return k, e, e, e > k
}

// xmlValue reads the text of a credential-named element at s[i] ('<'):
// <password>x</password>, <db:pass attr="1">x</db:pass>, also with its
// angle brackets escaped as JSON escapes them (\u003c, \u003e).
func xmlValue(s string, i int) (vs, ve int, ok bool) {
	j, ok := angleAt(s, i, "3c")
	if !ok {
		return 0, 0, false
	}
	start := j
	for j < len(s) && (isKeyByte(s[j]) || s[j] == ':') {
		j++
	}
	if j == start || !SecretName(s[start:j]) {
		return 0, 0, false
	}
	// The start tag ends at the first '>' (escaped or not).
	for ; j < len(s); j++ {
		if e, ok := angleAt(s, j, "3e"); ok {
			if s[j-1] == '/' {
				return 0, 0, false // <password/>
			}
			vs = e
			break
		}
		if s[j] == '<' {
			return 0, 0, false
		}
	}
	if vs == 0 {
		return 0, 0, false
	}
	for k := vs; k < len(s); k++ {
		if _, ok := angleAt(s, k, "3c"); ok {
			return vs, k, true
		}
	}
	return vs, len(s), true
}

// angleAt reads an angle bracket at s[i]: the character itself, or its
// JSON escape (backslashes, then u003c or u003e), hex being "3c" or
// "3e". It returns where it ends.
func angleAt(s string, i int, hex string) (int, bool) {
	want := byte('<')
	if hex == "3e" {
		want = '>'
	}
	if s[i] == want {
		return i + 1, true
	}
	if s[i] != '\\' {
		return 0, false
	}
	j := i
	for j < len(s) && s[j] == '\\' {
		j++
	}
	if j+5 <= len(s) && s[j] == 'u' && s[j+1:j+3] == "00" && strings.EqualFold(s[j+3:j+5], hex) {
		return j + 5, true
	}
	return 0, false
}

// redactPairs replaces the values of the credential-named pairs of s.
func redactPairs(s string, mysql bool) string {
	spans := pairSpans(s, mysql)
	if len(spans) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, sp := range spans {
		if sp.start < last {
			continue
		}
		b.WriteString(s[last:sp.start])
		b.WriteString(Mark)
		last = sp.end
	}
	b.WriteString(s[last:])
	return b.String()
}
