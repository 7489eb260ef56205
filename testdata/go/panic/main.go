// Panics with an index out of range after printing a line.
package main

import "fmt"

func pick(xs []int, i int) int {
	return xs[i]
}

func main() {
	xs := []int{1, 2, 3}
	fmt.Println("about to panic")
	fmt.Println(pick(xs, 5))
}
