//! The engine's `pbrain-wuzi`, for the integration tests that run it as an external brain:
//! included with `#[path = "support/pbrain.rs"] mod pbrain;` (Cargo builds every file directly
//! in `tests/` as a test of its own).
//!
//! Cargo only hands a test the binaries of its own package (`CARGO_BIN_EXE_*`), and artifact
//! dependencies are unstable, so the tests build the engine's brain themselves: once per
//! test process, `cargo build -p wuzi-engine --bin pbrain-wuzi` with the profile and target
//! directory of the test executable (`target/<profile>/deps/<test>-*`), then use
//! `target/<profile>/pbrain-wuzi`. The build is a no-op when the binary is up to date, so the
//! brain always matches the engine's sources. `WUZI_PBRAIN=/path/to/brain` skips the build.

use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

/// The `pbrain-wuzi` binary, built for this test's profile if needed (see the module doc).
pub fn pbrain() -> &'static str {
    static PATH: OnceLock<String> = OnceLock::new();
    PATH.get_or_init(|| {
        if let Some(p) = std::env::var_os("WUZI_PBRAIN") {
            return p.to_string_lossy().into_owned();
        }
        let exe = std::env::current_exe().expect("test executable");
        let profile_dir = exe
            .parent()
            .and_then(Path::parent)
            .expect("target/<profile>/deps/<test>");
        let target_dir = profile_dir.parent().expect("target directory");
        let profile = profile_dir
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let profile = match profile.as_str() {
            "debug" => "dev".to_string(),
            other => other.to_string(),
        };
        let brain = profile_dir.join(format!("pbrain-wuzi{}", std::env::consts::EXE_SUFFIX));
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let out = Command::new(cargo)
            .args([
                "build",
                "-p",
                "wuzi-engine",
                "--bin",
                "pbrain-wuzi",
                "--profile",
            ])
            .arg(&profile)
            .arg("--target-dir")
            .arg(target_dir)
            .output();
        match out {
            Ok(o) if o.status.success() => {}
            Ok(o) if brain.is_file() => eprintln!(
                "cargo build of pbrain-wuzi failed, using the existing binary: {}",
                String::from_utf8_lossy(&o.stderr)
            ),
            Ok(o) => panic!(
                "cannot build pbrain-wuzi: {}",
                String::from_utf8_lossy(&o.stderr)
            ),
            Err(e) if brain.is_file() => eprintln!("cannot run cargo ({e}), using {brain:?}"),
            Err(e) => panic!("cannot run cargo to build pbrain-wuzi: {e}"),
        }
        assert!(brain.is_file(), "{brain:?} missing after the build");
        brain.to_string_lossy().into_owned()
    })
}
