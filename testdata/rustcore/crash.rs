// A Rust program that panics; built with -C panic=abort it aborts
// (SIGABRT) and leaves a core file where the core size limit allows.
fn withdraw(balance: i64, amount: i64) -> i64 {
    let label = "rent";
    let left = balance - amount;
    if left < 0 {
        panic!("{label}: overdrawn by {}", -left); // CRASH
    }
    left
}

fn main() {
    let balance: i64 = std::env::args().count() as i64;
    println!("left {}", withdraw(balance, 5));
}
