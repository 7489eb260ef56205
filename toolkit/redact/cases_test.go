package redact

import (
	"encoding/json"
	"strings"
	"testing"
)

// Every gap of finding 9, as a program's value shows it: each is
// redacted now, and what is no credential stays.
func TestStringFindingNine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, in, want string }{
		{"cookie header", "Cookie: sessionid=X93kd; theme=dark", "Cookie: ‹redacted›"},
		{"set-cookie in a header dump", "Set-Cookie: sid=abc123; Path=/\nHost: a", "Set-Cookie: ‹redacted›\nHost: a"},
		{"JSON in a Go string", `"{\"password\":\"hunter2\",\"user\":\"bob\"}"`, `"{\"password\":\"‹redacted›\",\"user\":\"bob\"}"`},
		{"double-encoded JSON in a Python repr", `'"{\\"password\\": \\"hunter2\\"}"'`, `'"{\\"password\\": \\"‹redacted›\\"}"'`},
		{"DB_PASS", "DB_PASS=x1y2", "DB_PASS=‹redacted›"},
		{"DBPass", "DBPass: 'x1y2'", "DBPass: '‹redacted›'"},
		{"MYSQL_PWD", "MYSQL_PWD=x1y2", "MYSQL_PWD=‹redacted›"},
		{"pw", "{'pw': 'x1y2'}", "{'pw': '‹redacted›'}"},
		{"passcode", "passcode=1234", "passcode=‹redacted›"},
		{"privkey", "privkey: abcdef", "privkey: ‹redacted›"},
		{"ssh_key", `ssh_key="AAAAB3Nza"`, `ssh_key="‹redacted›"`},
		{"X-Auth", "X-Auth: abcdef123", "X-Auth: ‹redacted›"},
		{"accountKey", "accountKey=abc", "accountKey=‹redacted›"},
		{"client_key", "client_key = 'abc'", "client_key = '‹redacted›'"},
		{"dsn", "dsn: 'postgres://app@db/shop'", "dsn: '‹redacted›'"},
		{"--password X", "mysqldump --password hunter2 shop", "mysqldump --password ‹redacted› shop"},
		{"--password in a list", "['psql', '--password', 'hunter2', '-h', 'db']", "['psql', '--password', '‹redacted›', '-h', 'db']"},
		{"-pX", "mysql -uroot -phunter2 shop", "mysql -uroot -p‹redacted› shop"},
		{"-pX in a list", `["mysql", "-uroot", "-phunter2"]`, `["mysql", "-uroot", "-p‹redacted›"]`},
		{"XML", "<db><user>bob</user><password>hunter2</password></db>", "<db><user>bob</user><password>‹redacted›</password></db>"},
		{"token as a URL's user", "https://ghx8f7d6e5c4b3a2918@github.com/o/r.git", "https://‹redacted›@github.com/o/r.git"},
		{"npm token", "//registry.npmjs.org/:_authToken=npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "//registry.npmjs.org/:_authToken=‹redacted›"},
		{"npm token alone", "token npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 here", "token ‹redacted› here"},
		{"hf token", "HF hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789 ok", "HF ‹redacted› ok"},
		{"Azure", "DefaultEndpointsProtocol=https;AccountName=shop;AccountKey=a1b2c3d4e5==;EndpointSuffix=core.windows.net", "DefaultEndpointsProtocol=https;AccountName=shop;AccountKey=‹redacted›;EndpointSuffix=core.windows.net"},
		{"URL-encoded", "https://x.io/login?next=%2Fcb%3Fpassword%3Dhunter2%26page%3D2", "https://x.io/login?next=%2Fcb%3Fpassword%3D‹redacted›%26page%3D2"},
		{"encoded twice", "next=%253Fpassword%253Dhunter2%2526a", "next=%253Fpassword%253D‹redacted›%2526a"},
		{"Python tuples", "[('api_key', 'k-123'), ('page', '2')]", "[('api_key', '‹redacted›'), ('page', '2')]"},
		{"escaped quote", `password="Sec\"ret" next=1`, `password="‹redacted›" next=1`},
		{"escaped quote in single quotes", `{'token': 'a\'b', 'x': 1}`, `{'token': '‹redacted›', 'x': 1}`},
		{"unterminated quote fails closed", `password="Sec\"ret and the rest`, `password="‹redacted›`},
		// What stays.
		{"git user", "https://git@github.com/o/r.git", "https://git@github.com/o/r.git"},
		{"gcc flags", "gcc -pthread -pedantic x.c", "gcc -pthread -pedantic x.c"},
		{"a port flag", "ssh -p2222 host", "ssh -p2222 host"},
		{"bypass", "bypass=true", "bypass=true"},
		{"a flag without its value", "run --password", "run --password"},
		{"XML of no credential", "<user>bob</user>", "<user>bob</user>"},
		{"time", "12:30:45", "12:30:45"},
	} {
		got, _ := String(c.in)
		if got != c.want {
			t.Errorf("%s: String(%q)\n got %q\nwant %q", c.name, c.in, got, c.want)
		}
		if again, _ := String(got); again != got {
			t.Errorf("%s: not stable: %q -> %q", c.name, got, again)
		}
	}
}

// A value nested deeper than the walk goes is replaced whole: redaction
// fails closed.
func TestJSONFailsClosedPastTheDepthLimit(t *testing.T) {
	t.Parallel()
	deep := `{"password":"hunter2"}`
	for range maxDepth + 2 {
		deep = `{"value":[` + deep + `]}`
	}
	out := JSON([]byte(deep), false)
	if strings.Contains(string(out), "hunter2") || !json.Valid(out) || !strings.Contains(string(out), Mark) {
		t.Fatalf("deep value: %.200s", out)
	}
	if again := JSON(out, false); string(again) != string(out) {
		t.Fatal("not stable")
	}
}

// JSON inside a value field's string is redacted as JSON is, escaped to
// any depth.
func TestJSONInsideStrings(t *testing.T) {
	t.Parallel()
	inner, _ := json.Marshal(map[string]string{"password": "hunter2", "user": "bob"})
	once, _ := json.Marshal(string(inner))
	twice, _ := json.Marshal(string(once))
	for _, v := range []string{string(inner), string(once), string(twice)} {
		ans, _ := json.Marshal(map[string]any{"variables": []map[string]string{{"name": "body", "value": v}}})
		out := string(JSON(ans, false))
		if strings.Contains(out, "hunter2") || !strings.Contains(out, "bob") {
			t.Errorf("%s\n-> %s", ans, out)
		}
	}
}
