//! [`Setting`]: the values a tuned player plays with — a full parameter set of the in-process
//! engine, or the tuned parameters' values sent to an external brain through its channel
//! (issue 23: tune any Gomocup engine).

use std::collections::BTreeMap;

use wuzi_engine::Params;

/// The values one side of a tune (engine+, engine-, start, tuned) plays with.
#[derive(Clone, Debug, PartialEq)]
pub enum Setting {
    /// The in-process engine (or `pbrain-wuzi` by its parameter file) with this set.
    Engine(Params),
    /// An external brain: each tuned parameter's value as sent (`60`, `1.35`).
    Brain(BTreeMap<String, String>),
}

impl Setting {
    /// The value of parameter `name`, as text.
    pub fn get(&self, name: &str) -> Option<String> {
        match self {
            Setting::Engine(p) => p.get(name).map(|v| v.to_string()),
            Setting::Brain(values) => values.get(name).cloned(),
        }
    }

    /// The engine's parameter set, if this is one.
    pub fn params(&self) -> Option<&Params> {
        match self {
            Setting::Engine(p) => Some(p),
            Setting::Brain(_) => None,
        }
    }

    /// As a TOML file body: the engine's [`Params::to_toml`], or `name = value` lines.
    pub fn to_toml(&self) -> String {
        match self {
            Setting::Engine(p) => p.to_toml(),
            Setting::Brain(values) => values.iter().map(|(n, v)| format!("{n} = {v}\n")).collect(),
        }
    }
}

/// A value as sent to a brain: an integer parameter's whole number (`60`), else the value
/// to 4 decimals with at least one (`1.35`, `21.0`), so a TOML config reads a float.
pub fn format_value(v: f64, integer: bool) -> String {
    if integer {
        return format!("{}", v.round() as i64);
    }
    let text = format!("{v:.4}");
    let trimmed = text.trim_end_matches('0');
    if trimmed.ends_with('.') {
        format!("{trimmed}0")
    } else {
        trimmed.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_formatted_for_the_brain() {
        assert_eq!(format_value(59.6, true), "60");
        assert_eq!(format_value(21.0, false), "21.0");
        assert_eq!(format_value(1.349_99, false), "1.35");
        assert_eq!(format_value(-0.5, false), "-0.5");
        let s = Setting::Brain(
            [("match_space".to_string(), "21.5".to_string())]
                .into_iter()
                .collect(),
        );
        assert_eq!(s.get("match_space").as_deref(), Some("21.5"));
        assert_eq!(s.to_toml(), "match_space = 21.5\n");
        assert!(s.params().is_none());
    }
}
