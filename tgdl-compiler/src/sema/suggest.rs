//! "Did you mean" suggestions: the closest known name to a misspelt one.

use super::Checker;

impl<'a> Checker<'a> {
    /// The closest name among `candidates` (edit distance), for "did you mean" hints.
    pub(crate) fn suggest<'n>(
        &self,
        name: &str,
        candidates: impl Iterator<Item = &'n str>,
    ) -> Option<String> {
        let mut best: Option<(usize, &str)> = None;
        for c in candidates {
            let d = edit_distance(&name.to_lowercase(), &c.to_lowercase());
            if d <= (name.len() / 3).max(1) && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, c));
            }
        }
        best.map(|(_, c)| c.to_string())
    }

    /// The help line for a call to an unknown name: the closest of `candidates`, named by
    /// what it is (`an action with a similar name exists: `advance``). On a tie the
    /// earlier candidate wins, so callers list the nearest scope first.
    pub(crate) fn suggest_callable(&self, name: &str, candidates: &[(String, Callable)]) -> Option<String> {
        let s = self.suggest(name, candidates.iter().map(|(c, _)| c.as_str()))?;
        let kind = candidates.iter().find(|(c, _)| *c == s).map_or(Callable::Function, |&(_, k)| k);
        Some(format!("{} with a similar name exists: `{s}`", kind.described()))
    }
}

/// What a callable name is, for the wording of a suggestion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Callable {
    /// A function written in the game.
    Function,
    /// An action (called like a function: it runs its `require` and `effect`).
    Action,
    /// A built-in function or method (`roll`, `log`, `push`, `player.active`).
    Builtin,
}

impl Callable {
    fn described(self) -> &'static str {
        match self {
            Callable::Function => "a function",
            Callable::Action => "an action",
            Callable::Builtin => "a built-in function",
        }
    }
}

/// Edit distance counting a swap of two neighbouring letters as one edit (`scroe` is one
/// edit from `score`), for suggestions.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // d[i][j]: distance between the first i letters of a and the first j of b.
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}
