//! A small shopping cart, the code under test.

/// Sums prices.
pub fn total(prices: &[i64]) -> i64 {
    let mut sum = 0;
    for p in prices {
        sum += p;
    }
    sum
}

/// Reduces amount by percent, which must be between 0 and 100.
pub fn discount(amount: i64, percent: i64) -> i64 {
    if !(0..=100).contains(&percent) {
        panic!("percent {percent} is out of range");
    }
    amount - amount * percent / 100
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn total_wrong() {
        let prices = [2, 3];
        let got = total(&prices);
        assert_eq!(got, 6);
        println!("after the assertion");
    }

    #[test]
    fn discount_panics() {
        let amount = 200;
        assert_eq!(discount(amount, 150), 0);
    }

    #[test]
    fn pairs() {
        for (a, b, want) in [(1, 1, 2), (2, 3, 6)] {
            let got = total(&[a, b]);
            assert_eq!(got, want, "total of {a} and {b}");
        }
    }

    #[test]
    fn passes() {
        println!("checking the discount");
        assert_eq!(discount(200, 10), 180);
    }
}
