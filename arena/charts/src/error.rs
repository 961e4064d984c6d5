//! Why a chart could not be written.

use std::path::PathBuf;

use plotters::drawing::DrawingAreaErrorKind;

/// Why a chart could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ChartError {
    /// The output directory could not be created.
    // Not `source`: thiserror would make it the error's source, printed twice by `{:#}`.
    #[error("cannot create chart directory {path}: {error}")]
    Io {
        /// The directory.
        path: PathBuf,
        /// The underlying error.
        error: std::io::Error,
    },
    /// The embedded font could not be loaded (a corrupt build, not a data problem).
    #[error("the embedded chart font could not be loaded")]
    Font,
    /// Drawing or writing a file failed (for example a read-only output directory).
    #[error("drawing the chart failed: {0}")]
    Draw(String),
    /// The input cannot be charted as given (see the module documentation).
    #[error("invalid chart data: {0}")]
    InvalidData(String),
}

impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for ChartError {
    fn from(e: DrawingAreaErrorKind<E>) -> Self {
        ChartError::Draw(e.to_string())
    }
}
