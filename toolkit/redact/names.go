package redact

import "strings"

// Mark replaces a credential.
const Mark = "‹redacted›"

// secretParts are the credential words of a normalized name (lower case,
// letters and digits only): a name holding one of them is a credential.
var secretParts = []string{
	"password", "passwd", "passphrase", "passcode", "secret", "token", "apikey", "accesskey",
	"privatekey", "privkey", "signingkey", "encryptionkey", "masterkey", "authkey", "sshkey",
	"accountkey", "clientkey", "storagekey", "sharedkey", "authorization", "cookie", "credential",
	"jwt", "sessionkey", "bearer",
}

// secretWholes are names that are credentials only when they are the
// whole normalized name: as parts they mean other things (author, oauth
// flows, a module named auth_utils).
var secretWholes = []string{"auth", "pwd", "pass", "pw", "pin", "otp", "dsn"}

// secretLastWords are credentials as the last word of a name split at its
// separators and case changes (DB_PASS, DBPass, MYSQL_PWD, user_pw,
// X-Auth, SENTRY_DSN), never inside one word (bypass, compass).
var secretLastWords = []string{"pass", "pwd", "pw", "auth", "dsn", "passwd"}

// benignParts are words that contain a credential word without being
// one: a tokenizer holds no token.
var benignParts = []string{"tokeniz", "tokenis", "tokentype", "tokenkind"}

// SecretName reports whether a variable, field, key or expression name
// looks like a credential. Case and separators do not count: apiKey,
// API_KEY, api-key and d['Api Key'] all do, and so do names whose last
// word is one (DB_PASS, MYSQL_PWD, X-Auth).
func SecretName(name string) bool {
	n := normalize(name)
	if n == "" {
		return false
	}
	if n == "pwd" && strings.Contains(name, "PWD") && !strings.Contains(name, "_") {
		return false // the shell's working directory
	}
	for _, w := range secretWholes {
		if n == w {
			return true
		}
	}
	for _, b := range benignParts {
		n = strings.ReplaceAll(n, b, "_")
	}
	for _, p := range secretParts {
		if strings.Contains(n, p) {
			return true
		}
	}
	last := lastWord(name)
	for _, w := range secretLastWords {
		if last == w {
			return true
		}
	}
	return false
}

// lastWord is the last word of name, lower case: words end at anything
// but a letter or digit, and where a lower-case letter or digit meets an
// upper-case one (dbPass) or an upper-case run meets a capitalised word
// (DBPass). A name of one word has no last word ("").
func lastWord(name string) string {
	if len(name) > 512 {
		name = name[len(name)-512:]
	}
	end := len(name)
	for end > 0 && !isAlnum(name[end-1]) {
		end--
	}
	start := end
	for start > 0 {
		c, p := name[start-1], byte(0)
		if !isAlnum(c) {
			break
		}
		if start < end {
			p = name[start]
		}
		// A boundary before name[start]: lower/digit then upper, or an
		// upper run whose last letter starts a capitalised word.
		if isUpper(p) && (isLower(c) || isDigit(c)) {
			break
		}
		if isUpper(c) && isUpper(p) && start+1 < end && isLower(name[start+1]) {
			break
		}
		start--
	}
	if start == 0 {
		// One word, unless separators or case changes came before.
		return ""
	}
	return strings.ToLower(name[start:end])
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlnum(c byte) bool { return isUpper(c) || isLower(c) || isDigit(c) }

// normalize lowers name and keeps its ASCII letters and digits, so that
// every spelling of a name compares equal.
func normalize(name string) string {
	if len(name) > 512 {
		name = name[:512]
	}
	b := make([]byte, 0, len(name))
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b = append(b, c)
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		}
	}
	return string(b)
}
