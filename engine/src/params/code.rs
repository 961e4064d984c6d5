//! The parameters' side of the pattern-code table: each entry's declaration as a parameter
//! and the shipped table file. (The table itself, its codes and names, is
//! [`crate::cell_class::code`].)

use super::{ParamError, ParamSpec, Params};
use crate::cell_class::code::{code_names, parse_code_name, CodeTable, CODE_MAX, CODE_MIN, NCODE};
use std::sync::LazyLock;

/// The shipped table (`suites/params/code.toml`, built in): the entries the defaults give.
const SHIPPED: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../suites/params/code.toml"
));

/// Parses a file of pattern-code entries only (`pcd_... = value`).
pub fn parse_code_table(text: &str) -> Result<CodeTable, ParamError> {
    let mut t = CodeTable::default();
    super::table::parse_entries(text, parse_code_name, CODE_MIN, CODE_MAX, |c, k, v| {
        t.set(c, k, v)
    })?;
    Ok(t)
}

impl CodeTable {
    /// The shipped table (`suites/params/code.toml`), the one [`Params::default`] has.
    pub fn shipped() -> CodeTable {
        static TABLE: LazyLock<CodeTable> = LazyLock::new(|| {
            parse_code_table(SHIPPED).expect("suites/params/code.toml is valid (tested)")
        });
        TABLE.clone()
    }
}

impl Params {
    /// The pattern-code table's entries, declared like parameters (default: the shipped
    /// table's entry, or 0).
    pub fn code_specs() -> &'static [ParamSpec] {
        static SPECS: LazyLock<Vec<ParamSpec>> = LazyLock::new(|| {
            let d = Params::default();
            code_names()
                .iter()
                .enumerate()
                .map(|(i, name)| ParamSpec {
                    name,
                    default: d.code.value(i / NCODE, i % NCODE),
                    min: CODE_MIN,
                    max: CODE_MAX,
                    step: 20.0,
                    help: "Pattern-code entry: what the evaluation adds for an empty cell whose four line \
                           patterns are exactly these (renju only).",
                })
                .collect()
        });
        &SPECS
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn shipped_code_file_is_the_defaults_table() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/params/code.toml");
        let text = std::fs::read_to_string(&path).expect("code.toml exists");
        let d = Params::default();
        assert_eq!(d.code, parse_code_table(&text).expect("valid"));
        for (i, name) in code_names().iter().enumerate() {
            assert_eq!(
                Params::spec(name).unwrap().default,
                d.code.value(i / NCODE, i % NCODE)
            );
        }
        assert_eq!(
            parse_code_table("thr_white_m00000_o00000 = 3"),
            Err(ParamError::Unknown("thr_white_m00000_o00000".into()))
        );
        assert!(matches!(
            parse_code_table("pcd_white_d_d_d_d = 99999"),
            Err(ParamError::OutOfRange { .. })
        ));
    }

    #[test]
    fn code_entries_are_parameters_by_name() {
        let name = "pcd_black_f3_f2_b1_d";
        let mut p = Params::default();
        let before = p.get(name).unwrap();
        p.set(name, i64::from(before) + 123).unwrap();
        assert_eq!(p.get(name), Some(before + 123));
        // Another order of the same patterns is the same entry.
        assert_eq!(p.get("pcd_black_d_b1_f2_f3"), Some(before + 123));
        assert!(matches!(
            p.set(name, 5001),
            Err(ParamError::OutOfRange { .. })
        ));
        // Survives TOML and the arena's name=value diff.
        assert_eq!(Params::from_toml(&p.to_toml()).unwrap(), p);
        assert!(p
            .diff_from_default()
            .contains(&(name.to_string(), before + 123)));
        let mut rebuilt = Params::default();
        for (n, v) in p.diff_from_default() {
            rebuilt.set(&n, i64::from(v)).unwrap();
        }
        assert_eq!(rebuilt, p);
        assert_eq!(
            Params::from_toml("pcd_black_f3_f2_b1 = 1"),
            Err(ParamError::Unknown("pcd_black_f3_f2_b1".into()))
        );
    }
}
