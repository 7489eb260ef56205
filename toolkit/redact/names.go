package redact

import "strings"

// Mark replaces a credential.
const Mark = "‹redacted›"

// secretParts are the credential words of a normalized name (lower case,
// letters and digits only): a name holding one of them is a credential.
var secretParts = []string{
	"password", "passwd", "passphrase", "secret", "token", "apikey", "accesskey",
	"privatekey", "signingkey", "encryptionkey", "masterkey", "authkey", "authorization",
	"cookie", "credential", "jwt", "sessionkey", "bearer",
}

// secretWholes are names that are credentials only when they are the
// whole normalized name: as parts they mean other things (author, oauth
// flows, a module named auth_utils).
var secretWholes = []string{"auth", "pwd", "pass", "pin", "otp"}

// benignParts are words that contain a credential word without being
// one: a tokenizer holds no token.
var benignParts = []string{"tokeniz", "tokenis", "tokentype", "tokenkind"}

// SecretName reports whether a variable, field, key or expression name
// looks like a credential. Case and separators do not count: apiKey,
// API_KEY, api-key and d['Api Key'] all do.
func SecretName(name string) bool {
	n := normalize(name)
	if n == "" {
		return false
	}
	if n == "pwd" && strings.Contains(name, "PWD") {
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
	return false
}

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
