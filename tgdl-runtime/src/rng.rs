//! The game's random number generator: a fixed, documented algorithm owned by this crate,
//! so that the same seed gives the same game on every machine and in every version.
//!
//! Algorithm: xoshiro256** (Blackman & Vigna, 2018), seeded by expanding the 64-bit seed
//! with SplitMix64. Bounded integers use Lemire's multiply-and-reject method (unbiased);
//! unit floats take the top 53 bits. Changing any of this changes every recorded game,
//! so it is covered by golden-value tests below.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rng {
    s: [u64; 4],
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut sm = seed;
        Rng { s: [splitmix64(&mut sm), splitmix64(&mut sm), splitmix64(&mut sm), splitmix64(&mut sm)] }
    }

    /// A generator for the `index`-th item of a family derived from `seed` (per-game seeds of
    /// a simulation): independent of how the family is split among threads.
    pub fn derive_seed(seed: u64, index: u64) -> u64 {
        let mut sm = seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03);
        splitmix64(&mut sm)
    }

    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// A uniform integer in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let mut m = (self.next_u64() as u128) * (n as u128);
        if (m as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = (self.next_u64() as u128) * (n as u128);
            }
        }
        (m >> 64) as u64
    }

    /// A uniform float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Fisher–Yates, from the last element down.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_values_never_change() {
        let mut r = Rng::new(42);
        let got: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        let mut again = Rng::new(42);
        assert_eq!(got, (0..3).map(|_| again.next_u64()).collect::<Vec<_>>());
        // Recorded once; a change here breaks every recorded trace.
        assert_eq!(got, GOLDEN);
        let mut r = Rng::new(7);
        let dice: Vec<u64> = (0..10).map(|_| r.below(6) + 1).collect();
        assert_eq!(dice, GOLDEN_DICE);
    }

    // Cross-checked against `rand_xoshiro::Xoshiro256StarStar::seed_from_u64(42)`.
    const GOLDEN: [u64; 3] = [1546998764402558742, 6990951692964543102, 12544586762248559009];
    const GOLDEN_DICE: [u64; 10] = [5, 2, 6, 6, 6, 6, 1, 1, 3, 1];

    #[test]
    fn below_is_in_range_and_covers_it() {
        let mut r = Rng::new(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[r.below(7) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800 && c < 1200), "{seen:?}");
    }

    #[test]
    fn unit_is_in_half_open_interval() {
        let mut r = Rng::new(3);
        for _ in 0..10_000 {
            let x = r.unit();
            assert!((0.0..1.0).contains(&x));
        }
    }

    #[test]
    fn derived_seeds_differ() {
        let a = Rng::derive_seed(5, 0);
        let b = Rng::derive_seed(5, 1);
        assert_ne!(a, b);
        assert_eq!(a, Rng::derive_seed(5, 0));
    }
}
