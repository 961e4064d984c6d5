//! Tunable parameters, each declared once.
//!
//! One `declare_params!` entry (name, default, min, max, SPSA step, meaning) yields the
//! [`Params`] field, its default, get/set by name, TOML load and save, and the entry of
//! [`Params::SPECS`] that the tuner iterates. All values are integers (weights in score
//! units, factors in percent) so that results never depend on floating-point details.

use std::fmt::Write as _;
use std::path::Path;
use thiserror::Error;

use crate::cell_class::code::{parse_code_name, CodeTable};
use crate::cell_class::mask::{parse_mask_name, MaskTable};
use crate::cell_class::table::{parse_name, ComboTable};

mod code;
mod mask;
mod table;

pub use code::parse_code_table;
pub use mask::parse_mask_table;

/// One tunable's declaration.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    /// Name used in TOML files, `--set` and the tuner.
    pub name: &'static str,
    /// Shipped value.
    pub default: i32,
    /// Smallest allowed value.
    pub min: i32,
    /// Largest allowed value.
    pub max: i32,
    /// Suggested SPSA perturbation at the end of a tune (`c_end`).
    pub step: f64,
    /// What the parameter does, in one line.
    pub help: &'static str,
}

/// A parameter file or setting that cannot be used.
#[derive(Debug, Error, PartialEq)]
pub enum ParamError {
    /// No parameter has this name (the message suggests the closest declared name).
    #[error("unknown parameter '{0}'{hint} (see `wuzi params` for the list)", hint = did_you_mean(.0))]
    Unknown(String),
    /// A value outside the declared range.
    #[error("parameter '{name}' = {value} is out of range {min}..={max}")]
    OutOfRange {
        /// The parameter.
        name: String,
        /// The rejected value.
        value: i64,
        /// Smallest allowed.
        min: i32,
        /// Largest allowed.
        max: i32,
    },
    /// A value that is not an integer.
    #[error("parameter '{name}': expected an integer, got '{value}'")]
    NotInteger {
        /// The parameter.
        name: String,
        /// The rejected text.
        value: String,
    },
    /// A `name=value` setting without `=`.
    #[error("bad setting '{0}': expected name=value")]
    BadSetting(String),
    /// Malformed TOML.
    #[error("{0}")]
    Toml(String),
    /// The file could not be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
}

impl ParamError {
    /// The message without a leading `path: ` (an unreadable or malformed file names itself),
    /// for callers that name the file already.
    pub fn without_path(&self, path: &Path) -> String {
        let text = self.to_string();
        match text.strip_prefix(&format!("{}: ", path.display())) {
            Some(rest) => rest.to_string(),
            None => text,
        }
    }
}

/// `; did you mean 'defence'?` when a declared name is close to `name`, else nothing.
pub fn did_you_mean(name: &str) -> String {
    Params::closest_name(name)
        .map(|n| format!("; did you mean '{n}'?"))
        .unwrap_or_default()
}

macro_rules! declare_params {
    ($( $(#[doc = $doc:literal])* $name:ident = $default:literal, $min:literal ..= $max:literal, step $step:literal; )*) => {
        /// The engine's tunable parameters. See [`Params::SPECS`] for ranges and meanings.
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub struct Params {
            $( $(#[doc = $doc])* pub $name: i32, )*
            /// Overridden entries of the combination table (see [`crate::cell_class::table`]);
            /// the others follow the hand weights.
            pub combo: ComboTable,
            /// Entries of the threat-mask table (see [`crate::cell_class::mask`]); the
            /// others are 0.
            pub threat: MaskTable,
            /// Entries of the pattern-code table (see [`crate::cell_class::code`]); the
            /// others are 0.
            pub code: CodeTable,
        }

        impl Default for Params {
            fn default() -> Self {
                Params { $( $name: $default, )* combo: ComboTable::shipped(), threat: MaskTable::shipped(), code: CodeTable::shipped() }
            }
        }

        impl Params {
            /// Every parameter's declaration, in declaration order.
            pub const SPECS: &'static [ParamSpec] = &[
                $( ParamSpec {
                    name: stringify!($name),
                    default: $default,
                    min: $min,
                    max: $max,
                    step: $step,
                    help: concat!($($doc),*),
                }, )*
            ];

            /// The value of a declared scalar parameter by name.
            fn get_declared(&self, name: &str) -> Option<i32> {
                match name {
                    $( stringify!($name) => Some(self.$name), )*
                    _ => None,
                }
            }

            fn slot(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $( stringify!($name) => Some(&mut self.$name), )*
                    _ => None,
                }
            }
        }
    };
}

declare_params! {
    /// Cell where a stone makes five (the side has a four there).
    w_five = 2000, 200..=20000, step 100.0;
    /// Cell where a stone makes an open four (the side has an open three).
    w_open_four = 1397, 50..=5000, step 40.0;
    /// Cell where a stone makes two fours on one line.
    w_double_four_line = 700, 50..=5000, step 40.0;
    /// Cell where a stone makes a simple four (the side has a closed three or split shape).
    w_four = 555, 10..=2000, step 10.0;
    /// Cell where a stone makes an open three (open or split).
    w_open_three = 310, 5..=1000, step 8.0;
    /// Cell where a stone makes a closed three.
    w_three = 73, 0..=500, step 3.0;
    /// Cell where a stone makes an open two.
    w_open_two = 16, 0..=300, step 2.0;
    /// Cell where a stone makes a closed two.
    w_two = 6, 0..=100, step 1.0;
    /// Cell where a stone makes an open one (room for an open two).
    w_open_one = 0, 0..=50, step 1.0;
    /// Cell where a stone makes a closed one.
    w_one = 0, 0..=20, step 0.5;
    /// Extra for a cell where a stone makes a four and an open three at once.
    w_four_three = 1953, 0..=8000, step 50.0;
    /// Extra for a cell where a stone makes two open threes (never for renju black).
    w_double_three = 115, 0..=5000, step 30.0;
    /// Extra for a cell where a stone makes two fours in different lines (never for renju black).
    w_double_four = 1200, 0..=8000, step 60.0;
    /// Extra for a cell where a stone makes an open three and an open two.
    w_three_two = 60, 0..=1000, step 5.0;
    /// How much the opponent's potential counts against one's own, in percent.
    defence = 77, 20..=200, step 5.0;
    /// Renju black's potential is scaled by this percentage (forbidden-move risk).
    black_penalty = 91, 50..=120, step 3.0;
    /// Diagonal lines' potential, in percent of straight lines'.
    diagonal = 104, 50..=120, step 3.0;
    /// Bonus for the side to move.
    tempo = 31, 0..=300, step 5.0;
    /// Candidate moves lie within this square radius of a stone (1-3).
    radius = 2, 1..=3, step 0.5;
    /// Most moves searched at an interior node (after threat gating) when `lmp_scale` is 0.
    cand_cap = 11, 4..=80, step 2.0;
    /// Depth-dependent move-count pruning instead of the fixed `cand_cap`: at depth d a node
    /// searches at most (3 + d^1.32 x lmp_scale / 100) / 2 moves once one does not lose, twice
    /// that when its static evaluation improved on the one two plies up. 0: the fixed cap.
    lmp_scale = 100, 0..=300, step 10.0;
    /// Late-move reduction: base, in hundredths of a ply.
    lmr_base = 149, 0..=300, step 10.0;
    /// Late-move reduction: divisor, in hundredths (larger reduces less).
    lmr_div = 239, 100..=600, step 15.0;
    /// Reverse futility pruning margin per ply of depth (non-PV nodes up to depth 8 without
    /// opponent threats return the static evaluation when it beats beta by this x depth).
    /// 0 disables it.
    rfp_margin = 60, 0..=1000, step 8.0;
    /// Moves searched at full depth before reductions start.
    lmr_moves = 3, 1..=12, step 0.5;
    /// Singular extension from this depth (0: none): the transposition table's move is
    /// searched one ply deeper when every other move fails low, at half depth, against its
    /// table score less `se_margin` x depth; when they fail high too the node is cut.
    se_depth = 8, 0..=20, step 1.0;
    /// Singular extension margin per ply of depth.
    se_margin = 2, 0..=50, step 1.0;
    /// Fail-high reduction: at an expected cut node whose static evaluation beats beta by
    /// this x depth, every move but a four is searched one ply shallower. 0: none.
    fh_margin = 0, 0..=200, step 4.0;
    /// Extension, in plies, for a move that blocks an opponent's four or makes a four (0 or 1).
    ext_four = 1, 0..=1, step 0.5;
    /// Plies of fours searched past the horizon (VCF quiescence).
    qs_depth = 10, 0..=30, step 1.0;
    /// Node budget of the VCF solver at the root.
    vcf_nodes = 20000, 0..=2000000, step 2000.0;
    /// Node budget of the VCT solver at the root (0 disables it).
    vct_nodes = 10000, 0..=2000000, step 1000.0;
    /// Deepest VCT sequence tried, in attacker moves.
    vct_depth = 6, 1..=20, step 1.0;
    /// Aspiration window half-width around the previous iteration's score.
    aspiration = 60, 5..=1000, step 10.0;
}

impl Params {
    /// The declaration of one parameter: a scalar of [`Params::SPECS`] or an entry of the
    /// combination table ([`Params::table_specs`]).
    pub fn spec(name: &str) -> Option<&'static ParamSpec> {
        Self::SPECS
            .iter()
            .find(|s| s.name == name)
            .or_else(|| Self::table_specs().iter().find(|s| s.name == name))
            .or_else(|| {
                let (colour, m) = parse_mask_name(name)?;
                Some(&Self::mask_specs()[colour.index() * crate::cell_class::mask::NMASK + m])
            })
            .or_else(|| {
                let (colour, k) = parse_code_name(name)?;
                Some(&Self::code_specs()[colour.index() * crate::cell_class::code::NCODE + k])
            })
    }

    /// The declared name (scalar or table entry) closest to a name that is not one, for a
    /// "did you mean" hint: the nearest by Damerau-Levenshtein distance (ignoring case), if that is at most a
    /// third of the name's length (at least 1, at most 3), so a typo finds its parameter
    /// and an unrelated word finds nothing. Ties go to the earlier declaration.
    pub fn closest_name(name: &str) -> Option<&'static str> {
        if Self::spec(name).is_some() {
            return None;
        }
        let limit = (name.chars().count() / 3).clamp(1, 3);
        // Names are lower case; `W_FOUR` means `w_four`.
        let lower = name.to_lowercase();
        Self::SPECS
            .iter()
            .chain(Self::table_specs())
            .chain(Self::mask_specs())
            .chain(Self::code_specs())
            .map(|s| (strsim::damerau_levenshtein(&lower, s.name), s.name))
            .filter(|&(d, _)| d <= limit)
            .min_by_key(|&(d, _)| d)
            .map(|(_, n)| n)
    }

    /// The value of a parameter by name (a table entry: its override or generated value).
    pub fn get(&self, name: &str) -> Option<i32> {
        self.get_declared(name)
            .or_else(|| {
                let (colour, class) = parse_name(name)?;
                Some(self.table_entry(colour.index(), class))
            })
            .or_else(|| {
                let (colour, m) = parse_mask_name(name)?;
                Some(self.threat.value(colour.index(), m))
            })
            .or_else(|| {
                let (colour, k) = parse_code_name(name)?;
                Some(self.code.value(colour.index(), k))
            })
    }

    /// Sets a parameter by name, checking its range (a table entry becomes an override).
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), ParamError> {
        let spec = Self::spec(name).ok_or_else(|| ParamError::Unknown(name.to_string()))?;
        if value < spec.min as i64 || value > spec.max as i64 {
            return Err(ParamError::OutOfRange {
                name: name.to_string(),
                value,
                min: spec.min,
                max: spec.max,
            });
        }
        match self.slot(name) {
            Some(slot) => *slot = value as i32,
            None => match parse_name(name) {
                Some((colour, class)) => self.combo.set(colour.index(), class, value as i32),
                None => match parse_mask_name(name) {
                    Some((colour, m)) => self.threat.set(colour.index(), m, value as i32),
                    None => {
                        let (colour, k) = parse_code_name(name).expect("a code entry");
                        self.code.set(colour.index(), k, value as i32);
                    }
                },
            },
        }
        Ok(())
    }

    /// Applies a `name=value` setting (as given to `--set`).
    pub fn apply_setting(&mut self, setting: &str) -> Result<(), ParamError> {
        let (name, value) = setting
            .split_once('=')
            .ok_or_else(|| ParamError::BadSetting(setting.to_string()))?;
        let (name, value) = (name.trim(), value.trim());
        let v: i64 = match value.parse::<i64>() {
            Ok(v) => v,
            // Accept 12.0 but not 12.5: parameters are integers.
            Err(_) => match value.parse::<f64>() {
                Ok(f) if f.fract() == 0.0 && f.abs() < 1e15 => f as i64,
                _ => {
                    if Self::spec(name).is_none() {
                        return Err(ParamError::Unknown(name.to_string()));
                    }
                    return Err(ParamError::NotInteger {
                        name: name.to_string(),
                        value: value.to_string(),
                    });
                }
            },
        };
        self.set(name, v)
    }

    /// Parses a parameter file: `name = value` lines; missing names keep their defaults.
    pub fn from_toml(text: &str) -> Result<Params, ParamError> {
        let table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| ParamError::Toml(e.to_string()))?;
        let mut p = Params::default();
        for (name, value) in &table {
            let v = match value {
                toml::Value::Integer(i) => *i,
                toml::Value::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => *f as i64,
                other => {
                    if Self::spec(name).is_none() {
                        return Err(ParamError::Unknown(name.clone()));
                    }
                    return Err(ParamError::NotInteger {
                        name: name.clone(),
                        value: other.to_string(),
                    });
                }
            };
            p.set(name, v)?;
        }
        Ok(p)
    }

    /// Reads a parameter file.
    pub fn load(path: &Path) -> Result<Params, ParamError> {
        let text = std::fs::read_to_string(path).map_err(|e| ParamError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Self::from_toml(&text).map_err(|e| match e {
            ParamError::Toml(m) => ParamError::Toml(format!("{}: {m}", path.display())),
            e => e,
        })
    }

    /// Writes every parameter as `name = value` with its meaning and range as a comment.
    pub fn to_toml(&self) -> String {
        let mut s = String::new();
        for spec in Self::SPECS {
            let _ = writeln!(
                s,
                "# {} (default {}, {}..={})",
                spec.help.trim(),
                spec.default,
                spec.min,
                spec.max
            );
            let _ = writeln!(
                s,
                "{} = {}\n",
                spec.name,
                self.get(spec.name).expect("declared")
            );
        }
        let overrides = self.table_diff(&Params::default());
        if !overrides.is_empty() {
            s.push_str(
                "# Combination table entries (see `wuzi params --table`); the entries not \
                 listed follow the shipped table (suites/params/table.toml), then the hand \
                 weights; the threat-mask and pattern-code entries not listed follow \
                 suites/params/threat.toml and code.toml, then 0.\n",
            );
            for (name, v) in overrides {
                let _ = writeln!(s, "{name} = {v}");
            }
        }
        s
    }

    /// Writes the parameter file.
    pub fn save(&self, path: &Path) -> Result<(), ParamError> {
        std::fs::write(path, self.to_toml()).map_err(|e| ParamError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })
    }

    /// Loads `file` (if given) and then applies `settings` in order.
    pub fn from_file_and_settings(
        file: Option<&Path>,
        settings: &[String],
    ) -> Result<Params, ParamError> {
        let mut p = match file {
            Some(f) => Params::load(f)?,
            None => Params::default(),
        };
        for s in settings {
            p.apply_setting(s)?;
        }
        Ok(p)
    }

    /// Only the parameters that differ from the defaults, as `name=value` pairs, then every
    /// table override the defaults do not have (an override equal to its generated value
    /// still matters: it stays when the hand weights move).
    pub fn diff_from_default(&self) -> Vec<(String, i32)> {
        let d = Params::default();
        Self::SPECS
            .iter()
            .filter(|s| self.get(s.name) != d.get(s.name))
            .map(|s| (s.name.to_string(), self.get(s.name).expect("declared")))
            .chain(self.table_diff(&d))
            .collect()
    }

    /// The combination table overrides that differ from the defaults' (shipped) table.
    pub fn table_diff_from_default(&self) -> Vec<(String, i32)> {
        self.table_diff(&Params::default())
    }

    /// The table overrides `self` has and `d` has not (or with another value), then the
    /// threat-mask and pattern-code entries whose value differs.
    fn table_diff(&self, d: &Params) -> Vec<(String, i32)> {
        let combo = self.combo.overrides().into_iter().filter(|&(n, v)| {
            let (colour, class) = parse_name(n).expect("a table name");
            d.combo.get(colour.index(), class) != Some(v)
        });
        let names = crate::cell_class::mask::mask_names();
        let n = crate::cell_class::mask::NMASK;
        let threat = (0..2 * n)
            .filter(|&i| self.threat.value(i / n, i % n) != d.threat.value(i / n, i % n))
            .map(|i| (names[i], self.threat.value(i / n, i % n)));
        let names = crate::cell_class::code::code_names();
        let n = crate::cell_class::code::NCODE;
        let code = (0..2 * n)
            .filter(|&i| self.code.value(i / n, i % n) != d.code.value(i / n, i % n))
            .map(|i| (names[i], self.code.value(i / n, i % n)));
        combo
            .chain(threat)
            .chain(code)
            .map(|(n, v)| (n.to_string(), v))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_consistent() {
        let d = Params::default();
        let mut names = std::collections::HashSet::new();
        for s in Params::SPECS {
            assert!(names.insert(s.name), "duplicate {}", s.name);
            assert!(
                s.min <= s.default && s.default <= s.max,
                "{} default out of range",
                s.name
            );
            assert!(s.step > 0.0, "{}", s.name);
            assert!(!s.help.is_empty(), "{}", s.name);
            assert_eq!(d.get(s.name), Some(s.default));
        }
    }

    #[test]
    fn shipped_default_file_matches_the_declaration() {
        // Guards drift between the code's defaults and suites/params/default.toml.
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/params/default.toml");
        let text = std::fs::read_to_string(&path).expect("default.toml exists");
        let p = Params::from_toml(&text).unwrap();
        assert_eq!(p, Params::default());
        let table: toml::Table = text.parse().unwrap();
        for s in Params::SPECS {
            assert!(table.contains_key(s.name), "default.toml lacks {}", s.name);
        }
        assert_eq!(table.len(), Params::SPECS.len());
    }

    #[test]
    fn toml_round_trip() {
        let mut p = Params::default();
        p.set("defence", 120).unwrap();
        p.set("radius", 3).unwrap();
        assert_eq!(Params::from_toml(&p.to_toml()).unwrap(), p);
        assert_eq!(
            p.diff_from_default(),
            vec![("defence".to_string(), 120), ("radius".to_string(), 3)]
        );
    }

    #[test]
    fn unknown_names_suggest_the_closest_parameter() {
        // The user's typo, a transposition, a table entry, and words too far from any name.
        for (typo, meant) in [
            ("defense", Some("defence")),
            ("tmepo", Some("tempo")),
            ("W_FOUR", Some("w_four")),
            ("cmb_black_f0t0w2x", Some("cmb_black_f0t0w2")),
            ("nope", None),
            ("strength", None),
        ] {
            assert_eq!(Params::closest_name(typo), meant, "{typo}");
        }
        assert_eq!(Params::closest_name("defence"), None, "a known name");
        let e = Params::from_toml("defense = 3").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown parameter 'defense'; did you mean 'defence'? (see `wuzi params` for the list)"
        );
        let e = Params::default().apply_setting("nope=3").unwrap_err();
        assert!(!e.to_string().contains("did you mean"), "{e}");
    }

    #[test]
    fn without_path_drops_only_the_files_own_name() {
        let path = Path::new("no/such/params.toml");
        let e = Params::load(path).unwrap_err();
        assert!(e.to_string().starts_with("no/such/params.toml: "), "{e}");
        let rest = e.without_path(path);
        assert!(!rest.contains("params.toml") && !rest.is_empty(), "{rest}");
        let e = ParamError::Unknown("x".into());
        assert_eq!(e.without_path(path), e.to_string());
    }

    #[test]
    fn errors_name_key_and_range() {
        let e = Params::from_toml("defense = 3").unwrap_err();
        assert_eq!(e, ParamError::Unknown("defense".into()));
        let e = Params::from_toml("radius = 7").unwrap_err();
        assert_eq!(
            e.to_string(),
            "parameter 'radius' = 7 is out of range 1..=3"
        );
        let e = Params::from_toml("radius = \"two\"").unwrap_err();
        assert!(e.to_string().contains("radius"), "{e}");
        assert!(matches!(
            Params::from_toml("radius = "),
            Err(ParamError::Toml(_))
        ));
        let mut p = Params::default();
        assert_eq!(
            p.apply_setting("radius"),
            Err(ParamError::BadSetting("radius".into()))
        );
        assert!(p.apply_setting("radius=2.5").is_err());
        p.apply_setting("radius = 1").unwrap();
        assert_eq!(p.radius, 1);
    }
}
