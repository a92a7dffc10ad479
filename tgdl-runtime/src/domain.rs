//! Candidate domains: the cells of a regular group an input may choose, bounded before its
//! loop. When an input's filter opens with guards on the candidate's
//! coordinates — `if (to.y != from.y + 1) { return false; }`, `if (dx < -1 || dx > 1)
//! { return false; }` — the generated menu computes the box those guards leave and walks
//! only its cells, in creation order, instead of the whole group. The filter still runs
//! on every cell walked, so the box only has to contain every cell it accepts: bounds are
//! narrowed only by whole numbers, where the arithmetic is exact, and when computing them
//! fails the whole group is walked and the filter reports its error as it always did.

use crate::arena::Id;
use crate::error::Flow;

/// The comparison of a guard that rejects the candidate: `sign * c + offset <cmp> value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl Cmp {
    /// The comparison with both sides negated (`-c < v` is `c > -v`).
    fn negated(self) -> Cmp {
        match self {
            Cmp::Lt => Cmp::Gt,
            Cmp::Le => Cmp::Ge,
            Cmp::Gt => Cmp::Lt,
            Cmp::Ge => Cmp::Le,
            other => other,
        }
    }
}

/// Inclusive bounds of one coordinate; empty when `lo > hi`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub lo: i64,
    pub hi: i64,
}

/// Doubles that are whole and small enough for exact integer arithmetic.
#[inline]
fn exact(x: f64) -> Option<i64> {
    // `as` saturates and maps NaN to 0; the round trip holds only for whole values (and
    // is a conversion each way, where `fract` calls into libm).
    let i = x as i64;
    (i as f64 == x && i.abs() < (1 << 52)).then_some(i)
}

impl Bounds {
    /// Every coordinate of a line of `len` cells.
    // Called from generated code (another crate) in the menu's inner loop: inline.
    #[inline]
    pub fn new(len: usize) -> Bounds {
        Bounds { lo: 0, hi: len as i64 - 1 }
    }

    /// Keeps the coordinates `c` a guard rejecting `sign * c + offset <cmp> value` lets
    /// through. Anything not whole keeps every coordinate: the filter decides.
    ///
    /// Returns whether the guard is now redundant on every cell kept: both numbers are
    /// [`small`], so the filter's own arithmetic on them is exact and agrees with these
    /// bounds, and the comparison is one that bounds express (not `==`, which leaves a hole).
    #[inline]
    pub fn unless(&mut self, sign: i64, offset: f64, cmp: Cmp, value: f64) -> bool {
        let (Some(offset_i), Some(value_i)) = (exact(offset), exact(value)) else { return false };
        self.unless_whole(sign, offset_i, cmp, value_i);
        // `==` rejects one value: a hole, not a bound.
        cmp != Cmp::Eq && small(offset) && small(value)
    }

    /// [`Bounds::unless`] where both numbers are whole and small, as the compiler proved:
    /// the guard is then always redundant on the cells kept.
    #[inline]
    pub fn unless_whole(&mut self, sign: i64, offset: i64, cmp: Cmp, value: i64) {
        let v = value - offset;
        let (cmp, v) = if sign < 0 { (cmp.negated(), -v) } else { (cmp, v) };
        match cmp {
            Cmp::Lt => self.lo = self.lo.max(v),
            Cmp::Le => self.lo = self.lo.max(v + 1),
            Cmp::Gt => self.hi = self.hi.min(v),
            Cmp::Ge => self.hi = self.hi.min(v - 1),
            Cmp::Ne => {
                self.lo = self.lo.max(v);
                self.hi = self.hi.min(v);
            }
            // Rejects one value: a hole, not a bound.
            Cmp::Eq => {}
        }
    }
}

/// Whole numbers below 2^40 in magnitude: sums and differences of a few of them are exact
/// in doubles whatever the order of the additions, so a filter adding them up and these
/// bounds agree on every cell.
#[inline]
fn small(x: f64) -> bool {
    let i = x as i64;
    i as f64 == x && i.abs() < (1 << 40)
}

/// `x`, clearing `proven` unless it is `small`: each term of a guard's offset is checked
/// on its own, since a sum can be small when its terms are not.
#[inline]
pub fn term(x: f64, proven: &mut bool) -> f64 {
    *proven &= small(x);
    x
}

/// The bounds `compute` gives, or `None` when it stops (an error the filter will report).
#[inline]
pub fn attempt<T>(compute: impl FnOnce() -> Flow<T>) -> Option<T> {
    compute().ok()
}

/// The cells of a group laid out from handle `base`, `columns` to a row, within the
/// bounds, in creation order (row by row).
#[inline]
pub fn cells<T>(base: usize, columns: usize, xs: Bounds, ys: Bounds) -> Cells<T> {
    // An empty range of columns walks no row at all.
    let y = if xs.lo > xs.hi { ys.hi.saturating_add(1) } else { ys.lo };
    Cells { base, columns, xs, y_end: ys.hi, x: xs.lo, y, handle: std::marker::PhantomData }
}

/// The iterator of [`cells`]: a plain row-major walk of a box (a `flat_map` of two ranges
/// costs several times more in the menu's inner loop).
#[derive(Clone, Debug)]
pub struct Cells<T> {
    base: usize,
    columns: usize,
    xs: Bounds,
    y_end: i64,
    x: i64,
    y: i64,
    handle: std::marker::PhantomData<fn() -> T>,
}

impl<T> Iterator for Cells<T> {
    type Item = Id<T>;

    #[inline]
    fn next(&mut self) -> Option<Id<T>> {
        if self.y > self.y_end {
            return None;
        }
        let id = Id::from_index(self.base + self.y as usize * self.columns + self.x as usize);
        if self.x < self.xs.hi {
            self.x += 1;
        } else {
            self.x = self.xs.lo;
            self.y += 1;
        }
        Some(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(bounds: Bounds) -> Vec<i64> {
        (bounds.lo..=bounds.hi).collect()
    }

    #[test]
    fn guards_narrow_to_what_they_let_through() {
        // if (to.y != from.y - 1) return false;  with from.y = 5
        let mut b = Bounds::new(8);
        let _ = b.unless(1, 0.0, Cmp::Ne, 4.0);
        assert_eq!(kept(b), [4]);
        // dx = to.x - from.x; if (dx < -1 || dx > 1) return false;  with from.x = 0
        let mut b = Bounds::new(8);
        let _ = b.unless(1, -0.0, Cmp::Lt, -1.0);
        let _ = b.unless(1, -0.0, Cmp::Gt, 1.0);
        assert_eq!(kept(b), [0, 1]);
        // if (3 - to.x >= 2) return false  ⇔  -x + 3 >= 2 rejected: keeps x > 1.
        let mut b = Bounds::new(5);
        let _ = b.unless(-1, 3.0, Cmp::Ge, 2.0);
        assert_eq!(kept(b), [2, 3, 4]);
        let mut b = Bounds::new(5);
        let _ = b.unless(1, 0.0, Cmp::Le, 2.0);
        let _ = b.unless(1, 0.0, Cmp::Ge, 4.0);
        assert_eq!(kept(b), [3]);
    }

    #[test]
    fn what_is_not_whole_leaves_the_filter_to_decide() {
        for v in [0.5, f64::NAN, f64::INFINITY, -f64::INFINITY, 1e300] {
            let mut b = Bounds::new(4);
            let _ = b.unless(1, 0.0, Cmp::Ne, v);
            assert_eq!(kept(b), [0, 1, 2, 3], "{v}");
        }
        let mut b = Bounds::new(4);
        let _ = b.unless(1, 0.0, Cmp::Eq, 2.0);
        assert_eq!(kept(b), [0, 1, 2, 3]);
        // Off the board: nothing.
        let mut b = Bounds::new(4);
        let _ = b.unless(1, 0.0, Cmp::Ne, 9.0);
        assert!(kept(b).is_empty());
    }

    #[test]
    fn a_guard_is_redundant_only_where_the_arithmetic_is_exact() {
        let mut b = Bounds::new(8);
        assert!(b.unless(1, 0.0, Cmp::Ne, 4.0));
        assert!(b.unless(-1, 3.0, Cmp::Ge, 2.0));
        // Whole but too large to add up exactly in any order: narrowed, not redundant.
        let mut b = Bounds::new(8);
        assert!(!b.unless(1, -1e13, Cmp::Gt, -1e13 + 2.0));
        assert_eq!(kept(b), [0, 1, 2]);
        for v in [0.5, f64::NAN, f64::INFINITY] {
            assert!(!Bounds::new(4).unless(1, 0.0, Cmp::Lt, v), "{v}");
        }
        assert!(!Bounds::new(4).unless(1, 0.0, Cmp::Eq, 2.0));
        let mut proven = true;
        assert_eq!(term(3.0, &mut proven), 3.0);
        assert!(proven);
        term(1e13, &mut proven);
        assert!(!proven);
    }

    #[test]
    fn cells_come_in_creation_order() {
        let xs = Bounds { lo: 1, hi: 2 };
        let ys = Bounds { lo: 2, hi: 3 };
        let ids: Vec<usize> = cells::<()>(10, 4, xs, ys).map(Id::index).collect();
        assert_eq!(ids, [19, 20, 23, 24]);
        let empty = Bounds { lo: 3, hi: 2 };
        assert_eq!(cells::<()>(0, 4, empty, ys).count(), 0);
    }
}
