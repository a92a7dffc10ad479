//! Game parameters (`param number cards = 3 in 1..13;`): what a game declares, and the
//! values a game starts with (`--param cards=5`, Python's `Game(cards=5)`, a match's
//! settings). A game reads its values from its core; every copy of the game shares them.

use std::collections::BTreeMap;
use std::sync::Arc;

/// One declared parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    pub name: &'static str,
    pub kind: ParamKind,
    /// The default (a bool's is 0 or 1; a text's, its index among the options).
    pub default: f64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamKind {
    /// A number in `min..=max` (infinite bounds: any number).
    Number {
        min: f64,
        max: f64,
    },
    Bool,
    /// One of these texts; the value is its index.
    Choice {
        options: &'static [&'static str],
    },
}

impl ParamSpec {
    /// Whether `value` fits the parameter.
    pub fn fits(&self, value: f64) -> bool {
        match self.kind {
            ParamKind::Number { min, max } => value.is_finite() && value >= min && value <= max,
            ParamKind::Bool => value == 0.0 || value == 1.0,
            ParamKind::Choice { options } => {
                value.fract() == 0.0 && value >= 0.0 && value < options.len() as f64
            }
        }
    }

    /// `3`, `true`: a value as the command line writes it.
    pub fn text(&self, value: f64) -> String {
        match self.kind {
            ParamKind::Bool => (value != 0.0).to_string(),
            ParamKind::Number { .. } => crate::value::fmt_number(value),
            ParamKind::Choice { options } => {
                options.get(value as usize).copied().unwrap_or_default().to_string()
            }
        }
    }

    /// What the parameter takes: `a number in 1..13`, `true or false`.
    pub fn domain(&self) -> String {
        match self.kind {
            ParamKind::Bool => "true or false".to_string(),
            ParamKind::Choice { options } => format!("one of {}", options.join(", ")),
            ParamKind::Number { min, max } if min.is_finite() && max.is_finite() => {
                format!("a number in {}..{}", crate::value::fmt_number(min), crate::value::fmt_number(max))
            }
            ParamKind::Number { .. } => "a number".to_string(),
        }
    }
}

/// The values a game starts with, one for each declared parameter in order; none given:
/// the defaults.
#[derive(Clone, Debug, Default)]
pub struct Params(Option<Arc<[f64]>>);

// Values are finite numbers, compared by their bits.
impl PartialEq for Params {
    fn eq(&self, other: &Params) -> bool {
        let bits = |p: &Params| p.0.as_ref().map(|v| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
        bits(self) == bits(other)
    }
}

impl Eq for Params {}

impl std::hash::Hash for Params {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        if let Some(v) = &self.0 {
            for x in v.iter() {
                x.to_bits().hash(state);
            }
        }
    }
}

/// Why parameter values were refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError {
    /// The parameter concerned (its index in the declarations), when one is.
    pub param: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for ParamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParamError {}

impl Params {
    /// The defaults.
    pub fn defaults() -> Params {
        Params(None)
    }

    /// Values from `NAME=VALUE` pairs (`true`/`false` for a bool); parameters not named
    /// keep their defaults.
    pub fn parse<S: AsRef<str>>(specs: &[ParamSpec], pairs: &[S]) -> Result<Params, ParamError> {
        let mut named = Vec::new();
        for pair in pairs {
            let pair = pair.as_ref();
            let Some((name, value)) = pair.split_once('=') else {
                return Err(ParamError {
                    param: None,
                    message: format!("`{pair}`: write a parameter as NAME=VALUE"),
                });
            };
            named.push((name.trim().to_string(), value.trim().to_string()));
        }
        Params::from_named(specs, &named)
    }

    /// Values from `(name, value)` texts.
    pub fn from_named(specs: &[ParamSpec], named: &[(String, String)]) -> Result<Params, ParamError> {
        if named.is_empty() {
            return Ok(Params::defaults());
        }
        let mut values: Vec<f64> = specs.iter().map(|s| s.default).collect();
        for (name, text) in named {
            let Some(i) = specs.iter().position(|s| s.name == name) else {
                let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
                let message = if known.is_empty() {
                    format!("this game has no parameter `{name}` (it declares none)")
                } else {
                    format!("this game has no parameter `{name}` (it has {})", known.join(", "))
                };
                return Err(ParamError { param: None, message });
            };
            let spec = &specs[i];
            let value = match (spec.kind, text.as_str()) {
                (ParamKind::Bool, "true") => Some(1.0),
                (ParamKind::Bool, "false") => Some(0.0),
                (ParamKind::Bool, _) => None,
                (ParamKind::Number { .. }, t) => t.parse::<f64>().ok().filter(|v| v.is_finite()),
                (ParamKind::Choice { options }, t) => options.iter().position(|o| *o == t).map(|i| i as f64),
            };
            match value {
                Some(v) if spec.fits(v) => values[i] = v,
                _ => {
                    return Err(ParamError {
                        param: Some(i),
                        message: format!("`{name}` takes {}, not `{text}`", spec.domain()),
                    });
                }
            }
        }
        Ok(Params(Some(values.into())))
    }

    /// Values in declaration order, checked against `specs`: what a game's core holds.
    pub fn resolve(&self, specs: &[ParamSpec]) -> Result<Arc<[f64]>, ParamError> {
        let Some(values) = &self.0 else {
            return Ok(specs.iter().map(|s| s.default).collect());
        };
        if values.len() != specs.len() {
            return Err(ParamError {
                param: None,
                message: format!(
                    "{} parameter values for a game of {} parameters",
                    values.len(),
                    specs.len()
                ),
            });
        }
        for (i, (spec, &v)) in specs.iter().zip(values.iter()).enumerate() {
            if !spec.fits(v) {
                return Err(ParamError {
                    param: Some(i),
                    message: format!("`{}` takes {}, not `{}`", spec.name, spec.domain(), spec.text(v)),
                });
            }
        }
        Ok(values.clone())
    }

    /// The values of a running game (its core's): the same parameters again.
    pub fn of_values(values: &Arc<[f64]>) -> Params {
        Params(Some(values.clone()))
    }

    /// Whether these are the defaults.
    pub fn is_default(&self, specs: &[ParamSpec]) -> bool {
        match &self.0 {
            None => true,
            Some(v) => {
                v.len() == specs.len()
                    && specs.iter().zip(v.iter()).all(|(s, x)| s.default.to_bits() == x.to_bits())
            }
        }
    }

    /// Every parameter with its value as text, by name: what traces and reports record.
    pub fn named(&self, specs: &[ParamSpec]) -> BTreeMap<String, String> {
        let values: Vec<f64> = match &self.0 {
            Some(v) => v.to_vec(),
            None => specs.iter().map(|s| s.default).collect(),
        };
        specs.iter().zip(values).map(|(s, v)| (s.name.to_string(), s.text(v))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[ParamSpec] = &[
        ParamSpec { name: "cards", kind: ParamKind::Number { min: 1.0, max: 13.0 }, default: 3.0 },
        ParamSpec { name: "jokers", kind: ParamKind::Bool, default: 0.0 },
    ];

    #[test]
    fn pairs_set_values_and_the_rest_keep_their_defaults() {
        let p = Params::parse(SPECS, &["cards=5"]).unwrap();
        assert_eq!(&*p.resolve(SPECS).unwrap(), &[5.0, 0.0]);
        let p = Params::parse(SPECS, &["jokers=true", "cards=13"]).unwrap();
        assert_eq!(&*p.resolve(SPECS).unwrap(), &[13.0, 1.0]);
        assert_eq!(p.named(SPECS)["jokers"], "true");
        assert!(Params::parse(SPECS, &[] as &[&str]).unwrap().is_default(SPECS));
        assert!(Params::parse(SPECS, &["cards=3"]).unwrap().is_default(SPECS));
    }

    #[test]
    fn values_outside_a_parameter_are_refused_and_say_why() {
        let e = Params::parse(SPECS, &["cards=14"]).unwrap_err();
        assert_eq!(e.message, "`cards` takes a number in 1..13, not `14`");
        assert_eq!(e.param, Some(0));
        let e = Params::parse(SPECS, &["jokers=1"]).unwrap_err();
        assert_eq!(e.message, "`jokers` takes true or false, not `1`");
        let e = Params::parse(SPECS, &["deck=2"]).unwrap_err();
        assert_eq!(e.message, "this game has no parameter `deck` (it has cards, jokers)");
        assert!(Params::parse(SPECS, &["cards"]).is_err());
        assert!(Params::parse(SPECS, &["cards=NaN"]).is_err());
    }
}
