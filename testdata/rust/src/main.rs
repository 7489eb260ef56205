// Fixture for the rust adapter: a struct, a Vec and a String in a loop,
// a function call, stdout. With an argument "forever" it prints "ready",
// then ticks until killed (attach tests); with "panic" it panics in the
// third iteration.
use std::{env, thread, time::Duration};

struct Point {
    x: i32,
    y: i32,
}

fn square(x: i32) -> i32 {
    let result = x * x;
    result
}

fn main() {
    let forever = env::args().nth(1).as_deref() == Some("forever");
    let panic_at = if env::args().nth(1).as_deref() == Some("panic") { 2 } else { -1 };
    let name = String::from("hello");
    let mut items: Vec<i32> = vec![10, 20, 30];
    let p = Point { x: 3, y: 4 };
    let mut total = 0;
    let mut i = 0;
    if forever {
        println!("ready");
    }
    while forever || i < 5 {
        if i == panic_at {
            panic!("boom at {}", i);
        }
        total += square(i) + p.x; // BREAK: loop body
        println!("{}{} i={} total={} len={}", if forever { "tick " } else { "" }, name, i, total, items.len());
        if forever {
            thread::sleep(Duration::from_millis(50));
        } else {
            items.push(i);
        }
        i += 1;
    }
    println!("done total={} y={}", total, p.y);
}
