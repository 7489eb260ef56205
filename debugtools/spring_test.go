package debugtools

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/toolkit"
)

// startSpringish runs testdata/springish: a context (a stand-in for
// Spring's ApplicationContext) that becomes active once trigger exists.
func startSpringish(t *testing.T, trigger string) int {
	t.Helper()
	mustHaveJDK(t)
	var files []string
	_ = filepath.Walk("testdata/springish", func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".java") {
			files = append(files, p)
		}
		return nil
	})
	out := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if b, err := exec.CommandContext(ctx, "javac", append([]string{"-d", out}, files...)...).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, b)
	}
	cmd := exec.Command("java", "-cp", out, "app.Main", trigger)
	if err := startJVM(t, "springish app", cmd); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func TestSpringBeanAndReadiness(t *testing.T) {
	c := newJVMClient(t)
	trigger := filepath.Join(t.TempDir(), "activate")
	pid := startSpringish(t, trigger)
	att := mustJVMOK(t, callJVM[AttachOut](c, "attach_local_jvm", map[string]any{"pid": pid, "waitForConnectionMillis": 60000}))
	if att.ConnectionID == nil {
		t.Fatalf("attach: %+v", att)
	}
	part := (&jvmStatus{t: &jvmTools{m: c.m, svc: c.svc}}).Status(context.Background(), toolkit.StatusQuery{})
	waiting := false
	for _, s := range part.Suggestions {
		waiting = waiting || s.Action == toolkit.NextWaitForSpring
	}
	if !waiting {
		t.Fatalf("want WAIT_FOR_SPRING while the context starts: %+v", part.Suggestions)
	}
	// run_and_invoke waits for the context, then calls the bean (which has
	// no no-argument constructor, so only the context can supply it).
	activated := time.AfterFunc(time.Second, func() { _ = os.WriteFile(trigger, nil, 0o644) })
	defer activated.Stop()
	start := time.Now()
	run := mustJVMOK(t, callJVM[RunInvokeOut](c, "run_and_invoke", map[string]any{"className": "app.GreetingService", "methodName": "greet",
		"argsJson": `{"name":{"type":"simple","content":"Spring"}}`, "readyTimeoutMillis": 30000}))
	if time.Since(start) < time.Second {
		t.Fatal("run_and_invoke did not wait for the context")
	}
	if !run.Ready || str(run.Invocation.Result) != "Hi, Spring" {
		t.Fatalf("run_and_invoke: %+v %s", run, str(run.Invocation.Throwable))
	}
	out := mustJVMOK(t, callJVM[InvokeOut](c, "invoke_java_method", map[string]any{"className": "app.GreetingService", "methodName": "describe",
		"argsJson": `{"bean":{"type":"bean","content":"clock"}}`}))
	if str(out.Result) != "bean Clock#1" {
		t.Fatalf("bean argument: %+v %s", out, str(out.Throwable))
	}
}
