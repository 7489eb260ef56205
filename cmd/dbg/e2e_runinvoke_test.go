package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// run_and_invoke with configurationName starts the project's run
// configuration, attaches to its JVM, invokes, and returns the call's logs;
// a second call reuses the running process.
func TestRunAndInvokeStartsConfiguration(t *testing.T) {
	t.Parallel()
	requireTool(t, "javac", "-version")
	project := t.TempDir()
	src := filepath.Join(project, "src", "Hello.java")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Dir(src), 0o755))
	must(os.WriteFile(filepath.Join(project, "pom.xml"), []byte("<project/>\n"), 0o644))
	must(os.WriteFile(src, []byte(`public class Hello {
    public static int twice(int x) {
        System.out.println("twice called with " + x);
        return 2 * x;
    }
    public static void main(String[] args) throws Exception {
        System.out.println("hello ready");
        while (true) Thread.sleep(1000);
    }
}
`), 0o644))
	if out, err := exec.Command("javac", "-d", filepath.Join(project, "target", "classes"), src).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v %s", err, out)
	}
	must(os.MkdirAll(filepath.Join(project, ".run"), 0o755))
	must(os.WriteFile(filepath.Join(project, ".run", "hello.run.xml"), []byte(`<component name="ProjectRunConfigurationManager">
  <configuration name="hello" type="Application" factoryName="Application">
    <option name="MAIN_CLASS_NAME" value="Hello" />
  </configuration>
</component>
`), 0o644))

	c := startDbg(t)
	args := map[string]any{"projectPath": project, "configurationName": "hello", "className": "Hello", "methodName": "twice",
		"argsJson": `{"x": {"type": "simple", "content": 21}}`, "waitForConnectionMillis": 60000}
	r := c.ok("run_and_invoke", args)
	if r.str("invocation.result") != "42" || r.get("attached") != true {
		t.Fatalf("run_and_invoke: %v", r)
	}
	found := false
	for _, l := range r.list("logs") {
		if strings.Contains(l.str("message"), "twice called with 21") {
			found = true
		}
	}
	if !found {
		t.Errorf("the call's log line is missing: %v", r.get("logs"))
	}
	pid := 0
	for _, p := range c.ok("get_restartable_run_configurations", map[string]any{"projectPath": project}).list("configurations") {
		if p.str("name") == "hello" {
			pid = p.num("pid")
		}
	}
	if pid == 0 || !processAlive(pid) {
		t.Fatalf("the configuration does not run: pid %d", pid)
	}
	args["argsJson"] = `{"x": {"type": "simple", "content": 5}}`
	r = c.ok("run_and_invoke", args)
	if r.str("invocation.result") != "10" || r.get("attached") != false {
		t.Fatalf("second run_and_invoke: %v", r)
	}
	c.close()
	waitGone(t, 15*time.Second, pid)
}
