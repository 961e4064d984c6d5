//! What the chart tests share: a scratch directory, its cleanup, the check that both files were
//! written and hold the text, and a set of parameter paths.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::common;
use crate::common::output_paths;
use crate::param_paths::ParamPath;

/// A fresh directory under the system temp dir.
pub(crate) fn temp_dir(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "wuzi-chart-{}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed),
        name
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Removes a test's directory once it passed, unless `WUZI_KEEP_CHARTS` is set (to look at
/// the pictures).
pub(crate) fn cleanup(dir: &Path) {
    if std::env::var_os("WUZI_KEEP_CHARTS").is_none() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// Checks both files exist, the PNG decodes with `size` and the SVG holds `texts`.
pub(crate) fn check(stem: &Path, size: Option<(u32, u32)>, texts: &[&str]) {
    let (png, svg) = output_paths(stem);
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.len() > 1000, "PNG too small: {}", bytes.len());
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let img =
        image::load_from_memory_with_format(&bytes, image::ImageFormat::Png).expect("PNG decodes");
    let (w, h) = (img.width(), img.height());
    match size {
        Some(s) => assert_eq!((w, h), s),
        None => assert!(w == common::WIDTH && h >= common::HEIGHT, "{w}x{h}"),
    }
    // Text was rasterised: the image is not just white, lines and a few colours.
    let rgb = img.to_rgb8();
    let grey_levels: std::collections::HashSet<u8> = rgb
        .pixels()
        .filter(|p| p[0] == p[1] && p[1] == p[2])
        .map(|p| p[0])
        .collect();
    assert!(grey_levels.len() > 20, "no anti-aliased text in {png:?}");

    let svg_text = std::fs::read_to_string(&svg).unwrap();
    assert!(svg_text.starts_with("<svg"), "{svg:?}");
    assert!(
        svg_text.contains(&format!("width=\"{w}\"")),
        "{svg:?} width"
    );
    for t in texts {
        assert!(svg_text.contains(t), "{svg:?} lacks {t:?}");
    }
}

pub(crate) fn paths() -> Vec<ParamPath> {
    let names = [
        ("futility_margin", 0.0, 400.0, 150.0),
        ("null_move_reduction", 1.0, 4.0, 2.0),
        ("open_three", 100.0, 2000.0, 600.0),
        ("four_bonus", 0.0, 5000.0, 4500.0),
        ("lmr_base", 0.0, 2.0, 0.4),
    ];
    names
        .iter()
        .enumerate()
        .map(|(k, &(name, min, max, start))| ParamPath {
            name: name.into(),
            min,
            max,
            points: (0..=200u64)
                .step_by(5)
                .map(|i| {
                    let t = i as f64;
                    let drift = (t / 60.0 + k as f64).sin() * 0.15 * (max - min);
                    (i, (start + drift * t / 200.0).clamp(min, max))
                })
                .collect(),
        })
        .collect()
}
