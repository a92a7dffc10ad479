//! The analyses: what the generated code looks like before any token is written.
//!
//! - [`repr`]: nullability, the `Option`-represented values.
//! - [`whole`]: the number slots held as `i64`.

pub(crate) mod repr;
pub(crate) mod whole;
