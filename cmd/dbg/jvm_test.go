package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/cmd/internal/toolclient"
	"github.com/dbg-dev/dbg/debugtools"
	"github.com/dbg-dev/dbg/toolkit"
)

func TestCLIJVMInvokeFlags(t *testing.T) {
	f, _, _ := cliFactory(t)
	var got *jvmInvokeOptions
	cmd := newCmdJVMInvoke(f, func(_ context.Context, o *jvmInvokeOptions) error { got = o; return nil })
	args := `{"b":{"type":"simple","content":"2"},"a":{"type":"simple","content":"40"}}`
	cmd.SetArgs([]string{"--pid", "42", "--class", "p.C", "--method", "add", "--param-types", "int,int", "--args", args,
		"--view", "json", "--class-loader", "cl1", "--timeout", "5s", "--project", "/p"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.pid != 42 || got.className != "p.C" || got.methodName != "add" || got.resultView != "json" || got.wait != 30*time.Second {
		t.Fatalf("options %+v", *got)
	}
	a, err := invokeArgs(got, "C-42")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"className": "p.C", "methodName": "add", "resultView": "JSON", "timeoutMillis": int64(5000),
		"connectionId": "C-42", "argsJson": args, "parameterTypes": []string{"int", "int"}, "classLoaderIdentity": "cl1", "projectPath": "/p"}
	if !reflect.DeepEqual(a, want) {
		t.Fatalf("tool arguments\n%v\nwant\n%v", a, want)
	}
}

func TestCLIJVMAttachFlags(t *testing.T) {
	f, _, _ := cliFactory(t)
	var got *jvmAttachOptions
	cmd := newCmdJVMAttach(f, func(_ context.Context, o *jvmAttachOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"4242", "--name", "svc", "--wait", "2s", "--json"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.pid != 4242 || got.attachName != "svc" || got.wait != 2*time.Second || !got.asJSON {
		t.Fatalf("options %+v", *got)
	}
	want := map[string]any{"pid": "4242", "attachName": "svc", "waitForConnectionMillis": int64(2000)}
	if a := jvmAttachArgs(got.pid, got.attachName, got.wait); !reflect.DeepEqual(a, want) {
		t.Fatalf("tool arguments %v, want %v", a, want)
	}
}

// calcSource is a JVM with static methods to invoke.
const calcSource = `public class Calc {
    public static int add(int a, int b) { return a + b; }
    public static String greet(String name) { return "hello " + name; }
    public static int boom() { throw new IllegalStateException("boom from Calc"); }
    public static void main(String[] args) throws Exception {
        System.out.println("READY");
        Thread.sleep(600_000);
    }
}
`

// requireJDK skips the test unless javac and java are on PATH.
func requireJDK(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"javac", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (scripts/deps/jvm.sh installs a JDK)", tool)
		}
	}
}

// startCalc compiles Calc into a temporary directory, runs it with the
// JVM options and waits for its READY line. Its process group is killed
// at cleanup.
func startCalc(t *testing.T, jvmOpts ...string) int {
	t.Helper()
	requireJDK(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Calc.java"), []byte(calcSource), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "javac", "-d", dir, filepath.Join(dir, "Calc.java")).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	cmd, _ := startTargetIn(t, dir, "READY", "java", append(jvmOpts, "-cp", dir, "Calc")...)
	return cmd.Process.Pid
}

func TestCLIJVM(t *testing.T) {
	pid := startCalc(t)
	spid := strconv.Itoa(pid)

	// list: the JVM is found with its main class, attachable.
	found, list, out := listedJVM(t, pid)
	if found == nil || found.DisplayName != "Calc" || found.AttachName != "Calc" || !found.Attachable || list.Count != len(list.JVMs) {
		t.Fatalf("pid %d in jvm list: %+v (all: %s)", pid, found, out)
	}
	out, _, err := runCLI(t, "jvm", "list")
	if err != nil {
		t.Fatal(err)
	}
	if !hasRow(out, spid, "Calc", "Calc", "yes") {
		t.Fatalf("jvm list has no row for pid %d:\n%s", pid, out)
	}

	// invoke by pid: the agent is loaded on the way.
	add := `{"a":{"type":"simple","content":"40"},"b":{"type":"simple","content":"2"}}`
	out, errOut, err := runCLI(t, "jvm", "invoke", "--pid", spid, "--class", "Calc", "--method", "add", "--param-types", "int,int", "--args", add)
	if err != nil {
		t.Fatalf("invoke: %v\n%s", err, errOut)
	}
	if out != "42\n" {
		t.Fatalf("invoke add printed %q, want 42", out)
	}
	if !strings.Contains(errOut, "connection Calc-"+spid) {
		t.Fatalf("status lacks the connection: %q", errOut)
	}

	// attach: the agent loaded by the previous command is still there,
	// answering on the same port.
	attach := func() debugtools.AttachOut {
		t.Helper()
		out, _, err := runCLI(t, "jvm", "attach", spid, "--json")
		if err != nil {
			t.Fatal(err)
		}
		var a debugtools.AttachOut
		if err := json.Unmarshal([]byte(out), &a); err != nil {
			t.Fatalf("attach --json: %v\n%s", err, out)
		}
		if !a.Success || a.ConnectionID == nil || *a.ConnectionID != "Calc-"+spid || a.Port == nil || *a.Port <= 0 {
			t.Fatalf("attach: %s", out)
		}
		return a
	}
	a1, a2 := attach(), attach()
	if *a1.Port != *a2.Port {
		t.Fatalf("agent port changed between attaches: %d then %d (the agent did not stay)", *a1.Port, *a2.Port)
	}
	out, _, err = runCLI(t, "jvm", "attach", spid)
	if err != nil {
		t.Fatal(err)
	}
	if !hasRow(out, "connectionId", "Calc-"+spid) || !hasRow(out, "port", strconv.Itoa(*a1.Port)) {
		t.Fatalf("attach printed:\n%s", out)
	}

	// invoke by connection id, JSON view.
	greet := `{"name":{"type":"simple","content":"Ada"}}`
	out, errOut, err = runCLI(t, "jvm", "invoke", "--connection-id", "Calc-"+spid, "--class", "Calc", "--method", "greet", "--args", greet, "--view", "JSON")
	if err != nil {
		t.Fatalf("invoke greet: %v\n%s", err, errOut)
	}
	if !strings.Contains(out, "hello Ada") {
		t.Fatalf("invoke greet printed %q", out)
	}
	out, _, err = runCLI(t, "jvm", "invoke", "--connection-id", "Calc-"+spid, "--class", "Calc", "--method", "greet", "--args", greet, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var inv debugtools.InvokeOut
	if err := json.Unmarshal([]byte(out), &inv); err != nil {
		t.Fatalf("invoke --json: %v\n%s", err, out)
	}
	if !inv.Success || inv.Result == nil || *inv.Result != "hello Ada" || inv.ConnectionID != "Calc-"+spid {
		t.Fatalf("invoke --json: %s", out)
	}

	// a method that throws fails the command with its exception.
	out, errOut, err = runCLI(t, "jvm", "invoke", "--pid", spid, "--class", "Calc", "--method", "boom")
	if err == nil || !strings.Contains(err.Error()+errOut, "boom from Calc") {
		t.Fatalf("invoke boom: err %v, stdout %q, stderr %q", err, out, errOut)
	}

	// an unknown connection id: the tool's structured error, with the
	// live connection offered.
	out, _, err = runCLI(t, "jvm", "invoke", "--connection-id", "Nope-"+spid, "--class", "Calc", "--method", "add", "--json")
	var tf *toolclient.Failure
	if !errors.As(err, &tf) || tf.Err.Code != toolkit.CodeConnectionNotFound {
		t.Fatalf("unknown connection: %v", err)
	}
	var env toolclient.Envelope
	if err := json.Unmarshal([]byte(out), &env); err != nil || env.Success || env.Error.Code != toolkit.CodeConnectionNotFound ||
		!reflect.DeepEqual(env.Error.AvailableOptions, []string{"Calc-" + spid}) {
		t.Fatalf("unknown connection --json printed %s (%v)", out, err)
	}
	if syscall.Kill(pid, 0) != nil {
		t.Fatal("the JVM died")
	}
}

// hasRow reports whether a line of out has these fields first.
func hasRow(out string, fields ...string) bool {
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) >= len(fields) && reflect.DeepEqual(f[:len(fields)], fields) {
			return true
		}
	}
	return false
}

// h2Jar is H2's jar from Debian's libh2-java (scripts/deps/jvm.sh).
const h2Jar = "/usr/share/java/h2.jar"

// startShop compiles and runs testdata/java-service and waits for READY.
func startShop(t *testing.T) int {
	t.Helper()
	requireJDK(t)
	if _, err := os.Stat(h2Jar); err != nil {
		t.Skip("H2 not installed (scripts/deps/jvm.sh installs libh2-java)")
	}
	src := fixture(t, "java-service/src/main/java")
	var files []string
	_ = filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".java") {
			files = append(files, p)
		}
		return nil
	})
	classes := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "javac", append([]string{"-d", classes}, files...)...).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	cmd, _ := startTargetIn(t, t.TempDir(), "READY", "java", "-cp", classes+":"+h2Jar, "com.example.shop.ShopApplication")
	return cmd.Process.Pid
}

// listedJVM runs `dbg jvm list --json` with the extra arguments and
// returns the entry of pid (nil when it is not listed), the whole list and
// the command's output.
func listedJVM(t *testing.T, pid int, args ...string) (*debugtools.JVMOut, jvmList, string) {
	t.Helper()
	out, _, err := runCLI(t, append([]string{"jvm", "list", "--json"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	var list jvmList
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("jvm list --json: %v\n%s", err, out)
	}
	for i := range list.JVMs {
		if list.JVMs[i].PID == strconv.Itoa(pid) {
			return &list.JVMs[i], list, out
		}
	}
	return nil, list, out
}

// TestCLIJVMShopFixture lists the fixture service linked to its module,
// and invokes its static method through the dbg binary.
func TestCLIJVMShopFixture(t *testing.T) {
	pid := startShop(t)
	spid := strconv.Itoa(pid)
	project := fixture(t, "java-service")
	found, _, _ := listedJVM(t, pid, "--project", project)
	if found == nil || found.DisplayName != "com.example.shop.ShopApplication" || found.ModuleName == nil || *found.ModuleName != "java-service" {
		t.Fatalf("pid %d in jvm list: %+v", pid, found)
	}

	args := `{"net":{"type":"simple","content":"100"},"percent":{"type":"simple","content":"7"}}`
	stdout, stderr, code := runCLIBinary(t, project, "jvm", "invoke", "--pid", spid, "--class", "com.example.shop.PriceUtil", "--method", "withVat", "--args", args)
	if code != 0 || stdout != "107.0\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// The agent stays in the JVM after the binary exits: a second attach
	// from a new process finds the first instance, on the same port.
	attach := func() debugtools.AttachOut {
		t.Helper()
		stdout, stderr, code := runCLIBinary(t, project, "jvm", "attach", spid, "--json")
		var a debugtools.AttachOut
		if code != 0 || json.Unmarshal([]byte(stdout), &a) != nil || a.ConnectionID == nil || *a.ConnectionID != "ShopApplication-"+spid || a.Port == nil {
			t.Fatalf("attach: exit %d, stdout %s, stderr %s", code, stdout, stderr)
		}
		return a
	}
	if a1, a2 := attach(), attach(); *a1.Port != *a2.Port {
		t.Fatalf("agent port %d, then %d: the agent did not stay", *a1.Port, *a2.Port)
	}
}

// TestCLIJVMRefused: a JVM that forbids attaching is refused with a clear
// error, and keeps running.
func TestCLIJVMRefused(t *testing.T) {
	pid := startCalc(t, "-XX:+DisableAttachMechanism")
	spid := strconv.Itoa(pid)
	j, _, out := listedJVM(t, pid)
	if j == nil {
		t.Fatalf("pid %d not listed: %s", pid, out)
	}
	if j.Attachable || !strings.Contains(j.Reason, "DisableAttachMechanism") {
		t.Fatalf("listed as %+v", j)
	}
	stdout, stderr, code := runCLIBinary(t, "", "jvm", "attach", spid)
	if code != 1 || stdout != "" || !strings.Contains(stderr, "ATTACH_FAILED: ") || !strings.Contains(stderr, "DisableAttachMechanism") ||
		!strings.Contains(stderr, "hint: ") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if cliProcessGone(pid) {
		t.Fatal("the JVM died")
	}
}

// TestCLIJVMInvokeNeedsTarget: without --pid, several attachable JVMs are
// refused with their pids.
func TestCLIJVMInvokeNeedsTarget(t *testing.T) {
	p1, p2 := startCalc(t), startCalc(t)
	_, _, err := runCLI(t, "jvm", "invoke", "--class", "Calc", "--method", "add")
	if err == nil || !strings.Contains(err.Error(), "several JVMs could be the target; pass --pid") ||
		!strings.Contains(err.Error(), strconv.Itoa(p1)+" (Calc)") || !strings.Contains(err.Error(), strconv.Itoa(p2)+" (Calc)") {
		t.Fatalf("error %v", err)
	}
}
