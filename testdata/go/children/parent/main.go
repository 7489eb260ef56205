// Runs the program named by its first argument as a child process (an
// exec, which delve's followExec follows) and reports how it ended.
package main

import (
	"fmt"
	"os"
	"os/exec"
)

func main() {
	fmt.Println("parent starts")
	cmd := exec.Command(os.Args[1], "7")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	err := cmd.Run()
	fmt.Println("parent saw child exit", cmd.ProcessState.ExitCode(), err)
}
