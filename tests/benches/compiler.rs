//! Compiler speed: `tgdlc check` (load, parse, check) and `tgdlc emit` (the same, then
//! generate and pretty-print the Rust) of `tests/data/large.tgdl`, a 1,300-line game, and
//! of the connect-four example for scale. Measured through the library functions the
//! commands call (`tgdl_compiler::check_file`, `tgdl_compiler::generate_file`), so process start-up and
//! terminal output are not counted. Target: `check` under 50 ms for 1,000 lines.
//!
//! `cargo bench -p tgdl-tests --bench compiler`

use criterion::{BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::path::{Path, PathBuf};

/// The programs measured: a name and the path from the workspace root.
const PROGRAMS: &[(&str, &str)] =
    &[("large", "tests/data/large.tgdl"), ("connect_four", "examples/connect_four.tgdl")];

fn path_of(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(relative)
}

fn bench(c: &mut Criterion) {
    for &(name, relative) in PROGRAMS {
        let path = path_of(relative);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let lines = text.lines().count() as u64;
        // A program that does not check would measure the error path.
        let compilation = tgdl_compiler::check_file(&path);
        assert!(
            !compilation.has_errors(),
            "{} does not check:\n{}",
            path.display(),
            compilation.render(false)
        );

        let mut group = c.benchmark_group("compiler");
        group.throughput(Throughput::Elements(lines));
        group.bench_function(BenchmarkId::new("check", name), |b| {
            b.iter(|| black_box(tgdl_compiler::check_file(black_box(&path))).has_errors())
        });
        group.bench_function(BenchmarkId::new("emit", name), |b| {
            b.iter(|| black_box(tgdl_compiler::generate_file(black_box(&path))).is_ok())
        });
        group.finish();
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
}
