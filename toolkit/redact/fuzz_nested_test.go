package redact

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// nestedForms are the shapes a credential takes in a value; %s is the
// secret, %k another key and %v its value.
var nestedForms = []string{
	`{"password":"%s","%k":"%v"}`,
	`password="%s" %k=%v`,
	`{'api_key': '%s', '%k': '%v'}`,
	`%k=%v&token=%s&x=1`,
	`['run', '--password', '%s', '--%k', '%v']`,
	`--secret %s --%k %v`,
	`<%k>%v</%k><password>%s</password>`,
	`[('client_secret', '%s'), ('%k', '%v')]`,
	"Cookie: sid=%s; %k=%v",
	`main.Conf {DBPass: "%s", %k: "%v"}`,
	`AccountName=%k;AccountKey=%s==;Suffix=%v`,
}

// FuzzNestedValues builds a credential in one of the shapes above, then
// escapes it as JSON inside JSON (or URL-encodes a query) up to three
// times, and checks that the secret never survives redaction, in a
// value's text or in an answer's value field, and that what redaction
// made is stable.
func FuzzNestedValues(f *testing.F) {
	for i := range nestedForms {
		f.Add("hunter2xyz", uint8(i), uint8(0), "user", "bob")
		f.Add("S3cr3tValue99", uint8(i), uint8(2), "page", "2")
	}
	f.Fuzz(func(t *testing.T, secret string, form, levels uint8, key, val string) {
		if !alnum(secret, 6, 64) || !alnum(key, 1, 12) || !alnum(val, 1, 12) || SecretName(key) {
			return
		}
		tpl := nestedForms[int(form)%len(nestedForms)]
		text := strings.NewReplacer("%s", secret, "%k", key, "%v", val).Replace(tpl)
		if strings.Count(text, secret) != 1 {
			return // the secret is also another part of the text
		}
		query := strings.HasPrefix(tpl, "%k=")
		for range int(levels) % 4 {
			if query {
				text = url.QueryEscape(text)
			} else {
				b, _ := json.Marshal(text)
				text = string(b)
			}
		}
		out, _ := String(text)
		if strings.Contains(out, secret) {
			t.Fatalf("String(%q) = %q keeps the secret", text, out)
		}
		if again, _ := String(out); again != out {
			t.Fatalf("not stable: %q -> %q -> %q", text, out, again)
		}
		ans, _ := json.Marshal(map[string]string{"value": text})
		if red := JSON(ans, false); strings.Contains(string(red), secret) || !json.Valid(red) {
			t.Fatalf("JSON(%s) = %s", ans, red)
		}
	})
}

func alnum(s string, min, max int) bool {
	if len(s) < min || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isAlnum(s[i]) {
			return false
		}
	}
	return true
}
