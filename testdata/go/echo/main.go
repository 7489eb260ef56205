// Prints its first argument, DBG_E2E and its working directory (the
// args/env/cwd conformance scenario).
package main

import (
	"fmt"
	"os"
)

func main() {
	cwd, err := os.Getwd()
	if err != nil {
		cwd = err.Error()
	}
	fmt.Println(os.Args[1], os.Getenv("DBG_E2E"), cwd)
}
