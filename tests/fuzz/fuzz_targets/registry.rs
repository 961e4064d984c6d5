//! The brain registry reader (`engines.toml`): parsed, then every brain looked up by name
//! and asked for each extension.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;
use wuzi_arena::registry::Registry;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(registry) = Registry::parse(text, Path::new("engines.toml")) else {
        return;
    };
    let names: Vec<String> = registry.brains().map(|b| b.name.clone()).collect();
    for name in &names {
        let brain = registry.get(name).expect("a listed brain is found");
        let _ = brain.supports("max_node");
    }
    let _ = registry.unknown("surely-not-a-brain").to_string();
});
