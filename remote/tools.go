package remote

import (
	"context"

	"github.com/dbg-dev/dbg/sessions"
	"github.com/dbg-dev/dbg/toolkit"
)

type listIn struct {
	Via sessions.Via `json:"via" jsonschema:"the machine"`
	All toolkit.Bool `json:"all,omitempty" jsonschema:"also those of no known language"`
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
	tb.DeclareToolset(sessions.RemoteToolset())
	toolkit.AddTool(tb, "list_remote_processes", "Processes of a machine reached through a via: pid, user, command, language; attach with create_debug_session.",
		func(ctx context.Context, in listIn) (listOut, error) {
			list, cut, err := x.ListProcesses(ctx, in.Via, in.All.Or(false))
			if err != nil {
				return listOut{}, err
			}
			if list == nil {
				list = []RemoteProcess{}
			}
			return listOut{Via: String(in.Via), Processes: list, Count: len(list), Truncated: cut}, nil
		}, toolkit.Hints{Title: "Remote processes", ReadOnly: true, OpenWorld: true}, toolkit.InToolset(sessions.RemoteToolset().Name))
	tb.Status().Register("remote", statusPart{x.status})
}
