// Fixture of the value checks: one local of each kind a person reads,
// at one stop (the line marked BREAK: values).
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

#[allow(dead_code)]
#[derive(Debug)]
enum Shape {
    Empty,
    Circle(i32),
    Rect { w: i32, h: i32 },
}

#[allow(dead_code)]
#[derive(Debug)]
struct Point {
    x: i32,
    y: i32,
}

fn show(words: &[&str]) -> usize {
    let mut n = 0;
    for w in words {
        n += w.len(); // BREAK: word
    }
    n
}

fn main() {
    let name = String::from("hello");
    let greeting: &str = "hi there";
    let words = vec!["alpha", "beta"];
    let nums: Vec<i32> = vec![10, 20, 30];
    let mut ages: HashMap<String, i32> = HashMap::new();
    ages.insert(String::from("ann"), 31);
    let some: Option<i32> = Some(5);
    let none: Option<i32> = None;
    let ok: Result<i32, String> = Ok(7);
    let err: Result<i32, String> = Err(String::from("bad"));
    let boxed: Box<i32> = Box::new(42);
    let rc: Rc<String> = Rc::new(String::from("shared"));
    let arc: Arc<i32> = Arc::new(9);
    let circle = Shape::Circle(3);
    let rect = Shape::Rect { w: 2, h: 6 };
    let p = Point { x: 3, y: 4 };
    let pref: &Point = &p;
    let nref: &i32 = &nums[1];
    let letter: char = 'a';
    let n = show(&words); // BREAK: values
    println!(
        "{} {} {} {:?} {} {:?} {:?} {:?} {:?} {} {} {} {:?} {:?} {:?} {} {} {}",
        name, greeting, n, nums, ages["ann"], some, none, ok, err, boxed, rc, arc, circle, rect, pref, nref, words.len(), letter
    );
    println!("done values");
}
