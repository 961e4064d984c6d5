//! Headless Chromium for report pages: the page's own self-check (`#selftest`, which steps the
//! viewer through a game and writes its verdict into the page) read back with `--dump-dom`,
//! console errors from Chromium's log, and a screenshot.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The Chromium program: `$WUZI_CHROMIUM`, else the first of `chromium`, `chromium-browser`,
/// `google-chrome` found in `PATH`. `None` when there is none (the browser journeys then say
/// so and skip).
pub fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("WUZI_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Flags for a headless run in a container (as root, without a GPU).
fn base(chrome: &Path) -> Command {
    let mut c = Command::new(chrome);
    c.args([
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--hide-scrollbars",
    ]);
    c
}

/// What loading a page with `#selftest` gave.
#[derive(Clone, Debug)]
pub struct SelfTest {
    /// The page's verdict: `SELFTEST PASS` or `SELFTEST FAIL` and the failures, then facts.
    pub verdict: Option<String>,
    /// Console messages at error level and uncaught exceptions from Chromium's log.
    pub console_errors: Vec<String>,
}

/// Loads `page#selftest` headless and returns the page's verdict and the console errors.
pub fn self_test(chrome: &Path, page: &Path) -> SelfTest {
    let url = format!("file://{}#selftest", page.display());
    let out = base(chrome)
        .args([
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=10000",
            "--dump-dom",
            &url,
        ])
        .output()
        .expect("run chromium");
    let dom = String::from_utf8_lossy(&out.stdout);
    // The last one: the page's script text comes before the element the script adds.
    let verdict = dom.rfind("<pre id=\"selftest\">").map(|i| {
        let rest = &dom[i + "<pre id=\"selftest\">".len()..];
        rest[..rest.find("</pre>").unwrap_or(rest.len())].to_string()
    });
    let log = String::from_utf8_lossy(&out.stderr);
    let console_errors = log
        .lines()
        .filter(|l| {
            (l.contains("CONSOLE") && (l.contains(":ERROR:") || l.contains("Uncaught")))
                || l.contains("Uncaught")
        })
        .map(str::to_string)
        .collect();
    SelfTest {
        verdict,
        console_errors,
    }
}

/// Takes a `width` x `height` screenshot of `page` with `fragment` (`game=3&ply=20&focus`)
/// into `png`; true when the file was written.
pub fn screenshot(
    chrome: &Path,
    page: &Path,
    fragment: &str,
    png: &Path,
    (width, height): (u32, u32),
) -> bool {
    let url = format!("file://{}#{fragment}", page.display());
    let _ = base(chrome)
        .arg(format!("--window-size={width},{height}"))
        .arg("--virtual-time-budget=5000")
        .arg(format!("--screenshot={}", png.display()))
        .arg(&url)
        .output();
    png.exists()
}
