// Writes a struct field through a function: a fixture for data
// breakpoints (the watch is set in main, the write happens in shift,
// where main's p is named q). The write of x is not the last instruction
// of its line (a hardware watchpoint stops after the writing
// instruction, still on the line).
struct Point {
    x: i32,
    y: i32,
}

#[inline(never)]
fn shift(q: &mut Point) {
    (q.x, q.y) = (q.x + 4, q.y + 1); // WATCH: writes
}

fn main() {
    let mut p = Point { x: 1, y: 0 };
    println!("watch-start"); // WATCH: set
    shift(&mut p);
    println!("watched x={} y={}", p.x, p.y);
}
