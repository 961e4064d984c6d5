//! The parameters' side of the combination table: the entries the hand weights generate,
//! each entry's declaration as a parameter, the shipped table file, and the table written
//! out. (The table itself, its classes and names, is [`crate::cell_class::table`].)

use super::{ParamError, ParamSpec, Params};
use crate::cell_class::combo::Combo;
use crate::cell_class::table::{
    class_combo, parse_name, ComboTable, ENTRY_MAX, ENTRY_MIN, NCLASS, TABLE_NAMES,
};
use std::sync::LazyLock;

/// The hand weight of combination `k` in `p` (before renju black's adjustments).
pub fn hand_bonus(p: &Params, k: Combo) -> i32 {
    match k {
        Combo::FourThree => p.w_four_three,
        Combo::DoubleThree => p.w_double_three,
        Combo::DoubleFour => p.w_double_four,
        Combo::ThreeTwo => p.w_three_two,
    }
}

/// The generated (hand-weight) value of a class.
pub fn generated(p: &Params, class: usize) -> i32 {
    class_combo(class).map_or(0, |k| hand_bonus(p, k))
}

/// The shipped table (`suites/params/table.toml`, built in): the entries it lists override the
/// hand weights in [`crate::params::Params::default`].
const SHIPPED: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../suites/params/table.toml"
));

/// Parses a file of table entries only (`cmb_... = value`).
pub fn parse_table(text: &str) -> Result<ComboTable, ParamError> {
    let mut t = ComboTable::default();
    parse_entries(text, parse_name, ENTRY_MIN, ENTRY_MAX, |c, k, v| {
        t.set(c, k, v)
    })?;
    Ok(t)
}

/// Reads a file of table entries (`name = value` lines): each name through `lookup` to a
/// colour and index, each value checked against `min..=max`, then given to `set`.
pub(super) fn parse_entries(
    text: &str,
    lookup: impl Fn(&str) -> Option<(crate::stone::Stone, usize)>,
    min: i32,
    max: i32,
    mut set: impl FnMut(usize, usize, i32),
) -> Result<(), ParamError> {
    let doc: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| ParamError::Toml(e.to_string()))?;
    for (name, value) in &doc {
        let (colour, i) = lookup(name).ok_or_else(|| ParamError::Unknown(name.clone()))?;
        let v = value.as_integer().ok_or_else(|| ParamError::NotInteger {
            name: name.clone(),
            value: value.to_string(),
        })?;
        if !(i64::from(min)..=i64::from(max)).contains(&v) {
            return Err(ParamError::OutOfRange {
                name: name.clone(),
                value: v,
                min,
                max,
            });
        }
        set(colour.index(), i, v as i32);
    }
    Ok(())
}

/// The shipped table is a parameter file, read where parameter files are read.
impl ComboTable {
    /// The shipped table (`suites/params/table.toml`), the one [`crate::params::Params::default`] has.
    pub fn shipped() -> ComboTable {
        static TABLE: LazyLock<ComboTable> = LazyLock::new(|| {
            parse_table(SHIPPED).expect("suites/params/table.toml is valid (tested)")
        });
        TABLE.clone()
    }
}

impl Params {
    /// The combination table's entries, declared like parameters (their default is the
    /// shipped table's entry, or what the default hand weights generate).
    pub fn table_specs() -> &'static [ParamSpec] {
        static SPECS: LazyLock<Vec<ParamSpec>> = LazyLock::new(|| {
            let d = Params::default();
            TABLE_NAMES
                .iter()
                .enumerate()
                .map(|(i, name)| ParamSpec {
                    name,
                    default: d.table_entry(i / NCLASS, i % NCLASS),
                    min: ENTRY_MIN,
                    max: ENTRY_MAX,
                    step: 30.0,
                    help: "Combination table entry (see `wuzi params --table`): what a cell of \
                           this class earns on top of its line values.",
                })
                .collect()
        });
        &SPECS
    }

    /// The table entry of colour index `c` and `class`: its override, or what the hand
    /// weights generate.
    pub fn table_entry(&self, c: usize, class: usize) -> i32 {
        self.combo
            .get(c, class)
            .unwrap_or_else(|| generated(self, class))
    }

    /// The whole table, every entry written out (the generator's output when nothing is
    /// overridden), as a parameter file fragment.
    pub fn table_toml(&self) -> String {
        let mut s = String::from(
            "# Combination table: what a cell earns on top of its line values, per colour and\n\
             # class f<fours>t<open threes>w<open twos> (f2: open four or two fours; t3, w3:\n\
             # three or more). Entries not given follow the hand weights w_four_three,\n\
             # w_double_three, w_double_four and w_three_two. Renju black's classes of two\n\
             # open threes or f2 earn nothing; its others are scaled by black_penalty.\n",
        );
        for (i, name) in TABLE_NAMES.iter().enumerate() {
            let _ = std::fmt::Write::write_fmt(
                &mut s,
                format_args!("{name} = {}\n", self.table_entry(i / NCLASS, i % NCLASS)),
            );
        }
        let threat = self.threat.overrides();
        if !threat.is_empty() {
            s.push_str(
                "# Threat-mask entries (thr_<colour to move>_m<own>_o<opponent's>, bits: open \n\
                 # three, double three, four, four-three, open four held); those not listed are 0.\n",
            );
            for (name, v) in threat {
                let _ = std::fmt::Write::write_fmt(&mut s, format_args!("{name} = {v}\n"));
            }
        }
        let code = self.code.overrides();
        if !code.is_empty() {
            s.push_str(
                "# Pattern-code entries (pcd_<colour>_<its four line patterns>, renju only); those\n\
                 # not listed are 0.\n",
            );
            for (name, v) in code {
                let _ = std::fmt::Write::write_fmt(&mut s, format_args!("{name} = {v}\n"));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell_class::mask::MaskTable;
    use crate::eval::EvalWeights;
    use crate::rule::Rule;
    use std::path::Path;

    #[test]
    fn hand_table_file_is_what_the_hand_weights_generate() {
        // suites/params/table-hand.toml lists every entry as the default hand weights generate
        // it; loaded, it evaluates exactly as a set without table overrides, under every rule.
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/params/table-hand.toml");
        let text = std::fs::read_to_string(&path).expect("table-hand.toml exists");
        // (The threat-mask table is another table: left out on both sides.)
        let hand = Params {
            combo: ComboTable::default(),
            threat: MaskTable::default(),
            ..Params::default()
        };
        assert_eq!(text, hand.table_toml());
        let mut p = Params::from_toml(&text).unwrap();
        p.threat = MaskTable::default();
        assert_eq!(p.combo.overrides().len(), Params::table_specs().len());
        for rule in [Rule::Renju, Rule::Freestyle, Rule::Standard] {
            assert_eq!(EvalWeights::new(&p, rule), EvalWeights::new(&hand, rule));
        }
    }

    /// A four-three table entry the shipped table does not override.
    fn free_entry() -> &'static str {
        let d = Params::default();
        TABLE_NAMES
            .iter()
            .copied()
            .find(|n| {
                let (c, k) = parse_name(n).unwrap();
                d.combo.get(c.index(), k).is_none() && class_combo(k) == Some(Combo::FourThree)
            })
            .expect("a four-three class follows the hand weights")
    }

    #[test]
    fn table_entries_follow_the_hand_weights_until_overridden() {
        let free = free_entry();
        let mut p = Params::default();
        assert_eq!(p.get(free), Some(p.w_four_three));
        p.set("w_four_three", 2500).unwrap();
        assert_eq!(p.get(free), Some(2500));
        p.set(free, -40).unwrap();
        p.set("w_four_three", 1000).unwrap();
        assert_eq!(p.get(free), Some(-40));
        assert!(matches!(
            p.set(free, 20000),
            Err(ParamError::OutOfRange { .. })
        ));
        assert_eq!(
            Params::from_toml("cmb_white_f3t0w0 = 1"),
            Err(ParamError::Unknown("cmb_white_f3t0w0".into()))
        );
        // Overrides survive TOML and the arena's name=value diff.
        let back = Params::from_toml(&p.to_toml()).unwrap();
        assert_eq!(back, p);
        let mut rebuilt = Params::default();
        for (n, v) in p.diff_from_default() {
            rebuilt.set(&n, i64::from(v)).unwrap();
        }
        assert_eq!(rebuilt, p);
        assert!(p.diff_from_default().contains(&(free.to_string(), -40)));
        // The defaults differ from the defaults in nothing, shipped table included.
        assert!(Params::default().diff_from_default().is_empty());
        assert!(!Params::default().to_toml().contains("cmb_"));
    }

    #[test]
    fn shipped_table_file_is_the_defaults_table() {
        // suites/params/table.toml is built in: its entries are the defaults' overrides, the
        // others follow the hand weights; it names only table entries, in range.
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/params/table.toml");
        let text = std::fs::read_to_string(&path).expect("table.toml exists");
        let shipped = parse_table(&text).expect("valid");
        let d = Params::default();
        assert_eq!(d.combo, shipped);
        let doc: toml::Table = text.parse().unwrap();
        for (i, name) in TABLE_NAMES.iter().enumerate() {
            let (c, k) = (i / NCLASS, i % NCLASS);
            match doc.get(*name) {
                Some(v) => assert_eq!(i64::from(d.table_entry(c, k)), v.as_integer().unwrap()),
                None => assert_eq!(d.table_entry(c, k), generated(&d, k), "{name}"),
            }
            assert_eq!(Params::spec(name).unwrap().default, d.table_entry(c, k));
        }
        // A table file with anything else is refused.
        assert_eq!(
            parse_table("w_four = 3"),
            Err(ParamError::Unknown("w_four".into()))
        );
        assert!(matches!(
            parse_table("cmb_white_f0t0w0 = 99999"),
            Err(ParamError::OutOfRange { .. })
        ));
    }
}
