package debugtools

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

var logJars = []string{"/usr/share/java/slf4j-api.jar", "/usr/share/java/logback-classic.jar", "/usr/share/java/logback-core.jar",
	"/usr/share/java/log4j-api.jar", "/usr/share/java/log4j-core.jar"}

// startLogApp compiles and runs testdata/logapp with Logback and Log4j2.
func startLogApp(t *testing.T) int {
	t.Helper()
	mustHaveJDK(t)
	for _, j := range logJars {
		if _, err := os.Stat(j); err != nil {
			t.Skipf("%s not installed (run scripts/deps/jvm.sh)", j)
		}
	}
	cp := strings.Join(logJars, ":")
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if b, err := exec.CommandContext(ctx, "javac", "-cp", cp, "-d", out, "testdata/logapp/LogApp.java").CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, b)
	}
	cmd := exec.Command("java", "-cp", out+":"+cp, "LogApp")
	if err := startJVM(t, "LogApp", cmd); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func TestLogCaptureLogbackAndLog4j2(t *testing.T) {
	t.Parallel()
	c := newJVMClient(t)
	pid := startLogApp(t)
	att := mustJVMOK(t, callJVM[AttachOut](c, "attach_local_jvm", map[string]any{"pid": pid, "waitForConnectionMillis": 60000}))
	if att.ConnectionID == nil {
		t.Fatalf("attach: %+v", att)
	}
	mustJVMOK(t, callJVM[InvokeOut](c, "invoke_java_method", map[string]any{"className": "LogApp", "methodName": "emit",
		"argsJson": `{"word":{"type":"simple","content":"kiwi"}}`}))
	logs := mustJVMOK(t, callJVM[LogsOut](c, "read_target_application_logs", map[string]any{"keyword": "says kiwi"}))
	byLogger := map[string]LogEntry{}
	for _, e := range logs.Entries {
		byLogger[e.Logger] = e
	}
	lb, ok := byLogger["app.logback"]
	if !ok || lb.Level != "INFO" || lb.Message != "logback says kiwi" {
		t.Fatalf("logback entry missing: %+v (sources %v)", logs.Entries, logs.Sources)
	}
	l4, ok := byLogger["app.log4j2"]
	if !ok || l4.Level != "ERROR" || l4.Message != "log4j2 says kiwi" || l4.Throwable == nil || !strings.Contains(*l4.Throwable, "IllegalStateException: l4j-kiwi") {
		t.Fatalf("log4j2 entry missing: %+v (sources %v)", logs.Entries, logs.Sources)
	}
	for _, e := range logs.Entries {
		if strings.Contains(e.Message, "\x1b") {
			t.Fatalf("ANSI escape kept: %q", e.Message)
		}
	}
}
