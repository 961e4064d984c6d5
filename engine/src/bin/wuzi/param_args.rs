//! The parameter set of a command: a TOML file plus overrides.

use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use wuzi_engine::params::Params;

/// A parameter set: a TOML file plus overrides.
#[derive(Args, Clone, Default)]
pub struct ParamArgs {
    /// Parameter file (TOML, `name = value`).
    #[arg(long = "params")]
    file: Option<PathBuf>,
    /// Override one parameter (`name=value`); repeatable.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
}

impl ParamArgs {
    /// The file's parameters with the overrides applied.
    pub fn load(&self) -> Result<Params> {
        Ok(Params::from_file_and_settings(
            self.file.as_deref(),
            &self.set,
        )?)
    }
}
