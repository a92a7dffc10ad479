//! Mean payoffs with 95 % intervals, for `simulate` and `tournament`.
//!
//! Sums are kept in fixed point (units of 2⁻²⁴) in 128-bit integers: adding is exact and
//! so does not depend on the order games are merged in, which parallel simulation does
//! not fix. A report is the same for the same seed on any number of threads.

use serde::{Deserialize, Serialize};

/// Units of a payoff in the sums.
const SCALE: f64 = (1u64 << 24) as f64;

fn fixed(x: f64) -> i128 {
    (x * SCALE).round() as i128
}

/// Per-player sums of payoffs and of their squares over some games.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PayoffSums {
    pub games: u64,
    sum: Vec<i128>,
    squares: Vec<i128>,
}

/// A mean with its 95 % interval (normal approximation).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Mean {
    pub mean: f64,
    pub ci95: (f64, f64),
}

impl PayoffSums {
    /// Adds one game's payoffs (one for each player, in seat order).
    pub fn add(&mut self, payoffs: &[f64]) {
        if self.sum.len() < payoffs.len() {
            self.sum.resize(payoffs.len(), 0);
            self.squares.resize(payoffs.len(), 0);
        }
        for (i, &x) in payoffs.iter().enumerate() {
            self.sum[i] = self.sum[i].saturating_add(fixed(x));
            self.squares[i] = self.squares[i].saturating_add(fixed(x * x));
        }
        self.games += 1;
    }

    pub fn merge(&mut self, other: &PayoffSums) {
        if self.sum.len() < other.sum.len() {
            self.sum.resize(other.sum.len(), 0);
            self.squares.resize(other.sum.len(), 0);
        }
        for (i, (&s, &q)) in other.sum.iter().zip(&other.squares).enumerate() {
            self.sum[i] = self.sum[i].saturating_add(s);
            self.squares[i] = self.squares[i].saturating_add(q);
        }
        self.games += other.games;
    }

    /// Each player's mean payoff and its 95 % interval; empty when no game was added.
    pub fn means(&self) -> Vec<Mean> {
        if self.games == 0 {
            return Vec::new();
        }
        let n = self.games as f64;
        self.sum
            .iter()
            .zip(&self.squares)
            .map(|(&s, &q)| {
                let mean = s as f64 / SCALE / n;
                let variance = if self.games > 1 {
                    ((q as f64 / SCALE - n * mean * mean) / (n - 1.0)).max(0.0)
                } else {
                    0.0
                };
                let half = 1.959_963_984_540_054 * (variance / n).sqrt();
                Mean { mean, ci95: (mean - half, mean + half) }
            })
            .collect()
    }
}

/// `0.125 (95% CI 0.082 to 0.168)`.
pub fn describe(m: &Mean) -> String {
    format!("{:.3} (95% CI {:.3} to {:.3})", m.mean, m.ci95.0, m.ci95.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn means_and_intervals_do_not_depend_on_the_order_of_merging() {
        let games: Vec<[f64; 2]> =
            (0..1000).map(|i| [((i * 7) % 5) as f64 - 2.0, 0.1 * (i % 3) as f64]).collect();
        let mut all = PayoffSums::default();
        games.iter().for_each(|g| all.add(g));
        let (mut a, mut b) = (PayoffSums::default(), PayoffSums::default());
        games[..400].iter().for_each(|g| a.add(g));
        games[400..].iter().rev().for_each(|g| b.add(g));
        b.merge(&a);
        assert_eq!(all, b);
        let means = all.means();
        let mean0: f64 = games.iter().map(|g| g[0]).sum::<f64>() / 1000.0;
        assert!((means[0].mean - mean0).abs() < 1e-6, "{means:?} {mean0}");
        let var0 = games.iter().map(|g| (g[0] - mean0).powi(2)).sum::<f64>() / 999.0;
        let half = 1.959_963_984_540_054 * (var0 / 1000.0).sqrt();
        assert!((means[0].ci95.1 - means[0].mean - half).abs() < 1e-6);
        assert!((means[1].mean - 0.0999).abs() < 1e-3);
    }

    #[test]
    fn one_game_has_no_spread() {
        let mut s = PayoffSums::default();
        s.add(&[2.0, -2.0]);
        assert_eq!(
            s.means(),
            vec![Mean { mean: 2.0, ci95: (2.0, 2.0) }, Mean { mean: -2.0, ci95: (-2.0, -2.0) }]
        );
    }
}
