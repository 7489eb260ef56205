package ide

import (
	"strings"
	"testing"
)

func TestCapLines(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := 0; i < 500; i++ {
		b.WriteString("line\n")
	}
	got := capLines(b.String(), false)
	if len(got) != maxOutputLines || !strings.Contains(got[0], "301 earlier lines omitted") {
		t.Errorf("len %d first %q", len(got), got[0])
	}
	if got := capLines("a\r50%\r100%\nb\n", false); len(got) != 2 || got[0] != "100%" {
		t.Errorf("progress = %q", got)
	}
	if got := capLines("", false); got != nil {
		t.Errorf("empty = %q", got)
	}
}

func TestGitEnvIsNonInteractive(t *testing.T) {
	t.Setenv("GIT_ASKPASS", "/usr/bin/some-askpass")
	t.Setenv("GIT_DIR", "/elsewhere")
	env := strings.Join(gitEnv(), "\n") + "\n"
	for _, want := range []string{"GIT_TERMINAL_PROMPT=0\n", "GIT_ASKPASS=\n", "SSH_ASKPASS=\n", "-o BatchMode=yes\n", "GIT_EDITOR=true\n", "LC_ALL=C\n"} {
		if !strings.Contains(env, want) {
			t.Errorf("env lacks %q", want)
		}
	}
	if strings.Contains(env, "some-askpass") || strings.Contains(env, "GIT_DIR=") {
		t.Errorf("inherited variables kept:\n%s", env)
	}
}
