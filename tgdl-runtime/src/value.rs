//! Value semantics shared by every generated engine: players, strings and the arithmetic
//! rules of TGDL numbers (IEEE doubles with located errors instead of NaN and infinity).

use crate::error::{Flow, Loc, fail};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// A player: a number in `0..P`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize)]
pub struct Player(pub u32);

impl Player {
    /// The spec's player-expression mapping: `r % P` for `r >= 0`, `(P - |r| % P) % P` otherwise,
    /// after truncating `r` toward zero.
    #[inline]
    pub fn wrap(r: f64, players: u32) -> Player {
        let p = players.max(1) as i64;
        // `as` truncates toward zero; non-finite values saturate or become 0.
        let r = if r.is_finite() { r as i64 } else { 0 };
        // The common cases (`active + 1`, `active - 1`) without a division.
        if (0..p).contains(&r) {
            Player(r as u32)
        } else if (p..2 * p).contains(&r) {
            Player((r - p) as u32)
        } else {
            Player(r.rem_euclid(p) as u32)
        }
    }

    pub fn number(self) -> f64 {
        self.0 as f64
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.0)
    }
}

/// An immutable TGDL string. Cheap to clone; compared by content.
pub type Str = Arc<str>;

pub fn str_of(s: &str) -> Str {
    Arc::from(s)
}

/// Text of a number: whole numbers without a fraction, others in their shortest exact form.
pub fn fmt_number(x: f64) -> String {
    if x == 0.0 { "0".to_string() } else { format!("{x}") }
}

/// `a + b` on strings, bounded by the string budget ([`crate::limits`]): past it, a
/// located error.
#[inline]
pub fn concat_at(a: &str, b: &str, loc: impl Into<Loc>) -> Flow<Str> {
    let limit = crate::limits::string_bytes();
    if a.len() + b.len() > limit {
        return fail(
            loc.into(),
            format!("this string would be {} bytes long, over the limit of {limit}", a.len() + b.len()),
        );
    }
    Ok(concat(a, b))
}

/// A string built by a concatenation, checked against the string budget.
#[inline]
pub fn bounded<T: AsRef<str>>(text: T, loc: Loc) -> Flow<T> {
    let len = text.as_ref().len();
    let limit = crate::limits::string_bytes();
    if len > limit {
        return fail(loc, format!("this string would be {len} bytes long, over the limit of {limit}"));
    }
    Ok(text)
}

/// String concatenation `a + b` when either side is a string.
pub fn concat(a: &str, b: &str) -> Str {
    let mut s = String::with_capacity(a.len() + b.len());
    s.push_str(a);
    s.push_str(b);
    Arc::from(s)
}

/// Checks that arithmetic produced a finite number.
#[inline]
pub fn finite(x: f64, loc: impl Into<Loc>) -> Flow<f64> {
    if x.is_finite() { Ok(x) } else { not_finite(x, loc.into()) }
}

#[cold]
#[inline(never)]
fn not_finite(x: f64, loc: Loc) -> Flow<f64> {
    fail(loc, format!("arithmetic result is not a finite number ({x})"))
}

#[inline]
pub fn div(a: f64, b: f64, loc: impl Into<Loc>) -> Flow<f64> {
    if b == 0.0 { fail(loc.into(), "division by zero") } else { finite(a / b, loc) }
}

/// `%`: the truncated remainder (sign of the left operand).
#[inline]
pub fn rem(a: f64, b: f64, loc: impl Into<Loc>) -> Flow<f64> {
    if b == 0.0 { fail(loc.into(), "modulo by zero") } else { Ok(a % b) }
}

/// `^` on numbers. Whole exponents use exact repeated squaring; others use `libm`'s portable
/// `pow`, so results are the same on every platform.
pub fn pow(base: f64, exp: f64, loc: impl Into<Loc>) -> Flow<f64> {
    let r = if exp.fract() == 0.0 && exp.abs() <= 1024.0 {
        let mut n = exp.abs() as u32;
        let mut acc = 1.0f64;
        let mut b = base;
        while n > 0 {
            if n & 1 == 1 {
                acc *= b;
            }
            b *= b;
            n >>= 1;
        }
        if exp < 0.0 { 1.0 / acc } else { acc }
    } else {
        libm::pow(base, exp)
    };
    finite(r, loc)
}

pub fn sqrt(x: f64, loc: Loc) -> Flow<f64> {
    if x < 0.0 {
        fail(loc, format!("square root of a negative number ({})", fmt_number(x)))
    } else {
        Ok(x.sqrt())
    }
}

/// Rounds half away from zero, as people do at the table.
pub fn round(x: f64) -> f64 {
    x.round()
}

/// A number used as a list index: a whole number within `0..len`.
#[inline]
pub fn index(i: f64, len: usize, loc: Loc) -> Flow<usize> {
    // A fraction (or NaN) does not survive the round trip through `i64`.
    let t = i as i64;
    if t as f64 == i && t >= 0 && (t as u64) < len as u64 {
        Ok(t as usize)
    } else {
        out_of_range(i, len, loc)
    }
}

#[cold]
#[inline(never)]
fn out_of_range(i: f64, len: usize, loc: Loc) -> Flow<usize> {
    if i.fract() != 0.0 || i.is_nan() {
        fail(loc, format!("index {} is not a whole number", fmt_number(i)))
    } else {
        fail(loc, format!("index {} is out of range for a list of length {len}", fmt_number(i)))
    }
}

/// A number used as a count or size (`roll(n)`): a whole number of at least `min`.
pub fn count(n: f64, min: f64, loc: Loc) -> Flow<u64> {
    if n.fract() == 0.0 && n >= min && n <= u32::MAX as f64 {
        Ok(n as u64)
    } else {
        fail(loc, format!("expected a whole number of at least {}, got {}", fmt_number(min), fmt_number(n)))
    }
}

/// A whole number kept as an `i64` (see [`whole`]) as the number it is. A function
/// rather than `as f64` in generated code: `x as f64 < y` does not parse.
#[inline(always)]
pub const fn number(n: i64) -> f64 {
    n as f64
}

/// A number the compiler keeps as an `i64` (a whole number within ±2^52). Generated code
/// only calls this where its analysis could not show it; a value that is not such a
/// number is an internal error rather than a silently truncated one.
#[cold]
pub fn whole(n: f64, loc: Loc) -> Flow<i64> {
    const LIMIT: f64 = (1u64 << 52) as f64;
    if n.fract() == 0.0 && n.abs() <= LIMIT {
        Ok(n as i64)
    } else {
        fail(loc, format!("internal error: {} was expected to be a whole number", fmt_number(n)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const L: Loc = Loc::new("t.tgdl", 1, 1);

    fn message<T: std::fmt::Debug>(r: Flow<T>) -> String {
        match r.map_err(crate::error::Stop::into_rule_error) {
            Err(Some(e)) => e.message.clone(),
            other => panic!("expected a rule error, got {other:?}"),
        }
    }

    #[test]
    fn fractions_are_not_indices_or_counts() {
        assert_eq!(index(2.0, 3, L).ok(), Some(2));
        assert_eq!(message(index(1.5, 3, L)), "index 1.5 is not a whole number");
        assert_eq!(message(index(f64::NAN, 3, L)), "index NaN is not a whole number");
        assert_eq!(message(index(3.0, 3, L)), "index 3 is out of range for a list of length 3");
        assert_eq!(count(6.0, 1.0, L).ok(), Some(6));
        assert_eq!(message(count(2.5, 1.0, L)), "expected a whole number of at least 1, got 2.5");
    }

    #[test]
    fn player_wrapping_follows_the_spec() {
        assert_eq!(Player::wrap(3.0, 2), Player(1));
        assert_eq!(Player::wrap(-1.0, 3), Player(2));
        assert_eq!(Player::wrap(-3.0, 3), Player(0));
        assert_eq!(Player::wrap(-4.0, 3), Player(2));
        assert_eq!(Player::wrap(2.9, 2), Player(0));
    }

    #[test]
    fn numbers_print_like_people_write_them() {
        assert_eq!(fmt_number(3.0), "3");
        assert_eq!(fmt_number(-0.0), "0");
        assert_eq!(fmt_number(0.1), "0.1");
        assert_eq!(fmt_number(2.5), "2.5");
        assert_eq!(fmt_number(1e21), "1000000000000000000000");
    }

    #[test]
    fn arithmetic_errors_are_located() {
        assert!(div(1.0, 0.0, L).is_err());
        assert!(rem(1.0, 0.0, L).is_err());
        assert_eq!(rem(-7.0, 3.0, L).unwrap(), -1.0);
        assert_eq!(pow(-2.0, 2.0, L).unwrap(), 4.0);
        assert_eq!(pow(2.0, -1.0, L).unwrap(), 0.5);
        assert_eq!(pow(4.0, 0.5, L).unwrap(), 2.0);
        assert!(sqrt(-1.0, L).is_err());
        assert!(index(2.7, 3, L).is_err());
        assert!(index(3.0, 3, L).is_err());
        assert!(index(-0.5, 3, L).is_err());
        assert_eq!(index(-0.0, 3, L).ok(), Some(0));
        assert!(index(-1.0, 3, L).is_err());
    }
}
