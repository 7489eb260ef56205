package main

import (
	"fmt"

	"github.com/spf13/cobra"
)

// orDash prints "-" for an empty or nil value.
func orDash[T any](p *T) string {
	if p == nil {
		return "-"
	}
	s := fmt.Sprint(*p)
	if s == "" {
		return "-"
	}
	return s
}

// dash prints "-" for an empty string.
func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// projectArgs are a tool's arguments naming the project, when given.
func projectArgs(project string) map[string]any {
	a := map[string]any{}
	if project != "" {
		a["projectPath"] = project
	}
	return a
}

// addProjectFlag adds --project, the project directory of the tools.
func addProjectFlag(cmd *cobra.Command, p *string) {
	cmd.Flags().StringVar(p, "project", "", "the project directory (default: the working directory)")
}

// addJSONFlag adds --json: print the tool's answer as JSON.
func addJSONFlag(cmd *cobra.Command, b *bool) {
	cmd.Flags().BoolVar(b, "json", false, "print JSON")
}
