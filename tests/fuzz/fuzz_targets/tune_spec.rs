//! The tune spec reader (`wuzi-tune tune --spec FILE`): parsed, then checked and resolved
//! against a folder holding a real base set and opening file. Specs that ask for random
//! openings are only parsed: building those plays searches for seconds, by design.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use std::sync::OnceLock;
use wuzi_tuner::TuneSpec;

fuzz_target!(|data: &[u8]| {
    static DIR: OnceLock<std::path::PathBuf> = OnceLock::new();
    let dir = DIR.get_or_init(|| {
        let dir = wuzi_fuzz::folder("tune-spec");
        wuzi_fuzz::put(
            &dir,
            "detuned.toml",
            include_bytes!("../../../suites/params/detuned.toml"),
        );
        wuzi_fuzz::put(&dir, "openings.txt", b"h8 i9 j10\n0,0, 1,1\nh8h9\n");
        dir
    });
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(spec) = TuneSpec::parse(text, Path::new("spec.toml")) else {
        return;
    };
    let random = |s: &str| s.trim().to_ascii_lowercase().starts_with("random");
    if random(&spec.openings) || spec.verify.openings.as_deref().is_some_and(random) {
        return;
    }
    if let Ok(config) = spec.resolve(dir) {
        config.validate().expect("a resolved tune is valid");
    }
});
