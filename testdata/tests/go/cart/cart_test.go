package cart

import "testing"

func TestTotalWrong(t *testing.T) {
	prices := []int{2, 3}
	got := Total(prices)
	if got != 6 {
		t.Errorf("Total(%v) = %d, want 6", prices, got)
	}
	t.Log("after the check")
}

func TestDiscountPanics(t *testing.T) {
	amount := 200
	if Discount(amount, 150) != 0 {
		t.Fatal("unreachable")
	}
}

func TestPairs(t *testing.T) {
	cases := []struct {
		name string
		a, b int
		want int
	}{
		{"ones", 1, 1, 2},
		{"wrong", 2, 3, 6},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Total([]int{c.a, c.b})
			if got != c.want {
				t.Fatalf("got %d, want %d", got, c.want)
			}
		})
	}
}

func TestPasses(t *testing.T) {
	t.Log("checking the discount")
	if Discount(200, 10) != 180 {
		t.Fatal("discount")
	}
}
