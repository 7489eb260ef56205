package javadap

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/dap"
)

// debuggee is a JVM started by a test, outside the adapter.
type debuggee struct {
	p   *dap.Process
	mu  sync.Mutex
	out strings.Builder
}

func (d *debuggee) output() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.out.String()
}

func (d *debuggee) waitOutput(t *testing.T, re *regexp.Regexp, after int) []string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		out := d.output()
		if after <= len(out) {
			if m := re.FindStringSubmatch(out[after:]); m != nil {
				return m
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("output never matched %s: %q", re, d.output())
	return nil
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startSpin runs the Spin fixture, with a JDWP agent on port when port > 0.
func startSpin(t *testing.T, cp string, port int) *debuggee {
	t.Helper()
	return startSpinWith(t, "java", cp, port)
}

// startSpinWith is startSpin with a given java executable.
func startSpinWith(t *testing.T, java, cp string, port int) *debuggee {
	t.Helper()
	args := []string{"-cp", cp, "Spin"}
	if port > 0 {
		args = append([]string{"-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:" + strconv.Itoa(port)}, args...)
	}
	d := &debuggee{}
	cmd := exec.Command(java, args...)
	cmd.Dir = fixtureDir(t) // attach by pid finds sources under the JVM's working directory
	p, err := dap.StartProcess(cmd, dap.ProcessOptions{OnLine: func(_, line string) {
		d.mu.Lock()
		d.out.WriteString(line + "\n")
		d.mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	d.p = p
	t.Cleanup(p.Kill)
	return d
}

var tickRE = regexp.MustCompile(`tick (\d+)`)

func (c *client) attach(args map[string]any, setup func()) {
	c.t.Helper()
	c.initialize()
	call, err := c.c.Start(context.Background(), "attach", args)
	if err != nil {
		c.t.Fatal(err)
	}
	c.wait("initialized")
	if _, err := call.Wait(context.Background(), 30*time.Second); err != nil {
		c.t.Fatalf("attach: %v", err)
	}
	if setup != nil {
		setup()
	}
	c.req("configurationDone", nil)
}

func TestAttachByPortAndByPid(t *testing.T) {
	forEachJDK(t, 17, func(t *testing.T, j JDK) {
		cp := compileWith(t, j, "")
		port := freePort(t)
		d := startSpinWith(t, j.Java(), cp, port)
		d.waitOutput(t, regexp.MustCompile(`tick 20`), 0)
		spin := fixtureLine(t, "Spin.java", "spin")

		c := newClient(t)
		c.attach(map[string]any{"port": port, "host": "127.0.0.1"}, func() {
			got := c.setBreakpoints("Spin.java", bp(spin))
			if got[0].(map[string]any)["verified"] != true {
				t.Errorf("breakpoint in a loaded class not verified: %v", got)
			}
		})
		s := c.stopped()
		if s.line != spin {
			t.Fatalf("attach stop %+v", s)
		}
		n, err := strconv.Atoi(c.eval(s.frame, "n"))
		if err != nil || n < 20 {
			t.Fatalf("n = %d, %v", n, err)
		}
		c.req("disconnect", map[string]any{})
		// Detached: the JVM runs on, without breakpoints.
		mark := len(d.output())
		d.waitOutput(t, tickRE, mark)
		select {
		case <-d.p.Exited():
			t.Fatal("the JVM exited after detach")
		default:
		}

		c2 := newClient(t)
		unused := fixtureLine(t, "Never.java", "unused")
		c2.attach(map[string]any{"processId": d.p.Pid()}, func() {
			// Never.class is on the JVM's -cp but never loads: verified from it.
			wantVerified(t, "a class on the attached JVM's class path", answers(c2.setBreakpoints("Never.java", bp(unused))), unused)
		})
		c2.req("pause", map[string]any{"threadId": 0})
		s = c2.stopped()
		if s.reason != "pause" {
			t.Fatalf("pause after attach by pid: %+v", s)
		}
		if p := c2.lastEvent("process"); p == nil || int(p["systemProcessId"].(float64)) != d.p.Pid() {
			t.Errorf("process event %v", p)
		}
		st := c2.req("stackTrace", map[string]any{"threadId": s.thread})
		if !strings.Contains(fmt.Sprint(st["stackFrames"]), "Spin.main") {
			t.Errorf("the paused thread is not main: %v", st["stackFrames"])
		}
		for _, f := range st["stackFrames"].([]any) {
			fr := f.(map[string]any)
			if fr["name"] == "Spin.main" {
				src, _ := fr["source"].(map[string]any)
				if src["path"] != filepath.Join(fixtureDir(t), "Spin.java") {
					t.Errorf("Spin.main source without breakpoints or sourcePaths: %v", src)
				}
			}
		}
		c2.req("disconnect", map[string]any{"terminateDebuggee": true})
		select {
		case <-d.p.Exited():
		case <-time.After(20 * time.Second):
			t.Fatal("terminateDebuggee did not end the JVM")
		}
	})
}

func TestAttachErrors(t *testing.T) {
	cp := compileFixtures(t)
	d := startSpin(t, cp, 0)
	d.waitOutput(t, tickRE, 0)

	c := newClient(t)
	c.initialize()
	_, err := c.try("attach", map[string]any{"processId": d.p.Pid()})
	if err == nil || !strings.Contains(err.Error(), "-agentlib:jdwp=transport=dt_socket,server=y") {
		t.Errorf("attach by pid without JDWP: %v", err)
	}
	port := freePort(t) // nothing listens here
	_, err = c.try("attach", map[string]any{"port": port})
	if err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("attach to a closed port: %v", err)
	}
}

func TestJDWPAddressOfCommandLine(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"java", "-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=5005", "Main"}, "127.0.0.1:5005"},
		{[]string{"java", "-agentlib:jdwp=transport=dt_socket,server=y,address=*:8000"}, "127.0.0.1:8000"},
		{[]string{"java", "-Xrunjdwp:transport=dt_socket,address=10.0.0.2:9000,server=y"}, "10.0.0.2:9000"},
		{[]string{"java", "-agentlib:jdwp=transport=dt_socket,server=n,address=5005"}, ""},
		{[]string{"java", "-agentlib:jdwp=transport=dt_socket,server=y,address=127.0.0.1:0"}, ""},
		{[]string{"java", "Main"}, ""},
	} {
		got, ok := JDWPAddressOfCommandLine(tc.args)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("%v: got %q %v, want %q", tc.args, got, ok, tc.want)
		}
	}
}

func TestClassPathOfCommandLine(t *testing.T) {
	got := classPathOfCommandLine([]string{"java", "-Xmx1g", "-cp", "a" + string(filepath.ListSeparator) + "lib/b.jar", "Main", "-jar"})
	if fmt.Sprint(got) != "[a lib/b.jar]" {
		t.Errorf("-cp: %v", got)
	}
	got = classPathOfCommandLine([]string{"java", "--class-path", "x", "-jar", "app.jar", "arg"})
	if fmt.Sprint(got) != "[x app.jar]" {
		t.Errorf("--class-path and -jar: %v", got)
	}
}
