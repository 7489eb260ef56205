package adapters

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbg-dev/dbg/adapters/javadap"
	"github.com/dbg-dev/dbg/dap"
)

func javaNeedJDK(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"java", "javac"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (scripts/deps/java.sh installs it)", tool)
		}
	}
}

func javaFixture(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "testdata", "java", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func javaLine(t *testing.T, path, marker string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.HasSuffix(strings.TrimSpace(l), "// BP:"+marker) {
			return i + 1
		}
	}
	t.Fatalf("no marker %s in %s", marker, path)
	return 0
}

func TestJavaLaunchArgs(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	src := javaFixture(t, "Loop.java")
	a, err := Java{}.LaunchArgs(ctx, Target{Mode: Launch, Program: src, Args: []string{"1"}, StopOnEntry: true,
		Extra: map[string]any{"vmArgs": "-Xmx64m"}})
	if err != nil {
		t.Fatal(err)
	}
	if a["program"] != src || a["vmArgs"] != "-Xmx64m" || a["stopOnEntry"] != true || a["mainClass"] != nil {
		t.Errorf(".java launch args %v", a)
	}
	a, err = Java{}.LaunchArgs(ctx, Target{Mode: Launch, Program: "com.example.Main", Extra: map[string]any{"classpath": "/x/classes"}})
	if err != nil || a["mainClass"] != "com.example.Main" || a["classpath"] != "/x/classes" {
		t.Errorf("main class launch args %v, %v", a, err)
	}
	a, err = Java{}.LaunchArgs(ctx, Target{Mode: Launch, Extra: map[string]any{"mainClass": "Main", "classpath": []any{"a", "b"}}})
	if err != nil || a["mainClass"] != "Main" {
		t.Errorf("adapterConfig main class %v, %v", a, err)
	}
	// The session manager makes relative programs absolute; a bare class
	// name comes back as /cwd/Name.
	a, err = Java{}.LaunchArgs(ctx, Target{Mode: Launch, Program: "/no/such/dir/Loop", Extra: map[string]any{"classpath": "/x"}})
	if err != nil || a["mainClass"] != "Loop" {
		t.Errorf("absolute class name: %v, %v", a, err)
	}
	for _, bad := range []Target{{Mode: Launch}, {Mode: Launch, Program: "/no/such/File.java"}, {Mode: Launch, Program: "dir/Main.class"}} {
		if _, err := (Java{}).LaunchArgs(ctx, bad); err == nil {
			t.Errorf("LaunchArgs(%+v) succeeded", bad)
		}
	}
	a, err = Java{}.AttachArgs(ctx, Target{Mode: Attach, Port: 5005})
	if err != nil || a["port"] != 5005 || a["host"] != "127.0.0.1" {
		t.Errorf("attach args %v, %v", a, err)
	}
	if _, err := (Java{}).AttachArgs(ctx, Target{Mode: Attach}); err == nil {
		t.Error("attach with neither port nor pid succeeded")
	}
	// A process without a JDWP agent: the error says how to restart it.
	_, err = Java{}.AttachArgs(ctx, Target{Mode: Attach, PID: os.Getpid()})
	if err == nil || !strings.Contains(err.Error(), "-agentlib:jdwp") {
		t.Errorf("attach to a process without JDWP: %v", err)
	}
	if got := (Java{}).ExceptionFilters("all"); len(got) != 2 {
		t.Errorf("ExceptionFilters(all) = %v", got)
	}
}

func TestJavaFind(t *testing.T) {
	t.Parallel()
	javaNeedJDK(t)
	info := Java{}.Find(context.Background())
	if !info.Found || !info.Builtin || info.Version == "" || !info.AttachPID || !info.AttachPort {
		t.Errorf("Find = %+v", info)
	}
}

// TestJavaEndToEnd drives the in-process adapter the way the session
// manager does (DAPFLOW): initialize, launch, initialized, breakpoints,
// configurationDone, stop, inspect, disconnect.
func TestJavaEndToEnd(t *testing.T) {
	t.Parallel()
	javaNeedJDK(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	src := javaFixture(t, "Graph.java")
	target := Target{Mode: Launch, Program: src}
	args, err := Java{}.LaunchArgs(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	ep, err := Java{}.Start(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	events := make(chan *dap.Message, 1000)
	conn := dap.NewConn(ep.Conn, dap.Options{OnEvent: func(m *dap.Message) { events <- m }})
	t.Cleanup(func() { conn.Close(); ep.Close(context.Background()) })
	waitEvent := func(name string) *dap.Message {
		t.Helper()
		for {
			select {
			case m := <-events:
				if m.Event == name {
					return m
				}
			case <-ctx.Done():
				t.Fatalf("no %s event", name)
			}
		}
	}
	if _, err := conn.Request(ctx, "initialize", map[string]any{"clientID": "dbg", "adapterID": "java", "linesStartAt1": true}); err != nil {
		t.Fatal(err)
	}
	launch, err := conn.Start(ctx, "launch", args)
	if err != nil {
		t.Fatal(err)
	}
	waitEvent("initialized")
	line := javaLine(t, src, "total")
	if _, err := conn.Request(ctx, "setBreakpoints", map[string]any{"source": map[string]any{"path": src}, "breakpoints": []any{map[string]any{"line": line}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Request(ctx, "setExceptionBreakpoints", map[string]any{"filters": Java{}.ExceptionFilters("uncaught")}); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Request(ctx, "configurationDone", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := launch.Wait(ctx, 0); err != nil {
		t.Fatal(err)
	}
	var stopped struct {
		Reason   string `json:"reason"`
		ThreadID int    `json:"threadId"`
	}
	_ = waitEvent("stopped").DecodeBody(&stopped)
	st, err := conn.Request(ctx, "stackTrace", map[string]any{"threadId": stopped.ThreadID})
	if err != nil {
		t.Fatal(err)
	}
	var trace struct {
		StackFrames []struct {
			ID     int    `json:"id"`
			Line   int    `json:"line"`
			Name   string `json:"name"`
			Source struct {
				Path string `json:"path"`
			} `json:"source"`
		} `json:"stackFrames"`
	}
	_ = st.DecodeBody(&trace)
	if len(trace.StackFrames) < 2 || trace.StackFrames[0].Line != line || trace.StackFrames[0].Name != "Graph.total" || trace.StackFrames[0].Source.Path != src {
		t.Fatalf("stack %+v", trace)
	}
	ev, err := conn.Request(ctx, "evaluate", map[string]any{"expression": "t + name.length()", "frameId": trace.StackFrames[0].ID})
	if err != nil {
		t.Fatal(err)
	}
	var r struct{ Result string }
	_ = ev.DecodeBody(&r)
	if r.Result != "10" {
		t.Errorf("t + name.length() = %s", r.Result)
	}
	if _, err := conn.Request(ctx, "disconnect", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	waitEvent("terminated")
}

func TestJavaStartWithoutJDK(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("JAVA_HOME", "")
	t.Setenv("HOME", t.TempDir())
	_, err := Java{}.Start(context.Background(), Target{Mode: Launch, Program: "Main.java"})
	var nf *NotFoundError
	if !errors.As(err, &nf) || !strings.Contains(err.Error(), "dbg adapters install java") {
		t.Errorf("Start without a JDK: %v", err)
	}
	// Attach by port needs no JDK on this machine.
	ep, err := Java{}.Start(context.Background(), Target{Mode: Attach, Port: 5005})
	if err != nil {
		t.Fatalf("attach Start without a JDK: %v", err)
	}
	ep.Close(context.Background())
}

// TestJavaPicksJDK checks that JAVA_HOME and adapterConfig.javaHome pick
// the JDK, on JDK 17 and JDK 25, and that dbg adapters names it.
func TestJavaPicksJDK(t *testing.T) {
	installed := map[int]javadap.JDK{}
	for _, j := range javadap.InstalledJDKs() {
		installed[j.Feature()] = j
	}
	for _, feature := range []int{17, 25} {
		t.Run(fmt.Sprintf("jdk%d", feature), func(t *testing.T) {
			j, ok := installed[feature]
			if !ok {
				t.Skipf("JDK %d is not installed (scripts/deps/java.sh checks for it)", feature)
			}
			ctx := context.Background()
			if p, err := findJavaBinary("", j.Home); err != nil || p != j.Java() {
				t.Errorf("javaHome %s: %s, %v", j.Home, p, err)
			}
			args, err := Java{}.LaunchArgs(ctx, Target{Mode: Launch, Program: javaFixture(t, "Loop.java"), Extra: map[string]any{"javaHome": j.Home}})
			if err != nil || args["javaHome"] != j.Home {
				t.Errorf("launch arguments %v, %v", args, err)
			}
			t.Setenv("JAVA_HOME", j.Home)
			info := Java{}.Find(ctx)
			if info.Path != j.Java() || !strings.Contains(info.Version, strconv.Itoa(feature)) ||
				!strings.Contains(info.Note, "launches use JDK "+j.Version) || !strings.Contains(info.Note, "javaHome") {
				t.Errorf("Find with JAVA_HOME=%s: %+v", j.Home, info)
			}
			for other, oj := range installed {
				if other == feature {
					continue
				}
				if !strings.Contains(info.Note, "also installed: ") || !strings.Contains(info.Note, "JDK "+oj.Version+" ("+oj.Home+")") {
					t.Errorf("the note does not name JDK %d: %q", other, info.Note)
				}
			}
		})
	}
	_, err := Java{}.Start(context.Background(), Target{Mode: Launch, Program: "Main.java", Extra: map[string]any{"javaHome": "/no/such/jdk"}})
	if err == nil || !strings.Contains(err.Error(), "javaHome /no/such/jdk") {
		t.Errorf("Start with a javaHome that is not a JDK: %v", err)
	}
}
