package remote

import (
	"context"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

type listIn struct {
	Via sessions.Via `json:"via" jsonschema:"the machine: ssh host, docker container or kubernetes pod"`
	All toolkit.Bool `json:"all,omitempty" jsonschema:"also processes whose language dbg cannot tell (default false)"`
}

type listOut struct {
	Via       string          `json:"via"`
	Processes []RemoteProcess `json:"processes"`
	Count     int             `json:"count"`
	Truncated bool            `json:"truncated,omitempty"`
}

// Register implements toolkit.Capability: list_remote_processes, and the
// client tools' part of get_debug_tools_status.
func (x *Remote) Register(tb *toolkit.Toolbox) {
	toolkit.AddTool(tb, "list_remote_processes", "List the processes of a machine reached through a via (ssh, docker, kubernetes), with pid, user, command and language, to pick one to attach to with create_debug_session's via and processId.",
		func(ctx context.Context, in listIn) (listOut, error) {
			list, cut, err := x.ListProcesses(ctx, in.Via, in.All.Or(false))
			if err != nil {
				return listOut{}, err
			}
			if list == nil {
				list = []RemoteProcess{}
			}
			return listOut{Via: String(in.Via), Processes: list, Count: len(list), Truncated: cut}, nil
		})
	tb.Status().Register("remote", statusPart{x.status})
}
