// Runs until killed, printing a counter: a target for attach tests.
package main

import (
	"fmt"
	"os"
	"time"
)

func tick(n int) int {
	next := n + 1 // TICK
	return next
}

func main() {
	n := 0
	fmt.Println("ready", os.Getpid())
	for {
		n = tick(n)
		if n%10 == 0 {
			fmt.Println("tick", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
