package ide

import (
	"net/url"
	"strings"
	"testing"
)

func TestRedactURL(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"https://github.com/a/b.git":                           "https://github.com/a/b.git",
		"https://user:pw@github.com/a/b.git":                   "https://***@github.com/a/b.git",
		"https://ghp_abc@github.com/a/b.git":                   "https://***@github.com/a/b.git",
		"ssh://git@host:22/a.git":                              "ssh://***@host:22/a.git",
		"git@github.com:a/b.git":                               "git@github.com:a/b.git",
		"https://h/x.git?token=abc&x=1":                        "https://h/x.git?token=***&x=1",
		"https://h/x?PRIVATE_TOKEN=a&oauth_token=b&password=c": "https://h/x?PRIVATE_TOKEN=***&oauth_token=***&password=***",
		"/srv/git/repo.git":                                    "/srv/git/repo.git",
	}
	for in, want := range cases {
		if got := RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRedactText(t *testing.T) {
	t.Parallel()
	in := "fatal: unable to access 'https://bob:hunter2@example.com/r.git/': 403\n" +
		"From https://x-access-token:ghs_123@github.com/o/r?access_token=zzz\n" +
		"> Authorization: Basic Ym9iOmh1bnRlcjI=\n" +
		"plain text with an email bob@example.com stays"
	got := RedactText(in)
	for _, secret := range []string{"hunter2", "ghs_123", "zzz", "Ym9iOmh1bnRlcjI", "x-access-token"} {
		if strings.Contains(got, secret) {
			t.Errorf("%q not redacted: %s", secret, got)
		}
	}
	if !strings.Contains(got, "bob@example.com stays") {
		t.Errorf("over-redacted: %s", got)
	}
}

func FuzzRedactURL(f *testing.F) {
	f.Add("https://user:secret@host/p?token=secret")
	f.Add("git@host:a/b")
	f.Add("http://[::1]:80/x?password=secret#frag")
	f.Fuzz(func(t *testing.T, s string) {
		out := RedactURL(s)
		if u, err := url.Parse(out); err == nil && u.User != nil {
			pw, has := u.User.Password()
			if (has && pw != "") || (u.User.Username() != "" && u.User.Username() != Redacted) {
				t.Fatalf("user-info kept: %q -> %q", s, out)
			}
		}
		_ = RedactText(s)
	})
}
