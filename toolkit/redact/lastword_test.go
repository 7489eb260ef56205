package redact

import "testing"

func TestLastWord(t *testing.T) {
	for in, want := range map[string]string{
		"DB_PASS": "pass", "DBPass": "pass", "dbPass": "pass", "MYSQL_PWD": "pwd", "X-Auth": "auth", "pass": "",
		"bypass": "", "user_pw": "pw", "SENTRY_DSN": "dsn", "os.environ['DB_PASS']": "pass", "HTTPAuth": "auth", "pass_count": "count",
	} {
		if got := lastWord(in); got != want {
			t.Errorf("lastWord(%q) = %q, want %q", in, got, want)
		}
	}
}
