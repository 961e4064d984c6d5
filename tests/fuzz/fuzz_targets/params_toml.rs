//! The parameter readers: a parameter file (`--params FILE`, table entries included) and a
//! `--set name=value` setting. A set that reads must write back to itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use wuzi_engine::Params;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(p) = Params::from_toml(text) {
        let back = Params::from_toml(&p.to_toml()).expect("a written set reads back");
        assert_eq!(back, p, "a set changed on its way through to_toml");
    }
    let mut p = Params::default();
    for line in text.lines() {
        let _ = p.apply_setting(line);
    }
});
