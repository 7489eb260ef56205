// Writes a struct field through a function: a fixture for data
// breakpoints (the watch is set in main, the write happens in bump).
package main

import "fmt"

type counter struct {
	n     int
	bumps int
}

//go:noinline
func bump(c *counter, by int) {
	// The write of n is not the line's last: a hardware watchpoint stops
	// after the writing instruction, still on this line.
	c.n, c.bumps = c.n+by, c.bumps+1 // WATCH: writes
}

func main() {
	c := &counter{n: 1}
	fmt.Println("watch-start") // WATCH: set
	bump(c, 4)
	fmt.Printf("watched n=%d\n", c.n)
}
