package ide

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestConfigCacheRereadsChangedFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	conf := func(name string) string {
		return `<component name="ProjectRunConfigurationManager"><configuration name="` + name + `" type="PythonConfigurationType" factoryName="Python"><option name="SCRIPT_NAME" value="a.py"/></configuration></component>`
	}
	writeFile(t, filepath.Join(dir, ".run", "a.run.xml"), conf("first"))
	c := newConfigCache(nil)
	if n := Names(c.load(dir).Configurations); len(n) != 1 || n[0] != "first" {
		t.Fatalf("names = %v", n)
	}
	// Same content read from the cache; a rewrite with a new mtime is seen.
	writeFile(t, filepath.Join(dir, ".run", "a.run.xml"), conf("second"))
	later := time.Now().Add(2 * time.Second)
	if err := os.Chtimes(filepath.Join(dir, ".run", "a.run.xml"), later, later); err != nil {
		t.Fatal(err)
	}
	if n := Names(c.load(dir).Configurations); len(n) != 1 || n[0] != "second" {
		t.Errorf("after edit = %v", n)
	}
	// A new file in a watched folder is seen.
	writeFile(t, filepath.Join(dir, ".vscode", "launch.json"), `{"configurations":[{"type":"node","request":"launch","name":"n","program":"x.js"}]}`)
	if n := Names(c.load(dir).Configurations); len(n) != 2 {
		t.Errorf("after new file = %v", n)
	}
	// An envFile is watched too.
	writeFile(t, filepath.Join(dir, ".vscode", "launch.json"), `{"configurations":[{"type":"node","request":"launch","name":"n","program":"x.js","envFile":"${workspaceFolder}/.env"}]}`)
	writeFile(t, filepath.Join(dir, ".env"), "A=1\n")
	envOf := func() string {
		for _, cfg := range c.load(dir).Configurations {
			if cfg.Name == "n" {
				return cfg.Env["A"]
			}
		}
		return ""
	}
	if got := envOf(); got != "1" {
		t.Fatalf("A = %q", got)
	}
	writeFile(t, filepath.Join(dir, ".env"), "A=22\n")
	if got := envOf(); got != "22" {
		t.Errorf("after editing .env, A = %q", got)
	}
}
