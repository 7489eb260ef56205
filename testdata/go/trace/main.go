// Runs a loop of 10,000 passes, printing a line every 2,500: a fixture
// for traces (the probe goes on the marked line).
package main

import "fmt"

func main() {
	fmt.Println("trace-start")
	total := 0
	for i := 0; i < 10000; i++ {
		k := i % 3
		total += k // TRACE: body
		if i%2500 == 0 {
			fmt.Printf("at %d\n", i)
		}
	}
	fmt.Printf("trace-done total=%d\n", total)
}
