package redact

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSecretName(t *testing.T) {
	for _, n := range []string{
		"password", "Password", "PASSWORD", "db_password", "passwd", "secret", "clientSecret", "token", "access_token",
		"apiKey", "api_key", "API-KEY", "ApiKey", "Authorization", "authorization", "cookie", "Set-Cookie", "private_key",
		"privateKey", "PRIVATE KEY", `"Authorization"`, "'api_key'", "headers['Authorization']", "os.environ['GITHUB_TOKEN']",
		"credentials", "aws_secret_access_key", "auth", "passphrase", "jwt",
	} {
		if !SecretName(n) {
			t.Errorf("SecretName(%q) = false, want true", n)
		}
	}
	for _, n := range []string{
		"", "i", "count", "name", "user", "author", "authorName", "tokenizer", "path", "PWD", "'PWD'", "key", "keys", "monkey",
		"total", "x.y", "config", "passenger", "pass_count",
	} {
		if SecretName(n) {
			t.Errorf("SecretName(%q) = true, want false", n)
		}
	}
}

func TestString(t *testing.T) {
	pem := "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAx\nabc\n-----END RSA PRIVATE KEY-----"
	for _, c := range []struct{ in, want string }{
		{"'Bearer eyJhbGciOi.abc123XYZ'", "'Bearer ‹redacted›'"},
		{`"bearer abcdefgh12345678"`, `"bearer ‹redacted›"`},
		{"Basic dXNlcjpwYXNzd29yZA==", "Basic ‹redacted›"},
		{"key AKIAIOSFODNN7EXAMPLE here", "key ‹redacted› here"},
		{"'" + pem + "'", "'‹redacted›'"},
		{`"head\n` + pem + `\ntail"`, `"head\n‹redacted›\ntail"`},
		{"-----BEGIN CERTIFICATE-----\nMIIB", "‹redacted›"},
		{"postgres://bob:s3cret@db:5432/app", "postgres://bob:‹redacted›@db:5432/app"},
		{"https://example.com/path?q=1", "https://example.com/path?q=1"},
		{"ghp_abcdefghijklmnopqrstuvwxyz0123", "‹redacted›"},
		{"{'user': 'bob', 'password': 'hunter2'}", "{'user': 'bob', 'password': '‹redacted›'}"},
		{`map[string]string ["Authorization": "Bearer abcdefgh12345", "Accept": "*/*", ]`, `map[string]string ["Authorization": "‹redacted›", "Accept": "*/*", ]`},
		{`main.Creds {User: "bob", Password: "hunter2"}`, `main.Creds {User: "bob", Password: "‹redacted›"}`},
		{"API_TOKEN=abc123 PATH=/usr/bin", "API_TOKEN=‹redacted› PATH=/usr/bin"},
		{`["HOME=/root","SERVICE_TOKEN=tok-abc123456"]`, `["HOME=/root","SERVICE_TOKEN=‹redacted›"]`},
		{`"db_password=x1"`, `"db_password=‹redacted›"`},
		{"{password=my pass phrase, user=bob}", "{password=‹redacted›, user=bob}"},
		{"API_TOKEN=abc PASSWORD=x y PATH=/bin", "API_TOKEN=‹redacted› PASSWORD=‹redacted› PATH=/bin"},
		{"token: abc def\nnext: line", "token: ‹redacted›\nnext: line"},
		{"x: 'a', token='b c', y=2", "x: 'a', token='‹redacted›', y=2"},
		{"https://x.io/cb?token=abc123&page=2", "https://x.io/cb?token=‹redacted›&page=2"},
		{"hello world", "hello world"},
		{"12:30:45", "12:30:45"},
		{"'the basic idea'", "'the basic idea'"},
	} {
		got, changed := String(c.in)
		if got != c.want {
			t.Errorf("String(%q) = %q, want %q", c.in, got, c.want)
		}
		if changed != (c.in != c.want) {
			t.Errorf("String(%q) changed = %v", c.in, changed)
		}
	}
}

func TestJSON(t *testing.T) {
	for _, c := range []struct {
		name  string
		in    string
		named bool
		want  string
	}{
		{"a credential-named variable",
			`{"variables":[{"name":"password","value":"'hunter2'","type":"str","variablesReference":0},{"name":"n","value":"3"}]}`, false,
			`{"variables":[{"name":"password","value":"‹redacted›","type":"str","variablesReference":0},{"name":"n","value":"3"}]}`},
		{"map children by key",
			`{"variables":[{"name":"\"Authorization\"","value":"\"xyz\"","evaluateName":"headers[\"Authorization\"]"}]}`, false,
			`{"variables":[{"name":"\"Authorization\"","value":"‹redacted›","evaluateName":"headers[\"Authorization\"]"}]}`},
		{"changed entries",
			`{"changed":[{"name":"apiKey","old":"\"a\"","new":"\"b\""},{"name":"i","old":"1","new":"2"}]}`, false,
			`{"changed":[{"name":"apiKey","old":"‹redacted›","new":"‹redacted›"},{"name":"i","old":"1","new":"2"}]}`},
		{"an evaluation of a credential",
			`{"result":"'hunter2'","type":"str","variablesReference":0}`, true,
			`{"result":"‹redacted›","type":"str","variablesReference":0}`},
		{"a trace of a credential expression",
			`{"probes":[{"expressions":[{"expression":"token","first":"a","min":3,"distinct":[{"value":"a","count":2}]}]}]}`, false,
			`{"probes":[{"expressions":[{"expression":"token","first":"‹redacted›","min":"‹redacted›","distinct":[{"value":"‹redacted›","count":2}]}]}]}`},
		{"environment entries",
			`{"env":{"GITHUB_TOKEN":"ghx","HOME":"/root"}}`, false,
			`{"env":{"GITHUB_TOKEN":"‹redacted›","HOME":"/root"}}`},
		{"shapes in value fields only",
			`{"file":"/tmp/password.py","value":"'Bearer abcdefgh12345'","text":"Bearer abcdefgh12345"}`, false,
			`{"file":"/tmp/password.py","value":"'Bearer ‹redacted›'","text":"Bearer abcdefgh12345"}`},
		{"nothing to hide", `{"a":1,  "b":[true,null]}`, false, `{"a":1,  "b":[true,null]}`},
		{"not JSON", `{"a":`, true, `{"a":`},
	} {
		got := string(JSON([]byte(c.in), c.named))
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
		if !json.Valid([]byte(got)) && json.Valid([]byte(c.in)) {
			t.Errorf("%s: the answer is no longer JSON: %s", c.name, got)
		}
	}
}

// FuzzString checks that redaction never panics, keeps text valid, is
// stable (redacting twice changes nothing more) and leaves no AWS key
// id or PEM header behind.
func FuzzString(f *testing.F) {
	for _, s := range []string{"Bearer abcdefgh12345", "AKIAIOSFODNN7EXAMPLE", "password=x", "-----BEGIN X-----\n-----END X-----",
		"a://u:p@h", `{"token": "t"}`, "'Basic QWxhZGRpbjpvcGVu'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, _ := String(s)
		if utf8.ValidString(s) && !utf8.ValidString(r) {
			t.Fatalf("String(%q) = %q is not valid UTF-8", s, r)
		}
		if again, _ := String(r); again != r {
			t.Fatalf("not stable: %q -> %q -> %q", s, r, again)
		}
		if awsKey.MatchString(r) {
			t.Fatalf("String(%q) = %q keeps an access key id", s, r)
		}
		if strings.Contains(r, "-----BEGIN ") && pemHead.MatchString(r) {
			t.Fatalf("String(%q) = %q keeps a PEM block", s, r)
		}
	})
}

// FuzzJSON checks that redacted JSON stays valid JSON, and that
// redacting it again changes nothing.
func FuzzJSON(f *testing.F) {
	f.Add(`{"name":"password","value":"x"}`, false)
	f.Add(`[{"token":{"a":[1,"Bearer abcdefgh12"]}}]`, true)
	f.Fuzz(func(t *testing.T, s string, named bool) {
		out := JSON([]byte(s), named)
		if !json.Valid([]byte(s)) {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("JSON(%q) = %q is not valid JSON", s, out)
		}
		if again := JSON(out, named); string(again) != string(out) {
			t.Fatalf("not stable: %q -> %q -> %q", s, out, again)
		}
	})
}
