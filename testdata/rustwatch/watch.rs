// Writes a struct field: a fixture for data breakpoints. The write of x
// is not the last instruction of its line (a hardware watchpoint stops
// after the writing instruction, still on the line).
struct Point {
    x: i32,
    y: i32,
}

fn main() {
    let mut p = Point { x: 1, y: 0 };
    println!("watch-start"); // WATCH: set
    (p.x, p.y) = (p.x + 4, p.y + 1); // WATCH: writes
    println!("watched x={} y={}", p.x, p.y);
}
