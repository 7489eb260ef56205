package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// What an agent pays for dbg's tool list, and what the list tells a
// client about each tool (docs/contract.md, "What an agent can afford
// and trust").

// Budgets of tools/list, in bytes of the JSON-RPC answer.
const (
	maxDefaultListBytes = 16 << 10 // the default of any project: with tests, in a Git repository, built by Maven
	maxAllListBytes     = 48 << 10 // --toolsets all
)

// hints is one tool's row of the annotation table: read-only,
// destructive, idempotent, open-world; alters says --profile observe
// leaves it out. A read-only tool's destructive and idempotent hints
// mean nothing in MCP, and are left out.
type hints struct {
	ro, destructive, idempotent, open, alters bool
}

var (
	readOnly = hints{ro: true}
	acts     = hints{}
	repeats  = hints{idempotent: true}
	destroys = hints{destructive: true}
	alters   = hints{destructive: true, alters: true}
)

// toolHints is every tool dbg serves with the hints it must declare,
// chosen by what the tool does.
var toolHints = map[string]hints{
	// core: sessions. A detach is destructive with terminateProcess, a
	// restart kills the launched program to start it again, a close kills
	// a launched program (and only detaches from an attached one).
	"list_supported_languages": readOnly, "create_debug_session": acts, "attach_to_process": acts,
	"detach_from_process": destroys, "start_debugging": acts, "restart_debugging": destroys,
	"close_debug_session": {destructive: true, idempotent: true}, "list_debug_sessions": readOnly,
	// core: breakpoints, execution, inspection, status
	"set_breakpoint": acts, "list_breakpoints": readOnly, "remove_breakpoint": repeats, "clear_breakpoints": repeats,
	"set_exception_breakpoints": repeats, "continue_execution": acts, "pause_execution": acts, "step_over": acts,
	"step_into": acts, "step_out": acts, "run_to_line": acts, "wait_for_stop": readOnly, "list_threads": readOnly,
	"get_stack_trace": readOnly, "get_scopes": readOnly, "get_variables": readOnly, "get_local_variables": readOnly,
	"evaluate_expression": acts, "get_source_context": readOnly, "get_output": readOnly,
	"get_debug_tools_status": readOnly, "enable_toolset": readOnly,
	// remote: it runs ps on another machine
	"list_remote_processes": {ro: true, open: true},
	// observe
	"add_trace": acts, "get_trace": readOnly, "remove_trace": repeats, "set_data_breakpoint": acts,
	// live
	"set_variable": alters, "restart_frame": alters, "hot_reload": alters, "goto_line": alters,
	// tests
	"list_tests": readOnly, "debug_test": acts,
	// jvm
	"list_debug_tools_connections": readOnly, "list_attachable_jvms": readOnly, "attach_local_jvm": repeats,
	"invoke_java_method": alters, "read_target_application_logs": readOnly, "get_last_sql_statements": readOnly,
	"run_and_invoke": alters, "generate_method_args_template": readOnly, "search_http_url": readOnly,
	"list_method_around_scripts": readOnly, "get_method_around_script": readOnly,
	// ide
	"get_restartable_run_configurations": readOnly, "restart_run_configuration": alters,
	"debug_run_configuration": {alters: true},
	// git
	"get_git_repositories": readOnly, "get_git_remotes": readOnly,
	"git_fetch": {idempotent: true, open: true, alters: true},
	"git_pull":  {destructive: true, open: true, alters: true},
	"git_push":  {destructive: true, open: true, alters: true},
}

// rawList starts `dbg mcp` with flags in dir and returns its tools/list
// answer as sent, and the tools in it.
func rawList(t *testing.T, dir string, flags ...string) (int, []*mcp.Tool) {
	t.Helper()
	cmd := exec.Command(dbgBinary, append([]string{"mcp"}, flags...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DBG_STATE_DIR="+t.TempDir(), "DBG_WARM_ADAPTERS=0")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	timer := time.AfterFunc(time.Minute, func() { _ = cmd.Process.Kill() })
	defer timer.Stop()
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"size","version":"1"}}}`)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	fmt.Fprintln(in, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	r := bufio.NewReaderSize(out, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		if err != nil {
			t.Fatalf("dbg mcp %v: %v", flags, err)
		}
		var msg struct {
			ID     int `json:"id"`
			Result struct {
				Tools []*mcp.Tool `json:"tools"`
			} `json:"result"`
		}
		if json.Unmarshal(line, &msg) == nil && msg.ID == 2 {
			_ = in.Close()
			_, _ = io.Copy(io.Discard, r)
			return len(line) - 1, msg.Result.Tools
		}
	}
}

// typicalProject returns a project with tests in a new Git repository of
// its own: a Go module with a test, or a copy of the Maven project with
// JUnit tests of testdata/tests/junit.
func typicalProject(t *testing.T, jvm bool) string {
	t.Helper()
	var dir string
	if jvm {
		dir = copyTree(t, fixture(t, "tests/junit"))
	} else {
		dir = t.TempDir()
		writeFiles(t, dir, map[string]string{
			"go.mod":      "module typical\n\ngo 1.22\n",
			"add.go":      "package typical\n\nfunc Add(a, b int) int { return a + b }\n",
			"add_test.go": "package typical\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal(Add(1, 2))\n\t}\n}\n",
		})
	}
	if _, err := git.PlainInit(dir, false); err != nil {
		t.Fatal(err)
	}
	return dir
}

// writeFiles writes files (name: text) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// listedSets names the toolsets of the listed tools.
func listedSets(tools []*mcp.Tool) []string {
	var sets []string
	for _, tool := range tools {
		set := toolSets[tool.Name]
		if set == "" {
			set = "core"
		}
		if !slices.Contains(sets, set) {
			sets = append(sets, set)
		}
	}
	sort.Strings(sets)
	return sets
}

// TestToolsListBytes holds tools/list to its budgets: the default of a
// project that needs nothing, of a project with tests in a Git
// repository, of a Maven project with JUnit tests in a Git repository,
// and every set. It logs what a shared output schema of the envelope
// would add, the other way to keep schemas small.
func TestToolsListBytes(t *testing.T) {
	t.Parallel()
	envelope := `{"type":"object","properties":{"success":{"type":"boolean"},"data":{},"error":{"type":"object"},"requestId":{"type":"string"},"timestamp":{"type":"string"}},"required":["success","requestId","timestamp"]}`
	check := func(what string, n int, tools []*mcp.Tool, limit int) {
		t.Helper()
		shared := n + len(tools)*len(`,"outputSchema":`+envelope)
		t.Logf("%s: sets %v, %d tools, %d bytes (with a shared envelope output schema: %d)", what, listedSets(tools), len(tools), n, shared)
		if limit > 0 && n > limit {
			t.Errorf("%s: tools/list is %d bytes, over its budget of %d", what, n, limit)
		}
		listed := map[string]bool{}
		for _, tool := range tools {
			listed[tool.Name] = true
		}
		for _, tool := range tools {
			if tool.OutputSchema != nil {
				t.Errorf("%s has an output schema", tool.Name)
			}
			// A description points only at tools the agent sees.
			schema, _ := json.Marshal(tool.InputSchema)
			for _, word := range toolWord.FindAllString(tool.Description+" "+string(schema), -1) {
				if _, ok := toolHints[word]; ok && !listed[word] {
					t.Errorf("%s: %s: the description names %s, which is not listed", what, tool.Name, word)
				}
			}
			if strings.Contains(tool.Description, "\n") || len(tool.Description) > 160 {
				t.Errorf("%s: the description is not one short line: %q", tool.Name, tool.Description)
			}
		}
	}
	// wantSets are the sets a default lists; jvm's lead tool is listed
	// too when a JVM of the user's runs on this machine.
	wantSets := func(what string, tools []*mcp.Tool, sets ...string) {
		t.Helper()
		got := listedSets(tools)
		if !slices.Contains(sets, "jvm") {
			got = slices.DeleteFunc(got, func(s string) bool { return s == "jvm" })
		}
		sort.Strings(sets)
		if fmt.Sprint(got) != fmt.Sprint(sets) {
			t.Errorf("%s: the default lists sets %v, want %v", what, got, sets)
		}
	}
	plain := t.TempDir()
	n, tools := rawList(t, plain, "--project", plain)
	wantSets("a project that needs nothing", tools, "core")
	check("a project that needs nothing", n, tools, maxDefaultListBytes)
	dir := typicalProject(t, false)
	n, tools = rawList(t, dir, "--project", dir)
	wantSets("a project with tests in a Git repository", tools, "core", "tests", "git")
	check("a project with tests in a Git repository", n, tools, maxDefaultListBytes)
	jvm := typicalProject(t, true)
	n, tools = rawList(t, jvm, "--project", jvm)
	wantSets("a Maven project with JUnit tests in a Git repository", tools, "core", "tests", "git", "jvm")
	check("a Maven project with JUnit tests in a Git repository", n, tools, maxDefaultListBytes)
	n, tools = rawList(t, t.TempDir(), "--toolsets", "all")
	check("--toolsets all", n, tools, maxAllListBytes)
}

// toolWord matches a word that may be a tool's name.
var toolWord = regexp.MustCompile(`[a-z]+(?:_[a-z]+)+`)

// TestToolAnnotations: every tool carries the annotations of its row in
// toolHints, and a short title; no tool lacks a row.
func TestToolAnnotations(t *testing.T) {
	t.Parallel()
	_, tools := rawList(t, t.TempDir(), "--toolsets", "all")
	seen := map[string]bool{}
	for _, tool := range tools {
		seen[tool.Name] = true
		want, ok := toolHints[tool.Name]
		if !ok {
			t.Errorf("%s has no row in toolHints", tool.Name)
			continue
		}
		a := tool.Annotations
		if a == nil {
			t.Errorf("%s has no annotations", tool.Name)
			continue
		}
		got := hints{ro: a.ReadOnlyHint, idempotent: a.IdempotentHint, destructive: a.DestructiveHint != nil && *a.DestructiveHint,
			open: a.OpenWorldHint != nil && *a.OpenWorldHint, alters: want.alters}
		if got != want || a.Title == "" || len(a.Title) > 32 || a.OpenWorldHint == nil || (!a.ReadOnlyHint && a.DestructiveHint == nil) {
			t.Errorf("%s: annotations %+v (destructive %v, open %v), want %+v", tool.Name, a, a.DestructiveHint, a.OpenWorldHint, want)
		}
	}
	for name := range toolHints {
		if !seen[name] {
			t.Errorf("%s is in toolHints but not served", name)
		}
	}
}

// listedNames returns the names a client is listed, sorted.
func listedNames(t *testing.T, c *client) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var names []string
	for tool, err := range c.cs.Tools(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, tool.Name)
	}
	sort.Strings(names)
	return names
}

// toolsetStatus is the toolsets section of get_debug_tools_status: the
// sets whose every tool is listed, and the listed tools of a set that
// lists only its lead tools.
func toolsetStatus(t *testing.T, c *client) map[string]bool {
	t.Helper()
	on := map[string]bool{}
	for _, s := range c.ok("get_debug_tools_status", nil).list("sections.toolsets.toolsets") {
		on[s.str("name")] = s.get("enabled") == true
		if lead, _ := s.get("lead").([]any); len(lead) > 0 {
			if on[s.str("name")] {
				t.Errorf("toolset %s is enabled and lists lead tools %v", s.str("name"), lead)
			}
			for _, name := range lead {
				on[fmt.Sprint(name)] = true
			}
		}
	}
	return on
}

// TestToolsetsOfTheProject: a project with Go tests in a Git repository
// lists core, tests and git by default; one that needs nothing lists
// core (and jvm only when a JVM runs, as status says). The status names
// every set with enabled; a tool of a set not listed answers; and
// enable_toolset lists a set and tells the client.
func TestToolsetsOfTheProject(t *testing.T) {
	t.Parallel()
	changed := make(chan struct{}, 16)
	opts := &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} }}
	gotests := startDbgWith(t, opts, []string{"--project", fixture(t, "tests/go")})
	on := toolsetStatus(t, gotests)
	// git lists its lead tools only: the reads and fetch; so does jvm
	// when a JVM runs here.
	if !on["core"] || !on["tests"] || on["git"] || on["observe"] || on["live"] || on["more"] || on["remote"] || on["jvm"] {
		t.Fatalf("the Go test project's toolsets: %v", on)
	}
	for _, name := range []string{"get_git_repositories", "get_git_remotes", "git_fetch"} {
		if !on[name] {
			t.Errorf("the Go test project does not list git's lead tool %s: %v", name, on)
		}
	}
	if on["git_pull"] || on["git_push"] {
		t.Errorf("git_pull or git_push is a lead tool: %v", on)
	}
	names := listedNames(t, gotests)
	for name := range toolHints {
		if want := wantListed(name, on); slices.Contains(names, name) != want {
			t.Errorf("%s listed %v, want %v (sets %v)", name, !want, want, on)
		}
	}
	empty := startDbgWith(t, nil, []string{"--project", t.TempDir()})
	on = toolsetStatus(t, empty)
	if on["tests"] || on["git"] || on["ide"] || on["observe"] || on["live"] {
		t.Errorf("an empty project's toolsets: %v", on)
	}
	if !on["attach_local_jvm"] && slices.Contains(listedNames(t, empty), "attach_local_jvm") {
		t.Error("attach_local_jvm is listed, but status says jvm lists nothing")
	}
	if slices.Contains(listedNames(t, empty), "list_attachable_jvms") {
		t.Error("list_attachable_jvms is listed by default: jvm's lead is attach_local_jvm")
	}
	// Status names a tool of a set not listed with how to list it, and
	// once the set is listed, plainly.
	sessionsReason := func(c *client) string {
		for _, cap := range c.ok("get_debug_tools_status", nil).list("capabilities") {
			if cap.str("name") == "debugSessions" {
				return cap.str("reason")
			}
		}
		return ""
	}
	if r := sessionsReason(empty); !strings.Contains(r, "list_supported_languages (enable_toolset more lists it) shows") {
		t.Errorf("status names list_supported_languages, not listed, as %q", r)
	}
	empty.ok("enable_toolset", map[string]any{"name": "more"})
	if r := sessionsReason(empty); !strings.Contains(r, "list_supported_languages shows") {
		t.Errorf("status names list_supported_languages, listed, as %q", r)
	}
	// A set not listed still answers.
	if slices.Contains(listedNames(t, empty), "get_git_repositories") {
		t.Fatal("get_git_repositories is listed in an empty project")
	}
	if r := empty.ok("get_git_repositories", nil); len(r.list("repositories")) != 0 {
		t.Errorf("an empty project's repositories: %v", r)
	}

	r := gotests.ok("enable_toolset", map[string]any{"name": "observe"})
	if added := r.get("added"); fmt.Sprint(added) != "[add_trace get_trace remove_trace set_data_breakpoint]" {
		t.Errorf("enable_toolset observe added %v", added)
	}
	select {
	case <-changed:
	case <-time.After(20 * time.Second):
		t.Fatal("no notifications/tools/list_changed after enable_toolset")
	}
	if !slices.Contains(listedNames(t, gotests), "add_trace") || !toolsetStatus(t, gotests)["observe"] {
		t.Error("observe is not listed after enable_toolset")
	}
	// Asked for, git lists the tools its lead left out.
	if added := gotests.ok("enable_toolset", map[string]any{"name": "git"}).get("added"); fmt.Sprint(added) != "[git_pull git_push]" {
		t.Errorf("enable_toolset git added %v", added)
	}
	if on := toolsetStatus(t, gotests); !on["git"] || !slices.Contains(listedNames(t, gotests), "git_push") {
		t.Errorf("git is not listed whole after enable_toolset: %v", on)
	}
	f := gotests.fail("enable_toolset", map[string]any{"name": "nosuch"}, "INVALID_ARGUMENT")
	if !slices.Contains(f.Error.AvailableOptions, "live") || !slices.Contains(f.Error.AvailableOptions, "all") {
		t.Errorf("an unknown toolset's options %v", f.Error.AvailableOptions)
	}
}

// toolSets says which toolset each tool is in.
var toolSets = map[string]string{
	"attach_to_process": "remote", "list_remote_processes": "remote",
	"list_supported_languages": "more", "clear_breakpoints": "more", "set_exception_breakpoints": "more",
	"run_to_line": "more", "list_threads": "more", "get_scopes": "more",
	"add_trace": "observe", "get_trace": "observe", "remove_trace": "observe", "set_data_breakpoint": "observe",
	"set_variable": "live", "restart_frame": "live", "hot_reload": "live", "goto_line": "live",
	"list_tests": "tests", "debug_test": "tests",
	"list_debug_tools_connections": "jvm", "list_attachable_jvms": "jvm", "attach_local_jvm": "jvm", "invoke_java_method": "jvm",
	"read_target_application_logs": "jvm", "get_last_sql_statements": "jvm", "run_and_invoke": "jvm",
	"generate_method_args_template": "jvm", "search_http_url": "jvm", "list_method_around_scripts": "jvm", "get_method_around_script": "jvm",
	"get_restartable_run_configurations": "ide", "restart_run_configuration": "ide", "debug_run_configuration": "ide",
	"get_git_repositories": "git", "get_git_remotes": "git", "git_fetch": "git", "git_pull": "git", "git_push": "git",
}

// wantListed says whether a tool is listed when on is what
// toolsetStatus read: its set is enabled, or it is a listed lead tool.
func wantListed(name string, on map[string]bool) bool {
	set := toolSets[name]
	if set == "" {
		set = "core"
	}
	return on[set] || on[name]
}

// TestProfiles: each profile lists only the tools it allows and answers
// a call of any other UNSUPPORTED naming itself; observe evaluates
// without side effects, refuses sideEffects: true and a terminating
// detach.
func TestProfiles(t *testing.T) {
	t.Parallel()
	for _, profile := range []string{"full", "observe", "read-only"} {
		t.Run(profile, func(t *testing.T) {
			t.Parallel()
			c := startDbgWith(t, nil, []string{"--toolsets", "all", "--profile", profile})
			names := listedNames(t, c)
			for name, h := range toolHints {
				want := profile == "full" || (profile == "observe" && !h.alters) || (profile == "read-only" && h.ro)
				if slices.Contains(names, name) != want {
					t.Errorf("%s listed %v, want %v", name, !want, want)
					continue
				}
				if !want {
					r := c.fail(name, nil, "UNSUPPORTED")
					if !strings.Contains(r.Error.Message, "--profile "+profile) {
						t.Errorf("%s: %s", name, r.Error.Message)
					}
				}
			}
			if st := c.ok("get_debug_tools_status", nil); st.str("sections.toolsets.profile") != profile {
				t.Errorf("status profile %q", st.str("sections.toolsets.profile"))
			}
		})
	}
	t.Run("observe evaluates without side effects", func(t *testing.T) {
		t.Parallel()
		requireDelve(t)
		c := startDbgWith(t, nil, []string{"--profile", "observe"})
		src := fixture(t, "go/loop/main.go")
		id, _ := mcpLaunch(t, c, "go", src, []int{mcpLine(t, src, "BREAK")}, fixture(t, "go/loop"), nil)
		if v := c.ok("evaluate_expression", map[string]any{"sessionId": id, "expression": "total"}).str("result"); v == "" {
			t.Error("a read of total answered nothing")
		}
		c.fail("evaluate_expression", map[string]any{"sessionId": id, "expression": "total = 7"}, "INVALID_ARGUMENT")
		r := c.fail("evaluate_expression", map[string]any{"sessionId": id, "expression": "total", "sideEffects": true}, "UNSUPPORTED")
		if !strings.Contains(r.Error.Message, "--profile observe") {
			t.Errorf("sideEffects: true: %s", r.Error.Message)
		}
		c.fail("detach_from_process", map[string]any{"sessionId": id, "terminateProcess": true}, "UNSUPPORTED")
		c.ok("close_debug_session", map[string]any{"sessionId": id})
	})
}
