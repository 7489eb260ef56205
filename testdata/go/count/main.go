// Counts five passes of a loop, printing each: a fixture for hit
// conditions (the fourth pass must be reachable).
package main

import "fmt"

func main() {
	total := 0
	for i := 0; i < 5; i++ {
		total += i // BREAK: count
		fmt.Printf("pass i=%d total=%d\n", i, total)
	}
	fmt.Printf("counted total=%d\n", total)
}
