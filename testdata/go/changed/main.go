// Locals that change and appear between stops of one frame: a fixture for
// the changed field of stop answers.
package main

import "fmt"

func work() int {
	count := 1
	count = count + 1 // CHANGED: start
	label := "one"
	count = count * 10 // CHANGED: after
	extra := count + 2
	count = count + extra
	count = count - 1
	count = count + 1
	fmt.Printf("count=%d label=%s extra=%d\n", count, label, extra)
	return extra
}

func main() {
	fmt.Printf("work=%d\n", work())
}
