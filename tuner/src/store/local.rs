//! The local store: one process plays every iteration in order, keeps the state in memory and,
//! with a tune folder, appends the history row, replaces the checkpoint `state.json`
//! atomically (temporary file + rename) and rewrites `tuned.toml` after every step. A tune
//! resumed from the checkpoint cuts the history to the checkpoint's iteration and continues
//! with the same theta, so it ends with the same values and the same history as an
//! uninterrupted run.

use std::path::{Path, PathBuf};

use crate::config::TuneConfig;
use crate::error::{Result, TuneError};
use crate::folder::{
    load_config, write_json, write_start, write_tuned, CONFIG_FILE, HISTORY_FILE, SHARED_FILE,
    STATE_FILE,
};
use crate::history::{self, HistoryWriter, IterationRecord};
use crate::spsa::Perturbation;
use crate::state::{Totals, TuneState};

use super::{Applied, Assignment, Store, Turn};

/// A one-process tune's state, in a tune folder or nowhere.
pub struct LocalStore<'a> {
    config: &'a TuneConfig,
    dir: Option<PathBuf>,
    state: TuneState,
    history: Vec<IterationRecord>,
    writer: Option<HistoryWriter>,
    resumed_from: u64,
    last: u64,
}

impl<'a> LocalStore<'a> {
    /// Opens the tune of `config` in `dir`: a new one, or with `resume` the one checkpointed
    /// there; `dir` `None` keeps nothing. The session stops after iteration `max_iterations`
    /// (counted from the start of the tune). `no_verify` is kept in the checkpoint.
    pub fn open(
        config: &'a TuneConfig,
        dir: Option<&Path>,
        resume: bool,
        max_iterations: Option<u64>,
        no_verify: bool,
    ) -> Result<LocalStore<'a>> {
        let total = config.iterations();
        let mut store = LocalStore {
            config,
            dir: dir.map(Path::to_path_buf),
            state: TuneState::start(config, no_verify),
            history: Vec::new(),
            writer: None,
            resumed_from: 0,
            last: max_iterations.map_or(total, |m| m.min(total)),
        };
        if let Some(dir) = dir {
            store.open_dir(dir, resume, no_verify)?;
        }
        Ok(store)
    }

    fn open_dir(&mut self, dir: &Path, resume: bool, no_verify: bool) -> Result<()> {
        let config = self.config;
        std::fs::create_dir_all(dir).map_err(|e| TuneError::io(dir, e))?;
        let names: Vec<String> = config.spsa.params.iter().map(|p| p.name.clone()).collect();
        let state_path = dir.join(STATE_FILE);
        let history_path = dir.join(HISTORY_FILE);
        let config_path = dir.join(CONFIG_FILE);
        let shared_path = dir.join(SHARED_FILE);
        if shared_path.exists() {
            return Err(TuneError::State(format!(
                "{} belongs to a shared tune: run its workers with `wuzi-tune tune --spec SPEC \
                 --out {} --shared`",
                shared_path.display(),
                dir.display()
            )));
        }
        if state_path.exists() {
            if !resume {
                return Err(TuneError::State(format!(
                    "{} already holds a tune: add --resume to continue it, or choose another --out",
                    dir.display()
                )));
            }
            let old = load_config(dir)?;
            if let Some(what) = old.difference(config) {
                return Err(TuneError::State(format!(
                    "{} holds a tune with different {what}; resume it with the same spec \
                     (or `wuzi-tune resume {}`), or choose another --out",
                    dir.display(),
                    dir.display()
                )));
            }
            let cp = TuneState::load(&state_path, config)?;
            let rows = history::load_and_cut(&history_path, &names, cp.iteration)?;
            if let Some(last) = rows.last() {
                if last.theta != cp.theta {
                    return Err(TuneError::History {
                        path: history_path,
                        line: rows.len() + 1,
                        message: "theta differs from the checkpoint's".into(),
                    });
                }
            }
            if old != *config {
                // Same tune, other descriptions or verification settings: keep the new ones.
                write_json(&config_path, config)?;
            }
            self.resumed_from = cp.iteration;
            self.state = TuneState {
                no_verify: no_verify || cp.no_verify,
                ..cp
            };
            self.history = rows;
            self.writer = Some(HistoryWriter::append(&history_path)?);
        } else {
            write_json(&config_path, config)?;
            self.writer = Some(HistoryWriter::create(&history_path, &names)?);
            self.state.save(&state_path)?;
        }
        write_start(dir, config)
    }

    /// The state now.
    pub fn state(&self) -> &TuneState {
        &self.state
    }

    /// Iterations completed before this session (from the checkpoint).
    pub fn resumed_from(&self) -> u64 {
        self.resumed_from
    }

    /// The history, one row per completed iteration from the first.
    pub fn history(&self) -> &[IterationRecord] {
        &self.history
    }

    /// Ends the session: rewrites `tuned.toml` from the last theta. Returns the state and the
    /// history.
    pub fn close(self) -> Result<(TuneState, Vec<IterationRecord>)> {
        if let Some(dir) = &self.dir {
            write_tuned(dir, self.config, &self.state.theta)?;
        }
        Ok((self.state, self.history))
    }
}

impl Store for LocalStore<'_> {
    /// The iteration after the last completed one, unless the session's last is done or a
    /// signal asked to stop (then the checkpoint stays at the last completed iteration).
    fn claim(&mut self) -> Result<Turn> {
        let k = self.state.iteration + 1;
        if k > self.last {
            return Ok(Turn::Done);
        }
        if wuzi_arena::interrupt::requested() {
            return Ok(Turn::Stop);
        }
        Ok(Turn::Play(Assignment {
            iteration: k,
            theta: self.state.theta.clone(),
            token: 0,
        }))
    }

    fn playing<T>(&self, _assignment: &Assignment, play: impl FnOnce() -> Result<T>) -> Result<T> {
        play()
    }

    fn record(
        &mut self,
        assignment: &Assignment,
        pert: &Perturbation,
        batch: &Totals,
    ) -> Result<Option<Applied>> {
        let record = self
            .state
            .step(self.config, assignment.iteration, pert, batch)?;
        if let (Some(dir), Some(w)) = (&self.dir, self.writer.as_mut()) {
            w.write(&record)?;
            self.state.save(&dir.join(STATE_FILE))?;
            write_tuned(dir, self.config, &self.state.theta)?;
        }
        self.history.push(record.clone());
        Ok(Some(Applied {
            state: self.state.clone(),
            record,
        }))
    }
}
