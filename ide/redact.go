package ide

import (
	"net/url"
	"regexp"
	"strings"
)

// Redacted replaces credentials in what dbg reports.
const Redacted = "***"

var (
	// scheme://userinfo@ or a scheme-relative //userinfo@ — userinfo
	// may hold a token or a password.
	userinfoRE = regexp.MustCompile(`((?:[A-Za-z][A-Za-z0-9+.-]*:)?//)[^\s/?#@'"]*(?::[^\s@'"]*)?@`)
	// ?token=... and friends.
	secretParamRE = regexp.MustCompile(`(?i)([?&;](?:access_token|private_token|oauth_token|token|password)=)[^&#\s'"]*`)
	// Authorization: Basic xxx / Bearer xxx in verbose output.
	authHeaderRE = regexp.MustCompile(`(?i)(authorization:\s*[A-Za-z]+\s+)[^\s'"]+`)
)

// RedactText removes credentials from free text (command output, error
// messages): URL user-info, token-like query parameters and
// Authorization headers.
func RedactText(s string) string {
	if !strings.ContainsAny(s, "@=:") {
		return s
	}
	s = userinfoRE.ReplaceAllString(s, "${1}"+Redacted+"@")
	s = secretParamRE.ReplaceAllString(s, "${1}"+Redacted)
	s = authHeaderRE.ReplaceAllString(s, "${1}"+Redacted)
	return s
}

// RedactURL removes credentials from a remote URL: its user-info and
// token-like query parameters. scp-style addresses (git@host:path) carry
// no secret and are kept.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" {
		return RedactText(raw)
	}
	changed := false
	if u.User != nil {
		u.User = url.User(Redacted)
		changed = true
	}
	if u.RawQuery != "" {
		if red := secretParamRE.ReplaceAllString("?"+u.RawQuery, "${1}"+Redacted)[1:]; red != u.RawQuery {
			u.RawQuery = red
			changed = true
		}
	}
	if !changed {
		return raw
	}
	// url.String escapes the *** of the user-info; write it back plainly.
	return strings.Replace(u.String(), "%2A%2A%2A@", Redacted+"@", 1)
}
