package main

import (
	"context"
	"strings"
	"testing"
	"time"
)

const (
	redacted     = "‹redacted›"
	serviceToken = "tok-abc123456"
)

// secretsFixture is the program of a language holding credentials at
// its "BREAK: secrets" line, and how its adapter shows two values.
type secretsFixture struct {
	lang, file, program string
	password, user      string // the raw values as the adapter shows them
}

func secretsFixtures(t *testing.T) []secretsFixture {
	return []secretsFixture{
		{lang: "python", file: fixture(t, "python/secrets.py"), password: "'hunter2'", user: "'bob'"},
		{lang: "go", file: fixture(t, "go/secrets/main.go"), password: `"hunter2"`, user: `"bob"`},
		{lang: "javascript", file: fixture(t, "javascript/secrets.js"), password: `"hunter2"`, user: `"bob"`},
	}
}

func (f *secretsFixture) require(t *testing.T) {
	t.Helper()
	switch f.lang {
	case "python":
		requireDebugpy(t)
		f.program = f.file
	case "go":
		requireDelve(t)
		f.program = goBinary(t, fixture(t, "go/secrets"))
	case "javascript":
		requireNode(t)
		f.program = f.file
	}
}

// launchSecrets stops the fixture at its break line.
func launchSecrets(t *testing.T, c *client, f secretsFixture) string {
	t.Helper()
	line := markedLineT(t, f.file, "BREAK: secrets")
	id, st := mcpLaunch(t, c, f.lang, f.file, []int{line}, f.program, map[string]any{"env": map[string]any{"SERVICE_TOKEN": serviceToken}})
	if st.num("lastStop.location.line") != line {
		t.Fatalf("stopped at %v, want line %d", st.get("lastStop"), line)
	}
	return id
}

func localsWith(t *testing.T, c *client, id string, extra map[string]any) map[string]obj {
	t.Helper()
	args := map[string]any{"sessionId": id}
	for k, v := range extra {
		args[k] = v
	}
	out := map[string]obj{}
	for _, v := range c.ok("get_local_variables", args).list("variables") {
		out[v.str("name")] = v
	}
	return out
}

// childByKey returns the value of the child of v whose name holds key
// (map entries are named by their key, quoted as the language quotes).
func childByKey(t *testing.T, c *client, id string, v obj, key string, extra map[string]any) string {
	t.Helper()
	args := map[string]any{"sessionId": id, "scope": v.num("variablesReference")}
	for k, x := range extra {
		args[k] = x
	}
	var names []string
	for _, ch := range c.ok("get_variables", args).list("variables") {
		if strings.Trim(ch.str("name"), `"'`) == key {
			return ch.str("value")
		}
		names = append(names, ch.str("name"))
	}
	t.Fatalf("no child %q in %v", key, names)
	return ""
}

// TestRedaction: through MCP on real adapters, credentials are redacted
// by name (a password local, a map's Authorization entry) and by shape
// (a PEM block, a password in a URL, a Bearer token inside a map's
// summary), and shown raw with reveal: true.
func TestRedaction(t *testing.T) {
	t.Parallel()
	for _, f := range secretsFixtures(t) {
		t.Run(f.lang, func(t *testing.T) {
			f.require(t)
			c := startDbg(t)
			id := launchSecrets(t, c, f)

			locals := localsWith(t, c, id, nil)
			mcpCheckLocals(t, locals, map[string]string{"password": redacted, "user": f.user, "count": "3"})
			for name, secret := range map[string]string{"headers": "abcdef123456789", "cert": "MIIEvQ", "dbURL": "s3cretpw"} {
				if v := locals[name].str("value"); strings.Contains(v, secret) || !strings.Contains(v, redacted) {
					t.Errorf("local %s shows %q: want %s in place of %s", name, v, redacted, secret)
				}
			}
			if v := locals["dbURL"].str("value"); !strings.Contains(v, "bob:"+redacted+"@db.local") {
				t.Errorf("dbURL = %q: only the URL's password goes", v)
			}
			if v := childByKey(t, c, id, locals["headers"], "Authorization", nil); v != redacted {
				t.Errorf("headers[Authorization] = %q, want %s", v, redacted)
			}
			if v := childByKey(t, c, id, locals["headers"], "Accept", nil); !strings.Contains(v, "*/*") {
				t.Errorf("headers[Accept] = %q, want */*", v)
			}
			checkEnvRedacted(t, c, id, f, locals["env"])
			if v := mcpEval(t, c, id, "password"); v != redacted {
				t.Errorf("evaluate password = %q, want %s", v, redacted)
			}
			if v := mcpEval(t, c, id, "user"); v != f.user {
				t.Errorf("evaluate user = %q, want %s", v, f.user)
			}
			if v := mcpEval(t, c, id, "cert"); strings.Contains(v, "MIIEvQ") {
				t.Errorf("evaluate cert shows the PEM block: %q", v)
			}

			reveal := map[string]any{"reveal": true}
			raw := localsWith(t, c, id, reveal)
			mcpCheckLocals(t, raw, map[string]string{"password": f.password, "user": f.user})
			for name, secret := range map[string]string{"cert": "MIIEvQ", "dbURL": "s3cretpw", "headers": "abcdef123456789"} {
				if v := raw[name].str("value"); !strings.Contains(v, secret) {
					t.Errorf("with reveal, local %s = %q, want it to show %s", name, v, secret)
				}
			}
			if v := childByKey(t, c, id, raw["headers"], "Authorization", reveal); !strings.Contains(v, "Bearer abcdef123456789") {
				t.Errorf("with reveal, headers[Authorization] = %q", v)
			}
			if v := envEntry(t, c, id, f, raw["env"], reveal); !strings.Contains(v, serviceToken) {
				t.Errorf("with reveal, the environment's SERVICE_TOKEN = %q", v)
			}
			if v := c.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "password", "reveal": "true"}).str("result"); v != f.password {
				t.Errorf("evaluate password with reveal = %q, want %s", v, f.password)
			}
			c.fail("get_local_variables", map[string]any{"sessionId": id, "reveal": "perhaps"}, "INVALID_ARGUMENT")

			mcpRunToEnd(t, c, id)
			mcpOutputHas(t, c, id, "ready user=bob count=3")
			mcpClose(t, c, id, nil)
		})
	}
}

// TestRedactionRevealFlag: dbg mcp --reveal-secrets answers raw values.
func TestRedactionRevealFlag(t *testing.T) {
	t.Parallel()
	f := secretsFixtures(t)[0]
	f.require(t)
	c := startDbgWith(t, nil, []string{"--reveal-secrets"})
	id := launchSecrets(t, c, f)
	mcpCheckLocals(t, localsWith(t, c, id, nil), map[string]string{"password": f.password, "user": f.user})
	if v := mcpEval(t, c, id, "headers['Authorization']"); !strings.Contains(v, "Bearer abcdef123456789") {
		t.Errorf("evaluate headers['Authorization'] = %q under --reveal-secrets", v)
	}
	mcpRunToEnd(t, c, id)
	mcpClose(t, c, id, nil)
}

// TestRevealParam: every tool whose answer holds values takes reveal;
// tools without values do not offer it.
func TestRevealParam(t *testing.T) {
	t.Parallel()
	c := startDbgWith(t, nil, []string{"--toolsets", "all"})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	has := map[string]bool{}
	for tool, err := range c.cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		props, _ := tool.InputSchema.(map[string]any)["properties"].(map[string]any)
		_, has[tool.Name] = props["reveal"]
	}
	for _, name := range []string{"get_local_variables", "get_variables", "evaluate_expression", "set_variable"} {
		if !has[name] {
			t.Errorf("%s does not take reveal", name)
		}
	}
	// create_debug_session's answer may hold a stop (an attach's), whose
	// changed has value fields: it takes reveal like the other stop answers.
	for _, name := range []string{"set_breakpoint", "list_breakpoints", "close_debug_session", "list_threads"} {
		if has[name] {
			t.Errorf("%s takes reveal, but its answer holds no values", name)
		}
	}
}

// envEntry returns the SERVICE_TOKEN entry of the fixture's environment
// local: an entry of a dict or object, a KEY=VALUE string in Go.
func envEntry(t *testing.T, c *client, id string, f secretsFixture, env obj, extra map[string]any) string {
	t.Helper()
	args := map[string]any{"limit": 1000}
	for k, v := range extra {
		args[k] = v
	}
	if f.lang != "go" {
		return childByKey(t, c, id, env, "SERVICE_TOKEN", args)
	}
	return childByKey(t, c, id, env, "[1]", args)
}

// checkEnvRedacted: an environment entry named like a credential is
// redacted, by key or inside its KEY=VALUE string, and its neighbours
// are not.
func checkEnvRedacted(t *testing.T, c *client, id string, f secretsFixture, env obj) {
	t.Helper()
	if v := env.str("value"); strings.Contains(v, serviceToken) {
		t.Errorf("the environment's summary shows the token: %q", v)
	}
	want := redacted
	if f.lang == "go" {
		want = `"SERVICE_TOKEN=` + redacted + `"`
		if home := childByKey(t, c, id, env, "[0]", nil); !strings.HasPrefix(home, `"HOME=/`) {
			t.Errorf("env[0] = %q, want HOME shown", home)
		}
	} else if home := childByKey(t, c, id, env, "HOME", map[string]any{"limit": 1000}); !strings.HasPrefix(strings.Trim(home, `"'`), "/") {
		t.Errorf("env['HOME'] = %q, want it shown", home)
	}
	if v := envEntry(t, c, id, f, env, nil); v != want {
		t.Errorf("the environment's SERVICE_TOKEN = %q, want %s", v, want)
	}
	if f.lang == "python" {
		if v := mcpEval(t, c, id, "os.environ['SERVICE_TOKEN']"); v != redacted {
			t.Errorf("evaluate os.environ['SERVICE_TOKEN'] = %q", v)
		}
	}
}
