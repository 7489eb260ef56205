// Command dbg debugs running programs in many languages through the Debug
// Adapter Protocol, for agents (MCP) and people (CLI).
//
//	dbg mcp                                   # every tool, to an MCP client on stdio
//	dbg serve --project .                     # the same over HTTP, and the project's daemon
//	dbg launch testdata/go/loop/main.go       # a console on a launched program
//	dbg attach --pid 4242                     # a console on a running one (language detected)
//	dbg attach --pid 4242 --no-prompt         # a session in the daemon: prints its id, returns
//	dbg next go-1; dbg locals go-1            # one-shot verbs on that session
//
// This package only wires. The work is done by dbg's MCP tools; a verb
// calls them as any MCP client would, so the CLI answers exactly what an
// agent is answered.
//
// # One file per verb
//
// Each verb has an options struct holding what it needs from outside
// (streams, clients, the clock) and its flags, a constructor taking the
// factory (factory.go) and a run function, and the run function itself:
//
//	type stopOptions struct {
//		IO       *iostreams.IOStreams
//		StateDir func() string
//
//		project string
//	}
//
//	func newCmdStop(f *factory, runF func(context.Context, *stopOptions) error) *cobra.Command
//	func stopRun(ctx context.Context, opts *stopOptions) error
//
// verb (helpers.go) finishes a verb without positional arguments, and
// queryVerb one that asks one tool and prints its answer (run list,
// sessions, status, jvm list share queryOptions).
//
// Tests pass their own runF to check flag parsing alone (parseFlags in
// flags_test.go), and call xRun with options of their own to check
// behaviour. All output goes through iostreams: data on stdout, status on
// stderr. root.go lists the verbs; the one-shot verbs (break, next,
// locals...) are rows of oneShotVerbs in oneshot.go, one tool call each.
//
// # Where a verb's tools run
//
// A verb reaches the tools through cmd/internal/toolclient, in one of two
// ways. factory.toolClient talks to the project's running daemon (a
// `dbg serve`) when there is one, so a shell and an MCP client share
// sessions, and otherwise to a server built in-process for the command.
// factory.daemonClient, for --no-prompt and the one-shot verbs, starts
// the daemon in the background when none runs: the session outlives the
// command.
//
// # Wiring
//
// wire.go is the one place a server is put together. newManager builds
// the session manager (package sessions) over the adapter registry;
// registerTools builds each capability with its package's New and
// registers it: sessiontools, debugtools, ide and testrun each give a
// [toolkit.Capability], whose Register adds its tools, resources and
// status contributors to the Toolbox. No other file adds a tool.
//
// # Languages
//
// No file here names a language. What a verb must know about one it
// asks the registry (f.registry, adapters.Default outside tests) and the
// adapters' declarations ([adapters.Traits]): the language of a file
// (`dbg launch`: [adapters.Registry.ForFile]) or of a process (`dbg
// attach`: [adapters.Registry.DetectLanguage]), whether it is native and
// needs debug info, the built-in adapters `dbg dap` serves, and how an
// adapter installs into a runtime (`dbg adapters install --python`).
// docs/adding-a-language.md says what a new language touches.
//
// # Tests
//
// TestMain (harness_test.go) builds the dbg binary once per run, for the
// tests that run it as a process. The conformance suite
// (conformance_test.go) runs every scenario for every language, one row
// per language in conformance_langs_test.go; run one language with
// -run 'Conformance/go/' and one scenario everywhere with
// -run 'Conformance/.*/hit'.
package main
