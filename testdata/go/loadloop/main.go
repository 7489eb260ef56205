// Loops until killed, calling a function each pass: a program for the
// load benchmark, which stops at its breakpoint, steps and continues
// for as long as it runs.
package main

import "fmt"

func add(a, b int) int {
	sum := a + b
	return sum
}

func main() {
	total := 0
	for i := 0; ; i++ {
		total = add(total, i%7) // BREAK
		if i%1000000 == 0 {
			fmt.Println("pass", i, total)
		}
	}
}
