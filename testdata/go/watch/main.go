// Writes a struct field through a function: a fixture for data
// breakpoints (the watch is set in main, the write happens in bump, where
// main's c is named k).
package main

import "fmt"

type counter struct {
	n     int
	bumps int
}

//go:noinline
func bump(k *counter, by int) {
	// The write of n is not the line's last: a hardware watchpoint stops
	// after the writing instruction, still on this line.
	k.n, k.bumps = k.n+by, k.bumps+1 // WATCH: writes
}

func main() {
	c := &counter{n: 1}
	fmt.Println("watch-start") // WATCH: set
	bump(c, 4)
	fmt.Printf("watched n=%d\n", c.n)
}
