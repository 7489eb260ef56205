package adapters

import (
	"context"
	"errors"
	"fmt"
)

// Post-mortem sessions: each adapter that reads core files declares how
// it opens one ([Traits.Core]); the others say what to use instead
// ([Traits.NoCore]).

// goCore opens a core with delve's core mode: a launch of the crashed
// binary with its core ("mode": "core", "coreFilePath").
func goCore(_ context.Context, t Target) (Mode, map[string]any, error) {
	if err := coreTarget(t); err != nil {
		return "", nil, err
	}
	args := map[string]any{"mode": "core", "program": absPath(t.Program), "coreFilePath": absPath(t.CoreFile)}
	if len(t.SourcePaths) > 0 {
		args["substitutePath"] = substitutePaths(t.SourcePaths)
	}
	return Launch, merge(args, withoutKey(t.Extra, "mode")), nil
}

// core opens a core with LLDB's core target: lldb-dap's attach with
// "coreFile" and "program", with the formatters a live session loads.
// gdb's DAP and CodeLLDB take no core file through the arguments dbg
// sends, so they are refused with the adapter to use.
func (n *Native) core(ctx context.Context, t Target) (Mode, map[string]any, error) {
	if err := coreTarget(t); err != nil {
		return "", nil, err
	}
	d, err := n.findDebugger(ctx, lldbWanted(t.Extra))
	if err != nil {
		return "", nil, err
	}
	if d.kind != kindLLDBDAP {
		return "", nil, fmt.Errorf("%s opens no core file through its DAP arguments; install lldb-dap (or lldb-vscode) or name it with adapterConfig.lldb", d.name)
	}
	args := map[string]any{"name": "dbg", "type": "lldb", "request": "attach",
		"program": absPath(t.Program), "coreFile": absPath(t.CoreFile)}
	if init := n.initCommands(ctx, t.Cwd, absPath(t.Program)); len(init) > 0 {
		args["initCommands"] = init
	}
	return Attach, merge(args, withoutKey(t.Extra, lldbKey)), nil
}

// coreTarget checks that t names a core file and its program.
func coreTarget(t Target) error {
	switch {
	case t.CoreFile == "":
		return errors.New("coreFile is required: the core file to read")
	case t.Program == "":
		return errors.New("program is required with coreFile: the binary that crashed, as built")
	}
	return nil
}

// Why the other languages have no core sessions, and what reads their
// crashes instead.
const (
	nodeNoCore = "the Node inspector debugs live processes only; start node with --report-on-fatalerror " +
		"(and --report-uncaught-exception) for a report at the crash, or read a Node core with lldb and the llnode plugin"
	javaNoCore = "JDWP debugs live JVMs only; read a JVM's core with `jhsdb jstack --exe $JAVA_HOME/bin/java --core CORE` " +
		"(jhsdb clhsdb or hsdb for more), or a live one's threads with `jcmd PID Thread.print`"
	rubyNoCore = "rdbg debugs live processes only; read a Ruby core's C stack under the C adapter (language c, coreFile, program: the ruby binary)"
	mockNoCore = "the mock adapter has no core files"
)
