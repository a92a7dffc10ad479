//! The table workload of docs/performance.md ("Tables"): fills a `Table` with N number keys,
//! reads every key back, then (given a stride S) removes every S-th key and adds it again
//! (to the end), as generated code does (`t[k] = v`, `t[k]`, `t[k] = null`). Meant for
//! instruction counts:
//!
//! ```sh
//! cargo build --release -p tgdl-runtime --example table_fill
//! valgrind --tool=callgrind target/release/examples/table_fill 100000      # N, no removals
//! valgrind --tool=callgrind target/release/examples/table_fill 100000 100  # N, S
//! ```
//!
//! It uses only `Table::default`, `set`, `get` and `Key::number`, which every version of
//! the runtime has, so the same file measures the engine before and after a change.

use tgdl_runtime::collections::{Key, Table};

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let stride: usize = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(0);
    let mut t: Table<f64> = Table::default();
    for i in 0..n {
        t.set(Key::number(i as f64), Some((i * i) as f64));
    }
    let mut sum = 0.0;
    for i in 0..n {
        sum += t.get(&Key::number(i as f64)).unwrap_or(0.0);
    }
    if stride > 0 {
        for i in (0..n).step_by(stride) {
            t.set(Key::number(i as f64), None);
            t.set(Key::number(i as f64), Some(1.0));
        }
    }
    let last = t.entries.last().map(|(k, _)| k.describe()).unwrap_or_default();
    println!("{} entries, sum {sum}, last key {last}", t.entries.len());
}
