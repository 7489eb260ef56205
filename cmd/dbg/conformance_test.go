package main

// The conformance suite: every scenario runs for every language.
//
// The table is languages() in conformance_langs_test.go: one lang per
// language, declaring its fixtures (the programs under testdata/, their
// marked lines, the values a stop shows, the function to break in, how to
// start a target to attach to, the exception it throws, what it prints)
// and, in cannot, the scenarios it cannot do with the clean refusal it
// answers instead. The scenarios are the scenarios slice below; each is a
// function of (t, client, lang): the launch and run controls in
// conformance_scenarios_test.go, the flows around a launch or an attach
// (arguments, environment, working directory; attach then breakpoint;
// caught exceptions) in conformance_flows_test.go, the live edits
// (restart_frame, goto_line, evaluation without side effects; hot_reload
// of a running and of a stopped program) in conformance_live_test.go and
// conformance_reload_test.go, each language's own
// values in conformance_values_test.go, with the value cases of a
// language's row in conformance_<language>_test.go.
//
// Tests are named TestConformance/<language>/<scenario>[/<variant>]: run
// one language with -run 'Conformance/go/', one scenario everywhere with
// -run 'Conformance/.*/hit'. Languages run as parallel subtests, at most
// conformanceWorkers at a time, started in the table's order; the scenarios of a language run in turn,
// each against the one dbg server of its language, and every scenario
// ends with that server holding no session and no child process. A
// language whose adapter is not installed skips with the reason.
//
// Adding a language is one entry in languages(). Adding a scenario (a new
// tool: watchpoints, traces, tests) is one entry in scenarios, the fields
// it reads in lang (zero for languages that do not declare them yet
// fails loudly, never skips), and a refusal in cannot for each language
// that cannot do it. A scenario never skips a language: it either runs
// the flow or checks the refusal. A flow only one language has (COBOL's
// paragraphs, rdbg's attach) is a scenario in the row's extra, run after
// the others on the language's server as <language>/extra/<name>.

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// scenario is one flow every language runs.
type scenario struct {
	name string
	run  func(t *testing.T, c *client, l *lang)
	// refused checks the answer of a language that cannot run the flow.
	refused func(t *testing.T, c *client, l *lang, r refusal)
}

// refusal is how a language answers a scenario it cannot do: a tool error
// with code (a structured error), or, when code is empty, an answer that
// succeeds but says so (an unverified breakpoint with the message). says
// is a text the message must contain.
type refusal struct {
	code string
	says string
}

var scenarios = []scenario{
	{name: "launch", run: scenarioLaunch},
	{name: "args_env_cwd", run: scenarioArgsEnvCwd, refused: refusedArgsEnvCwd},
	{name: "entry", run: scenarioEntry},
	{name: "pause", run: scenarioPause},
	{name: "attach", run: scenarioAttach},
	{name: "attach_break", run: scenarioAttachBreak, refused: refusedAttachBreak},
	{name: "remote", run: scenarioRemote, refused: refusedRemote},
	{name: "set_variable", run: scenarioSetVariable},
	{name: "hit", run: scenarioHitCondition},
	{name: "function", run: scenarioFunction, refused: refusedFunction},
	{name: "exception", run: scenarioException},
	{name: "caught", run: scenarioCaught, refused: refusedCaught},
	{name: "attach_catch", run: scenarioAttachCatch, refused: refusedCaught},
	{name: "features", run: scenarioFeatures},
	{name: "output", run: scenarioOutput},
	{name: "restart_frame", run: scenarioRestartFrame, refused: refusedRestartFrame},
	{name: "goto_line", run: scenarioGotoLine, refused: refusedGotoLine},
	{name: "changed", run: scenarioChanged},
	{name: "values", run: scenarioValues},
	{name: "trace", run: scenarioTrace},
	{name: "watch", run: scenarioWatch, refused: refusedWatch},
	{name: "frame", run: scenarioFrame, refused: refusedFrame},
	{name: "quiet", run: scenarioQuiet},
	{name: "reload", run: scenarioReload, refused: refusedReload},
	{name: "children", run: scenarioChildren, refused: refusedChildren},
	{name: "multiwait", run: scenarioMultiWait},
	{name: "core", run: scenarioCore, refused: refusedCore},
	{name: "leftovers", run: scenarioLeftovers},
}

// conformanceWorkers bounds how many languages run at once: adapters,
// builds and debuggees are CPU-heavy, and the suite must fit two cores.
func conformanceWorkers() int {
	return min(max(runtime.GOMAXPROCS(0), 2), 3)
}

// conformanceSem bounds the languages that run their scenarios at once,
// across TestConformance and TestConformanceLLDB.
var conformanceSem = make(chan struct{}, conformanceWorkers())

// conformTurn waits for a free worker and gives it back when t ends.
func conformTurn(t *testing.T) {
	conformanceSem <- struct{}{}
	t.Cleanup(func() { <-conformanceSem })
}

// TestConformance runs the languages on conformanceWorkers goroutines,
// each taking the next language of the table in turn: the slowest
// chains of scenarios start first, whatever order the scheduler would
// resume parallel subtests in, and the run ends sooner.
func TestConformance(t *testing.T) {
	t.Parallel()
	next := make(chan *lang)
	var wg sync.WaitGroup
	for range conformanceWorkers() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for l := range next {
				t.Run(l.name, func(t *testing.T) {
					l.require(t)
					conformTurn(t)
					conformLanguage(t, l)
				})
			}
		}()
	}
	for _, l := range languages() {
		next <- l
	}
	close(next)
	wg.Wait()
}

// conformLanguage runs every scenario for l against one dbg server
// started with env.
func conformLanguage(t *testing.T, l *lang, env ...string) {
	if l.prepare != nil {
		l.prepare(t)
	}
	server := startDbg(t, env...)
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			c := scenarioClient(t, server)
			if r, ok := l.cannot[sc.name]; ok {
				if sc.refused == nil {
					t.Fatalf("the table says %s cannot do %s, but the scenario has no refusal check", l.name, sc.name)
				}
				sc.refused(t, c, l, r)
				return
			}
			sc.run(t, c, l)
		})
	}
	if len(l.extra) > 0 {
		t.Run("extra", func(t *testing.T) {
			for _, sc := range l.extra {
				t.Run(sc.name, func(t *testing.T) { sc.run(t, scenarioClient(t, server), l) })
			}
		})
	}
}

// scenarioClient is the language's server answering t; whatever sessions
// t leaves open are closed when it ends.
func scenarioClient(t *testing.T, server *client) *client {
	c := server.with(t)
	t.Cleanup(func() { closeSessions(c) })
	return c
}

// closeSessions closes whatever sessions a failed scenario left open, so
// the next scenario of the language starts on an empty server.
func closeSessions(c *client) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_debug_sessions", Arguments: map[string]any{}})
	if err != nil {
		return
	}
	m, _ := res.StructuredContent.(map[string]any)
	for _, s := range obj(m).list("data.sessions") {
		_, _ = c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "close_debug_session", Arguments: map[string]any{"sessionId": s.str("sessionId")}})
	}
}
