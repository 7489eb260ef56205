// A small program for debugging: a loop, a function call and output.
package main

import "fmt"

type point struct {
	X, Y int
}

func add(a, b int) int {
	sum := a + b
	return sum
}

func main() {
	total := 0
	names := []string{"ant", "bee", "cat"}
	p := point{X: 1, Y: 2}
	for i := 0; i < 3; i++ {
		total = add(total, i) // BREAK
		fmt.Printf("i=%d total=%d name=%s\n", i, total, names[i])
	}
	fmt.Printf("done total=%d p=%v\n", total, p)
}
