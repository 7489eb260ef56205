package remote

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// No docker engine or cluster runs on the test machines, so docker and
// kubectl are tested against their command-line contract: the test puts
// a recorded docker or kubectl first on PATH (this test binary, run as
// that tool), which checks the exact command line it gets against a
// recording (testdata/recorded/*.json) and answers as the real tool
// does, with the tool's captured output. A command the recording does
// not hold fails, as the real tool would fail on a wrong command line.
// The recording stands for a container or pod on this machine: "run"
// calls (docker exec, kubectl exec) run the command here, and kubectl
// port-forward forwards to this machine's loopback.

// recording is what a recorded tool answers.
type recording struct {
	Calls []recordedCall `json:"calls"`
}

// recordedCall is one command line the tool accepts and its answer.
// An argument "*" of Argv matches any one argument, "**" the rest, and
// others are path.Match patterns.
type recordedCall struct {
	Argv   []string `json:"argv"`
	Stdout string   `json:"stdout"`
	Stderr string   `json:"stderr"`
	Exit   int      `json:"exit"`
	// Run runs the command after the tool's own arguments here (after
	// "-i NAME" for docker exec, after "--" for kubectl exec), as the
	// container would.
	Run bool `json:"run"`
	// Forward is kubectl port-forward: listen, say so, relay to this
	// machine's port.
	Forward bool `json:"forward"`
	// StdinHas, when set, matches only a call whose input holds it (the
	// script a sh -s runs).
	StdinHas string `json:"stdinHas"`
	// After, when set, matches only once a call matching it was made.
	After []string `json:"after"`
	// Sleep is how long the tool takes before it answers, in seconds (a
	// tool that hangs).
	Sleep float64 `json:"sleep"`
	// Ephemeral puts the name of the ephemeral container kubectl debug
	// made (its --container) in place of EPHEMERAL in Stdout.
	Ephemeral bool `json:"ephemeral"`
}

func TestMain(m *testing.M) {
	if tool := filepath.Base(os.Args[0]); os.Getenv("DBG_RECORDED_TOOL") != "" && (tool == "docker" || tool == "kubectl") {
		os.Exit(recordedTool(tool, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// recordedTool answers argv as the recording in DBG_RECORDING says.
func recordedTool(tool string, args []string) int {
	argv := append([]string{tool}, args...)
	if log := os.Getenv("DBG_RECORDED_LOG"); log != "" {
		if f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
			b, _ := json.Marshal(argv)
			fmt.Fprintf(f, "%s\n", b)
			f.Close()
		}
	}
	b, err := os.ReadFile(os.Getenv("DBG_RECORDING"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "recorded tool:", err)
		return 125
	}
	var rec recording
	if err := json.Unmarshal(b, &rec); err != nil {
		fmt.Fprintln(os.Stderr, "recorded tool:", err)
		return 125
	}
	logged := loggedCalls(os.Getenv("DBG_RECORDED_LOG"))
	var stdin []byte
	if slices.ContainsFunc(rec.Calls, func(c recordedCall) bool { return c.StdinHas != "" && argvMatches(c.Argv, argv) }) {
		stdin, _ = io.ReadAll(os.Stdin)
	}
	for _, c := range rec.Calls {
		if !argvMatches(c.Argv, argv) || (c.StdinHas != "" && !strings.Contains(string(stdin), c.StdinHas)) {
			continue
		}
		if c.After != nil && !slices.ContainsFunc(logged, func(a []string) bool { return argvMatches(c.After, a) }) {
			continue
		}
		time.Sleep(time.Duration(c.Sleep * float64(time.Second)))
		switch {
		case c.Run:
			return runHere(tool, args, stdin)
		case c.Forward:
			return forwardHere(args)
		}
		out := c.Stdout
		if c.Ephemeral {
			out = strings.ReplaceAll(out, "EPHEMERAL", ephemeralName(logged))
		}
		fmt.Fprint(os.Stdout, out)
		fmt.Fprint(os.Stderr, c.Stderr)
		return c.Exit
	}
	fmt.Fprintf(os.Stderr, "recorded %s: no recording of %q\n", tool, argv)
	return 125
}

func argvMatches(pattern, argv []string) bool {
	for i, p := range pattern {
		if p == "**" {
			return true
		}
		if i >= len(argv) {
			return false
		}
		if p == "*" {
			continue
		}
		if ok, err := path.Match(p, argv[i]); p != argv[i] && (err != nil || !ok) {
			return false
		}
	}
	return len(pattern) == len(argv)
}

// runHere runs what docker exec or kubectl exec would run in the
// container.
func runHere(tool string, args []string, stdin []byte) int {
	var cmd []string
	switch tool {
	case "docker": // exec -i NAME CMD...
		cmd = args[3:]
	default: // ... exec -i POD -c C -- CMD...
		cmd = args[slices.Index(args, "--")+1:]
	}
	c := exec.Command(cmd[0], cmd[1:]...)
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	if stdin != nil {
		c.Stdin = strings.NewReader(string(stdin))
	}
	if err := c.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode()
		}
		fmt.Fprintln(os.Stderr, err)
		return 126
	}
	return 0
}

// forwardHere is kubectl port-forward pod/P --address 127.0.0.1 :PORT:
// a listener whose connections go to this machine's PORT, announced as
// kubectl announces it, until it is stopped.
func forwardHere(args []string) int {
	port, err := strconv.Atoi(strings.TrimPrefix(args[len(args)-1], ":"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		return 1
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		return 1
	}
	local := ln.Addr().(*net.TCPAddr).Port
	fmt.Printf("Forwarding from 127.0.0.1:%d -> %d\n", local, port)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			fmt.Printf("Handling connection for %d\n", local)
			go func() {
				defer c.Close()
				up, err := net.Dial("tcp", hostPort("127.0.0.1", port))
				if err != nil {
					return
				}
				defer up.Close()
				done := make(chan struct{}, 2)
				go func() { _, _ = io.Copy(up, c); done <- struct{}{} }()
				go func() { _, _ = io.Copy(c, up); done <- struct{}{} }()
				<-done
			}()
		}
	}()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	<-sig
	return 0
}

// loggedCalls reads the command lines logged so far.
func loggedCalls(log string) [][]string {
	b, _ := os.ReadFile(log)
	var out [][]string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var argv []string
		if json.Unmarshal([]byte(line), &argv) == nil {
			out = append(out, argv)
		}
	}
	return out
}

// ephemeralName is the --container of the logged kubectl debug.
func ephemeralName(logged [][]string) string {
	for _, a := range logged {
		if slices.Contains(a, "debug") {
			for _, arg := range a {
				if name, ok := strings.CutPrefix(arg, "--container="); ok {
					return name
				}
			}
		}
	}
	return ""
}

// recordedPath puts a recorded docker and kubectl first on PATH for the
// test, answering from testdata/recorded/name.json, and returns the log
// of the command lines they got.
func recordedPath(t *testing.T, name string) func() [][]string {
	t.Helper()
	bin := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"docker", "kubectl"} {
		if err := os.Symlink(self, filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := filepath.Abs(filepath.Join("testdata", "recorded", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "argv.log")
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("DBG_RECORDING", rec)
	t.Setenv("DBG_RECORDED_LOG", log)
	// Each link answers as the tool it is named after.
	t.Setenv("DBG_RECORDED_TOOL", "1")
	return func() [][]string { return loggedCalls(log) }
}
