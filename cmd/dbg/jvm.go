package main

import (
	"github.com/spf13/cobra"
)

// newCmdJVM groups the JVM commands (docs/contract.md, "JVM capabilities"): they answer with the
// list_attachable_jvms, attach_local_jvm and invoke_java_method tools.
func newCmdJVM(f *factory) *cobra.Command {
	return group("jvm", "Find local JVMs, load dbg's agent into one, and invoke its methods (no IDE needed)",
		newCmdJVMList(f, nil), newCmdJVMAttach(f, nil), newCmdJVMInvoke(f, nil))
}
