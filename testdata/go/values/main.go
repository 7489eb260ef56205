// A struct, a slice, a map and a string at one stop: the values
// conformance scenario's Go fixture.
package main

import "fmt"

type point struct {
	X, Y int
}

func main() {
	p := point{X: 3, Y: 4}
	xs := []int{10, 20, 30}
	m := map[string]int{"k": 5}
	name := "gopher"
	fmt.Println(p.X+p.Y, len(xs), m["k"], name) // VALUES
}
