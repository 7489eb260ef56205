// Prints its first argument, DBG_E2E and its working directory (the
// args/env/cwd conformance scenario).
use std::env;

fn main() {
    let arg = env::args().nth(1).unwrap_or_default();
    let value = env::var("DBG_E2E").unwrap_or_default();
    let cwd = env::current_dir().map(|d| d.display().to_string()).unwrap_or_default();
    println!("{} {} {}", arg, value, cwd);
}
