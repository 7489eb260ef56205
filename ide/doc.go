// Package ide gives dbg what an IDE knows about a project: its saved run
// configurations (IntelliJ .idea/runConfigurations, .run, workspace.xml
// and VS Code launch.json), a runner that starts them as processes the
// server owns, and its Git repositories (read with go-git; fetch, pull
// and push through the git command, never interactively).
//
// # Tools
//
// [Register] adds the MCP tools get_restartable_run_configurations,
// restart_run_configuration, debug_run_configuration,
// get_git_repositories, get_git_remotes, git_fetch, git_pull and
// git_push, and registers the "runConfigurations" and "git" status
// contributors with the session manager.
//
// # Example
//
//	res := ide.LoadRunConfigurations("/path/to/project", nil)
//	for _, c := range res.Configurations {
//		fmt.Println(c.Name, c.TypeName, c.Command)
//	}
package ide
