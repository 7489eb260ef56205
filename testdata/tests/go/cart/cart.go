// Package cart is the code under test.
package cart

import "fmt"

// Total sums prices.
func Total(prices []int) int {
	sum := 0
	for _, p := range prices {
		sum += p
	}
	return sum
}

// Discount reduces amount by percent, which must be between 0 and 100.
func Discount(amount, percent int) int {
	if percent < 0 || percent > 100 {
		panic(fmt.Sprintf("percent %d is out of range", percent))
	}
	return amount - amount*percent/100
}
