// Runs a loop of 10,000 passes (or as many as its argument says),
// printing a line every quarter: a fixture for traces (the probe goes on
// the marked line).
package main

import (
	"fmt"
	"os"
	"strconv"
)

func main() {
	n := 10000
	if len(os.Args) > 1 {
		n, _ = strconv.Atoi(os.Args[1])
	}
	fmt.Println("trace-start")
	total := 0
	for i := 0; i < n; i++ {
		k := i % 3
		total += k // TRACE: body
		if i%(n/4) == 0 {
			fmt.Printf("at %d\n", i)
		}
	}
	fmt.Printf("trace-done total=%d\n", total)
}
