// Package ide gives dbg what an IDE knows about a project: its saved run
// configurations, a runner that starts them as processes the server owns,
// and its Git repositories.
//
// # Run configurations
//
// [LoadRunConfigurations] reads .idea/runConfigurations/*.xml,
// .run/*.run.xml, the RunManager of .idea/workspace.xml (without
// temporary configurations and templates) and .vscode/launch.json (JSONC,
// with ${workspaceFolder} and ${env:X} substituted, and compounds). Each
// [RunConfiguration] carries the command line dbg runs for it: java -cp
// for Application, Spring Boot and Kotlin; mvn, gradle and npm for build
// tools (JUnit through the module's build tool); go run / go test;
// python; node; shell scripts.
//
// A [Runner] starts a configuration in its own process group, captures
// its output in a toolkit.OutputRing registered as an owned process (so
// the logs tools read it), restarts it in place, and stops
// every process group when the server's context ends.
//
// # Git
//
// Reads use go-git: every repository of the project, linked worktrees and
// submodules included, with state, HEAD, branch, upstream, remotes, dirty
// and ahead/behind (a walk bounded by the divergence, cached per commit
// pair). Fetch, pull and push run the git command, never interactively,
// with a deadline and redacted, capped output; without git, fetch and
// fast-forward pulls fall back to go-git. Remote URLs are reported with
// credentials redacted ([RedactURL]).
//
// # Tools and status
//
// [Register] adds the MCP tools get_restartable_run_configurations,
// restart_run_configuration, debug_run_configuration,
// get_git_repositories, get_git_remotes, git_fetch, git_pull and
// git_push, and registers the "runConfigurations" and "git" status
// contributors in the toolbox. An [IDE] is also the
// toolkit.ConfigurationStarter other capabilities start run
// configurations with (run_and_invoke). It needs of the session manager
// only the narrow [Manager] interface. Status answers from caches
// invalidated by file modification times, so it stays cheap on large
// repositories.
//
// # Example
//
//	res := ide.LoadRunConfigurations("/path/to/project", nil)
//	for _, c := range res.Configurations {
//		fmt.Println(c.Name, c.TypeName, c.Command)
//	}
package ide
