package adapters

import (
	"context"
	"errors"
)

// nativeRemote declares native remote attach: lldb-server (or
// gdbserver) attached to the program on the target, which the local
// lldb-dap reaches with gdb-remote; marks tells a native executable
// with debug information apart by its runtime.
func nativeRemote(marks ...string) *Remote {
	return &Remote{Server: remoteNativeServer, LiveMapping: remoteNativeMapping,
		Marks: append(marks, ".debug_info")}
}

// remoteAttachArgs attaches the local debugger to the debug server on
// the target: lldb-dap runs gdb-remote in place of its own attach, with
// the local copy of the program (LocalExe, from the path mappings) as
// its target when there is one, so its symbols are read here, and the
// path mappings as target.source-map; gdb's DAP takes the server as its
// remote target.
func (n *Native) remoteAttachArgs(ctx context.Context, t Target) (map[string]any, error) {
	d, _ := n.findDebugger(ctx, lldbWanted(t.Extra))
	args := map[string]any{"name": "dbg", "type": "lldb", "request": "attach"}
	if t.Remote.LocalExe != "" {
		args["program"] = t.Remote.LocalExe
	}
	switch d.kind {
	case kindGDB:
		args["type"], args["target"] = "gdb", t.Remote.Addr
	case kindCodeLLDB:
		return nil, errors.New("remote attach goes through lldb-dap (lldb-vscode) or gdb, not CodeLLDB: pass adapterConfig.lldb naming one")
	default:
		init := n.initCommands(ctx, "", t.Remote.LocalExe)
		for _, m := range t.PathMappings {
			init = append(init, remoteNativeMapping(m)[1:])
		}
		if len(init) > 0 {
			args["initCommands"] = init
		}
		// Synchronously: lldb-vscode checks the process as soon as the
		// commands return, and an asynchronous gdb-remote may not have
		// made it yet ("process unloaded during launch or attach").
		args["attachCommands"] = []string{"script lldb.debugger.SetAsync(False)", "gdb-remote " + t.Remote.Addr, "script lldb.debugger.SetAsync(True)"}
	}
	return merge(args, withoutKey(t.Extra, lldbKey)), nil
}
