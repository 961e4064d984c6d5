//! The parameters' side of the threat-mask table: each entry's declaration as a parameter and
//! the shipped table file. (The table itself, its masks and names, is
//! [`crate::cell_class::mask`].)

use super::{ParamError, ParamSpec, Params};
use crate::cell_class::mask::{mask_names, parse_mask_name, MaskTable, MASK_MAX, MASK_MIN, NMASK};
use std::sync::LazyLock;

/// The shipped table (`suites/params/threat.toml`, built in): the entries the defaults give.
const SHIPPED: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../suites/params/threat.toml"
));

/// Parses a file of threat-mask entries only (`thr_... = value`).
pub fn parse_mask_table(text: &str) -> Result<MaskTable, ParamError> {
    let mut t = MaskTable::default();
    super::table::parse_entries(text, parse_mask_name, MASK_MIN, MASK_MAX, |c, m, v| {
        t.set(c, m, v)
    })?;
    Ok(t)
}

impl MaskTable {
    /// The shipped table (`suites/params/threat.toml`), the one [`Params::default`] has.
    pub fn shipped() -> MaskTable {
        static TABLE: LazyLock<MaskTable> = LazyLock::new(|| {
            parse_mask_table(SHIPPED).expect("suites/params/threat.toml is valid (tested)")
        });
        TABLE.clone()
    }
}

impl Params {
    /// The threat-mask table's entries, declared like parameters (default: the shipped
    /// table's entry, or 0).
    pub fn mask_specs() -> &'static [ParamSpec] {
        static SPECS: LazyLock<Vec<ParamSpec>> = LazyLock::new(|| {
            let d = Params::default();
            mask_names()
                .iter()
                .enumerate()
                .map(|(i, name)| ParamSpec {
                    name,
                    default: d.threat.value(i / NMASK, i % NMASK),
                    min: MASK_MIN,
                    max: MASK_MAX,
                    step: 30.0,
                    help: "Threat-mask entry: what the evaluation adds when the side to move \
                           and the opponent hold exactly these threat classes.",
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
    fn shipped_threat_file_is_the_defaults_table() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../suites/params/threat.toml");
        let text = std::fs::read_to_string(&path).expect("threat.toml exists");
        let d = Params::default();
        assert_eq!(d.threat, parse_mask_table(&text).expect("valid"));
        for (i, name) in mask_names().iter().enumerate() {
            assert_eq!(
                Params::spec(name).unwrap().default,
                d.threat.value(i / NMASK, i % NMASK)
            );
        }
        assert_eq!(
            parse_mask_table("cmb_white_f0t0w0 = 3"),
            Err(ParamError::Unknown("cmb_white_f0t0w0".into()))
        );
        assert!(matches!(
            parse_mask_table("thr_white_m00000_o00000 = 99999"),
            Err(ParamError::OutOfRange { .. })
        ));
    }

    #[test]
    fn mask_entries_are_parameters_by_name() {
        let name = "thr_white_m00100_o10000";
        let mut p = Params::default();
        p.set(name, -321).unwrap();
        assert_eq!(p.get(name), Some(-321));
        assert!(matches!(
            p.set(name, 10001),
            Err(ParamError::OutOfRange { .. })
        ));
        // Survives TOML and the arena's name=value diff.
        assert_eq!(Params::from_toml(&p.to_toml()).unwrap(), p);
        assert!(p.diff_from_default().contains(&(name.to_string(), -321)));
        let mut rebuilt = Params::default();
        for (n, v) in p.diff_from_default() {
            rebuilt.set(&n, i64::from(v)).unwrap();
        }
        assert_eq!(rebuilt, p);
        assert!(Params::default().diff_from_default().is_empty());
        assert_eq!(
            Params::from_toml("thr_white_m00100_o1000 = 1"),
            Err(ParamError::Unknown("thr_white_m00100_o1000".into()))
        );
    }
}
