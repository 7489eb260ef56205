package ide

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Finding 11: ${env:X} copied dbg's own environment into the answers of
// get_restartable_run_configurations, under names that do not look like
// credentials; and an envFile outside the project (a launch.json of a
// repository the user did not write, naming ~/.aws/credentials) was read.
// The answers now show ${env:X} as written and never read such a file,
// while the process started still gets the values.
func TestLaunchEnvironmentStaysOutOfAnswers(t *testing.T) {
	t.Parallel()
	need(t, "sh")
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "credentials")
	writeFile(t, outside, "AWS_KEY=outside-file-secret\n")
	if err := os.Symlink(outside, filepath.Join(dir, "linked.env")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "local.env"), "LOCAL_MODE=dev\n")
	writeFile(t, filepath.Join(dir, ".vscode", "launch.json"), `{"configurations": [
	  {"type": "node", "request": "launch", "name": "env", "runtimeExecutable": "sh",
	   "runtimeArgs": ["-c", "echo url=$CONFIG_URL", "--db", "${env:DBG_TEST_DB_URL}"],
	   "env": {"CONFIG_URL": "${env:DBG_TEST_DB_URL}"}, "envFile": "${workspaceFolder}/local.env"},
	  {"type": "node", "request": "launch", "name": "outside", "runtimeExecutable": "sh", "runtimeArgs": ["-c", "true"], "envFile": "`+outside+`"},
	  {"type": "node", "request": "launch", "name": "linked", "runtimeExecutable": "sh", "runtimeArgs": ["-c", "true"], "envFile": "linked.env"}
	]}`)
	const secret = "tenant-42;env-secret-9f8e"
	c := newToolClient(t, dir, Options{Getenv: func(k string) string {
		if k == "DBG_TEST_DB_URL" {
			return secret
		}
		return ""
	}})
	var list ListConfigurationsResult
	text := c.ok(t, "get_restartable_run_configurations", nil, &list)
	for _, leak := range []string{"env-secret-9f8e", "outside-file-secret"} {
		if strings.Contains(text, leak) {
			t.Errorf("the answer holds %q: %s", leak, text)
		}
	}
	var env ConfigurationView
	for _, v := range list.Configurations {
		if v.Name == "env" {
			env = v
		}
	}
	if env.Env["CONFIG_URL"] != "${env:DBG_TEST_DB_URL}" || env.Env["LOCAL_MODE"] != "dev" || !strings.Contains(strings.Join(env.Command, " "), "${env:DBG_TEST_DB_URL}") {
		t.Errorf("the configuration as shown: %+v", env)
	}
	warned := strings.Join(list.Warnings, "\n")
	for _, name := range []string{`"outside"`, `"linked"`} {
		if !strings.Contains(warned, name) || !strings.Contains(warned, "outside the project") {
			t.Errorf("no warning says the envFile of %s was not read: %q", name, list.Warnings)
		}
	}
	var res RestartResult
	c.ok(t, "restart_run_configuration", map[string]any{"configurationName": "env"}, &res)
	if strings.Contains(strings.Join(res.Command, " "), "env-secret-9f8e") {
		t.Errorf("the restart answer holds the value: %v", res.Command)
	}
	waitOutput(t, c.m, res.PID, "url="+secret)
}
