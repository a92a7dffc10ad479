//! A seat's observation as a fixed-shape `f32` array, computed in Rust: the layout and the
//! values of `tgdl_observation.ObservationEncoder` (docs/python.md, "Observations as
//! arrays"), for the vector environment ([`crate::vector`]), which encodes thousands of
//! observations a step and cannot call Python for each.
//!
//! What the layout holds is learnt in Python (the encoder's `vocabulary`, probed from
//! seeded games); this module reads that vocabulary and encodes an [`Observation`] exactly
//! as the Python encoder encodes its JSON. Texts are read as Python reads them — `float()`
//! for numbers, the encoder's regular expressions for `player k`, leading numbers, graph
//! nodes and object labels — with ASCII digits only.

use std::collections::BTreeMap;

use serde::Deserialize;
use tgdl_runtime::hidden::{Observation, Viewer};
use tgdl_runtime::view::Section;

/// The encoder's `vocabulary` (`tgdl_observation.probe_vocabulary`).
#[derive(Clone, Debug, Deserialize)]
pub struct Vocabulary {
    pub players: u32,
    /// `(title, rows, columns)` of each grid of the view.
    pub grids: Vec<(String, usize, usize)>,
    /// `(title, nodes)` of each graph.
    pub graphs: Vec<(String, usize)>,
    pub cell_tokens: Vec<String>,
    pub objects: Vec<String>,
    pub classes: Vec<String>,
    pub attributes: Vec<String>,
    pub values: BTreeMap<String, Vec<String>>,
    pub mentions: Vec<String>,
}

/// The encoder: where each block starts, and the indices of the vocabulary's texts.
#[derive(Clone, Debug)]
pub struct Encoder {
    players: usize,
    grids: Vec<(usize, usize, usize)>,
    graphs: Vec<(usize, usize)>,
    hand: usize,
    hand_sizes: usize,
    scalars: usize,
    active: usize,
    viewer: usize,
    size: usize,
    tokens: BTreeMap<String, usize>,
    objects: BTreeMap<String, usize>,
    classes: BTreeMap<String, usize>,
    /// Per attribute name: its index among the scalars, the start of its `values:` block
    /// with the index of each text, and the start of its `mentions:` block.
    attributes: BTreeMap<String, Attribute>,
    /// The object labels as the Python pattern tries them: longest first, then in order.
    labels: Vec<(String, usize)>,
}

#[derive(Clone, Debug, Default)]
struct Attribute {
    scalar: usize,
    values: Option<(usize, BTreeMap<String, usize>)>,
    mentions: Option<usize>,
}

fn index(texts: &[String]) -> BTreeMap<String, usize> {
    // The last of equal texts wins, as in the Python dict comprehension.
    texts.iter().enumerate().map(|(i, t)| (t.clone(), i)).collect()
}

impl Encoder {
    /// The encoder of a vocabulary (JSON, as `json.dumps(encoder.vocabulary)`).
    pub fn from_json(json: &str) -> Result<Encoder, String> {
        let v: Vocabulary =
            serde_json::from_str(json).map_err(|e| format!("not an encoder's vocabulary: {e}"))?;
        Ok(Encoder::new(&v))
    }

    pub fn new(v: &Vocabulary) -> Encoder {
        let players = v.players as usize;
        let channels = v.cell_tokens.len();
        let mut at = 0;
        let mut block = |size: usize| {
            let start = at;
            at += size;
            start
        };
        let grids = v
            .grids
            .iter()
            .map(|&(_, rows, cols)| (block((channels + 2) * rows * cols), rows, cols))
            .collect();
        let graphs = v.graphs.iter().map(|&(_, nodes)| (block((channels + 1) * nodes), nodes)).collect();
        let hand = block(v.objects.len() + 1);
        let hand_sizes = block(players * v.classes.len());
        let scalars = block(v.attributes.len());
        let mut attributes: BTreeMap<String, Attribute> = BTreeMap::new();
        for (i, name) in v.attributes.iter().enumerate() {
            attributes.entry(name.clone()).or_default().scalar = i;
        }
        // A block per attribute with values, in the attributes' order (a name listed twice
        // has two blocks; the later is the one written, as in Python).
        for name in &v.attributes {
            if let Some(texts) = v.values.get(name) {
                let start = block(texts.len() + 1);
                attributes.entry(name.clone()).or_default().values = Some((start, index(texts)));
            }
        }
        for name in &v.mentions {
            let start = block(v.objects.len());
            if let Some(a) = attributes.get_mut(name) {
                a.mentions = Some(start);
            }
        }
        let active = block(players);
        let viewer = block(players);
        let mut labels: Vec<(String, usize)> =
            v.objects.iter().cloned().enumerate().map(|(i, o)| (o, i)).collect();
        labels.sort_by_key(|(label, _)| std::cmp::Reverse(label.chars().count()));
        let objects = index(&v.objects);
        let labels = labels.into_iter().map(|(label, _)| (label.clone(), objects[&label])).collect();
        Encoder {
            players,
            grids,
            graphs,
            hand,
            hand_sizes,
            scalars,
            active,
            viewer,
            size: at,
            tokens: index(&v.cell_tokens),
            objects,
            classes: index(&v.classes),
            attributes,
            labels,
        }
    }

    /// How many numbers an observation is.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Writes the encoding of `obs` into `out` (`size()` numbers, all overwritten).
    pub fn encode(&self, obs: &Observation, out: &mut [f32]) -> Result<(), String> {
        out.fill(0.0);
        let channels = self.tokens.len();
        let grids: Vec<_> = obs
            .view
            .sections
            .iter()
            .filter_map(|s| match s {
                Section::Grid { cells, .. } => Some(cells),
                _ => None,
            })
            .collect();
        if grids.len() != self.grids.len() {
            return Err(format!("the view has {} grids, the layout {}", grids.len(), self.grids.len()));
        }
        for (cells, &(start, rows, cols)) in grids.into_iter().zip(&self.grids) {
            let plane = rows * cols;
            for (r, row) in cells.iter().take(rows).enumerate() {
                for (c, cell) in row.iter().take(cols).enumerate() {
                    let Some(cell) = cell.as_deref().filter(|&c| c != ".") else { continue };
                    let at = r * cols + c;
                    match py_float(cell) {
                        Some(number) => out[start + (channels + 1) * plane + at] = number as f32,
                        None => {
                            let k = self.tokens.get(cell).copied().unwrap_or(channels);
                            out[start + k * plane + at] = 1.0;
                        }
                    }
                }
            }
        }
        let graphs = obs.view.sections.iter().filter_map(|s| match s {
            Section::Graph { nodes, .. } => Some(nodes),
            _ => None,
        });
        for (nodes, &(start, count)) in graphs.zip(&self.graphs) {
            for (i, (node, _links)) in nodes.iter().take(count).enumerate() {
                for piece in node_pieces(node) {
                    let k = self.tokens.get(piece).copied().unwrap_or(channels);
                    out[start + k * count + i] += 1.0;
                }
            }
        }
        let seat = match obs.viewer {
            Viewer::Seat(s) => Some(s),
            _ => None,
        };
        let classes = self.classes.len();
        for h in &obs.hands {
            if Some(h.player) == seat
                && let Some(objects) = &h.objects
            {
                for label in objects {
                    out[self.hand + self.objects.get(label).copied().unwrap_or(self.objects.len())] += 1.0;
                }
            }
            if (h.player as usize) < self.players {
                for (class, n) in &h.counts {
                    if let Some(&k) = self.classes.get(class) {
                        out[self.hand_sizes + h.player as usize * classes + k] = *n as f32;
                    }
                }
            }
        }
        let mut name = String::new();
        for section in &obs.view.sections {
            let Section::Attributes { title, items } = section else { continue };
            if title == "hands" {
                continue;
            }
            for (key, text) in items {
                name.clear();
                name.push_str(title);
                name.push('.');
                name.push_str(key);
                let Some(a) = self.attributes.get(&name) else { continue };
                out[self.scalars + a.scalar] = scalar(text) as f32;
                if let Some((start, values)) = &a.values
                    && py_float(text).is_none()
                    && text != "true"
                    && text != "false"
                {
                    out[start + values.get(text).copied().unwrap_or(values.len())] = 1.0;
                }
                if let Some(start) = a.mentions {
                    for k in self.mentioned(text) {
                        out[start + k] = 1.0;
                    }
                }
            }
        }
        if let Some(active) = obs.view.active.filter(|&a| (a as usize) < self.players) {
            out[self.active + active as usize] = 1.0;
        }
        if let Some(seat) = seat.filter(|&s| (s as usize) < self.players) {
            out[self.viewer + seat as usize] = 1.0;
        }
        Ok(())
    }

    /// The objects `text` names, as the Python pattern finds them: from left to right, the
    /// longest label at each place, each a whole word (no letter, digit or `_` beside it).
    fn mentioned(&self, text: &str) -> Vec<usize> {
        let mut found = Vec::new();
        let mut i = 0;
        while i <= text.len() {
            let before_ok = text[..i].chars().next_back().is_none_or(|c| !is_word(c));
            let hit = before_ok
                .then(|| {
                    self.labels.iter().find(|(label, _)| {
                        text[i..].starts_with(label.as_str())
                            && text[i + label.len()..].chars().next().is_none_or(|c| !is_word(c))
                    })
                })
                .flatten();
            if let Some((label, k)) = hit {
                found.push(*k);
                // An empty label matches without moving on: step past one character.
                if !label.is_empty() {
                    i += label.len();
                    continue;
                }
            }
            match text[i..].chars().next() {
                Some(c) => i += c.len_utf8(),
                None => break,
            }
        }
        found
    }
}

/// Python's `\w`: a letter, a digit or `_`.
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Python's `float(text)` when finite: surrounding spaces allowed, `_` only between digits.
fn py_float(text: &str) -> Option<f64> {
    let t = text.trim();
    let value = if t.contains('_') {
        let b = t.as_bytes();
        let ok = b.iter().enumerate().all(|(i, &c)| {
            c != b'_' || (i > 0 && i + 1 < b.len() && b[i - 1].is_ascii_digit() && b[i + 1].is_ascii_digit())
        });
        if !ok {
            return None;
        }
        t.replace('_', "").parse::<f64>().ok()?
    } else {
        t.parse::<f64>().ok()?
    };
    value.is_finite().then_some(value)
}

/// Python's `$`: the end of the text, or before a newline that ends it.
fn without_final_newline(text: &str) -> &str {
    text.strip_suffix('\n').unwrap_or(text)
}

/// The number an attribute's text stands for (`tgdl_observation._scalar`): a number, `true`
/// 1 and `false` 0, `player k` k, a text starting with a number that number, else 0.
fn scalar(text: &str) -> f64 {
    if let Some(x) = py_float(text) {
        return x;
    }
    match text {
        "true" => return 1.0,
        "false" => return 0.0,
        _ => {}
    }
    if let Some(digits) = without_final_newline(text).strip_prefix("player ")
        && !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
    {
        return digits.parse().unwrap_or(0.0);
    }
    leading_number(text).unwrap_or(0.0)
}

/// `^\s*(-?\d+(?:\.\d+)?)`: the number a text starts with.
fn leading_number(text: &str) -> Option<f64> {
    let t = text.trim_start();
    let b = t.as_bytes();
    let mut end = usize::from(b.first() == Some(&b'-'));
    let digits = |from: usize| b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let whole = digits(end);
    if whole == 0 {
        return None;
    }
    end += whole;
    if b.get(end) == Some(&b'.') {
        let fraction = digits(end + 1);
        if fraction > 0 {
            end += 1 + fraction;
        }
    }
    t[..end].parse().ok()
}

/// `^(.*?) \[(.*)\]$` then split on commas: the labels of the pieces a graph node holds.
fn node_pieces(node: &str) -> Vec<&str> {
    let line = without_final_newline(node);
    if line.contains('\n') || !line.ends_with(']') {
        return Vec::new();
    }
    let Some(open) = line.find(" [").filter(|&p| p + 2 < line.len()) else { return Vec::new() };
    line[open + 2..line.len() - 1].split(',').map(str::trim).filter(|p| !p.is_empty()).collect()
}
