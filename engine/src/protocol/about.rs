//! The brain's answer to `ABOUT`.

/// The brain's `ABOUT` line; the version names the commit it was built from
/// (`version="0.1.0 (abc1234)"`, see [`crate::build_info`]).
pub fn about() -> String {
    format!(
        "name=\"wuzi\", version=\"{}\", author=\"wuzi developers\", country=\"China\"",
        crate::build_info::VERSION_WITH_COMMIT
    )
}
