// The child of parent: squares its argument.
package main

import (
	"fmt"
	"os"
	"strconv"
)

func work(n int) int {
	square := n * n
	label := "child"
	fmt.Printf("child %s square=%d\n", label, square) // BP:child
	return square
}

func main() {
	n, _ := strconv.Atoi(os.Args[1])
	if work(n) != 49 {
		os.Exit(1)
	}
}
