//! Commands that play games: `match`, `gauntlet`, `round-robin`, `sweep`, `resume`, `merge`,
//! and the configuration, progress and end-of-run lines they share.

use std::path::{Path, PathBuf};

use super::args::Common;
use super::outcome::Interrupted;
use anyhow::{bail, Result};
use wuzi_arena::config::{
    grid, Matchup, RunConfig, RunKind, Shard, SweepAxis, SweepInfo, SweepPoint, FORMAT_VERSION,
};
use wuzi_arena::default_match;
use wuzi_arena::opening::Source;
use wuzi_arena::player::{parse_tc, PlayerLimits, PlayerSpec, DEFAULT_HASH_MB};
use wuzi_arena::referee::GameSettings;
use wuzi_arena::registry::Registry;
use wuzi_arena::run::{default_concurrency, merge, run, Progress, RunOptions};
use wuzi_arena::stats::SprtParams;
use wuzi_arena::summary::{fmt_estimate, render};

impl Common {
    pub(crate) fn limits(&self) -> Result<PlayerLimits> {
        // Named here: left to the players' check, `--nodes 0` read "bad player spec 'default'".
        for (option, zero) in [
            ("--nodes", self.nodes == Some(0)),
            ("--depth", matches!(self.depth, Some(d) if d < 1)),
            ("--threads", self.threads == 0),
            ("--hash-mb", self.hash_mb == 0),
        ] {
            if zero {
                bail!("{option} must be at least 1");
            }
        }
        let mut l = PlayerLimits {
            nodes: self.nodes,
            depth: self.depth,
            move_ms: self.move_ms,
            threads: self.threads,
            hash_mb: self.hash_mb,
            ..PlayerLimits::default()
        };
        if let Some(tc) = &self.tc {
            let (g, i) = parse_tc(tc).map_err(anyhow::Error::msg)?;
            l.game_ms = Some(g);
            l.inc_ms = i;
        }
        Ok(l)
    }

    pub(crate) fn players(&self, specs: &[String]) -> Result<Vec<PlayerSpec>> {
        let limits = self.limits()?;
        let registry = Registry::find(self.engines.as_deref())?;
        Ok(specs
            .iter()
            .map(|s| PlayerSpec::parse_with(s, &limits, registry.as_ref()))
            .collect::<std::result::Result<_, _>>()?)
    }

    /// The configuration of a run with these players and matchups.
    pub(crate) fn config(
        &self,
        kind: RunKind,
        players: Vec<PlayerSpec>,
        matchups: Vec<Matchup>,
    ) -> Result<RunConfig> {
        let source = match Source::parse(&self.openings, self.openings_format, self.symmetries)? {
            Source::Random(mut spec) => {
                spec.radius = self.random_radius;
                spec.max_score = self.random_max_score;
                spec.centre = self.random_centre;
                Source::Random(spec)
            }
            s => s,
        };
        // A run plays at most `pairs` openings: random ones are built only that far.
        let bar = wuzi_arena::opening::progress_bar(self.quiet, "random openings");
        let (openings, openings_source, removed) = source.load_with(
            self.size,
            self.rule,
            self.seed,
            self.pairs,
            &mut |done, total| wuzi_arena::opening::show_progress(&bar, done, total),
        )?;
        bar.finish_and_clear();
        if removed > 0 && !self.quiet {
            eprintln!(
                "openings: {removed} duplicate position(s) removed, {} left",
                openings.len()
            );
        }
        let sprt = self
            .sprt
            .as_deref()
            .filter(|s| !matches!(s.trim().to_ascii_lowercase().as_str(), "off" | "none"))
            .map(|s| SprtParams::parse(s, self.sprt_model))
            .transpose()?;
        let shard = self.shard.as_deref().map(Shard::parse).transpose()?;
        let mut game = GameSettings {
            size: self.size,
            rule: self.rule,
            max_moves: self.max_moves,
            time_margin_ms: self.time_margin_ms,
            ..GameSettings::default()
        };
        super::adjudication::apply(&self.adjudication, &mut game)?;
        let config = RunConfig {
            format: FORMAT_VERSION,
            kind,
            game,
            players,
            matchups,
            openings_source,
            pairs: self.pairs.unwrap_or(openings.len() as u64),
            openings,
            order: self.order,
            seed: self.seed,
            sprt,
            shard,
            sweep: None,
            log_io: self.log_io,
        };
        config.validate()?;
        Ok(config)
    }

    pub(crate) fn options(&self) -> RunOptions {
        RunOptions {
            concurrency: self.concurrency.unwrap_or_else(default_concurrency),
            out: self.out.clone(),
            resume: self.resume,
        }
    }
}

/// Progress message: Elo and LLR of a single matchup, or the count of decided matchups.
pub(crate) fn progress_message(p: &Progress<'_>) -> String {
    let rate = if p.elapsed.as_secs_f64() > 0.0 {
        p.played as f64 / p.elapsed.as_secs_f64()
    } else {
        0.0
    };
    let mut msg = format!("{rate:.2} games/s");
    if let [t] = p.tallies {
        msg.push_str(&format!(" | Elo {}", fmt_estimate(t.penta.elo_estimate())));
        if let Some(s) = &p.config.sprt {
            let st = wuzi_arena::stats::sprt_status(&t.penta, s);
            msg.push_str(&format!(
                " | LLR {:.2} [{:.2}, {:.2}]",
                st.llr, st.lower, st.upper
            ));
        }
    } else {
        let decided = p.tallies.iter().filter(|t| t.decision.is_some()).count();
        msg.push_str(&format!(" | {} matchups", p.tallies.len()));
        if decided > 0 {
            msg.push_str(&format!(", {decided} decided"));
        }
    }
    msg
}

pub(crate) fn execute(config: &RunConfig, opts: &RunOptions, quiet: bool) -> Result<()> {
    for warning in config.identical_player_warnings() {
        eprintln!("warning: {warning}");
    }
    let bar = wuzi_arena::progress::bar(
        quiet,
        "{elapsed_precise} [{bar:30}] {pos}/{len} games, eta {eta} | {msg}",
    );
    if opts.out.is_none() {
        eprintln!(
            "no --out: games are not kept (pass --out DIR to keep records, summary and report)"
        );
    }
    if !quiet {
        eprintln!(
            "{} | {} players, {} matchup(s) x {} pairs | {} openings | {} worker(s){}{}",
            config.kind,
            config.players.len(),
            config.matchups.len(),
            config.pairs,
            config.openings.len(),
            opts.concurrency,
            config
                .shard
                .map(|s| format!(" | shard {s}"))
                .unwrap_or_default(),
            opts.out
                .as_ref()
                .map(|o| format!(" | records in {}", o.display()))
                .unwrap_or_default(),
        );
    }
    let mut observer = |p: &Progress<'_>| {
        bar.set_length(p.total);
        bar.set_position(p.done);
        bar.set_message(progress_message(p));
    };
    let outcome = run(config, opts, &mut observer)?;
    bar.finish_and_clear();
    if outcome.interrupted && !quiet {
        eprintln!(
            "interrupted after {} of {} games; writing what was played",
            outcome.summary.games_finished, outcome.summary.games_planned
        );
    }
    match &outcome.combined {
        // A shard in a shared folder: the combined result is what matters.
        Some(combined) => {
            let mut shards: Vec<String> = outcome.peers.iter().map(|s| s.to_string()).collect();
            shards.extend(config.shard.map(|s| s.to_string()));
            shards.sort();
            wuzi_arena::outln!(
                "all shards in the folder ({}), {} of this shard's games played here:",
                shards.join(", "),
                outcome.games_played
            );
            wuzi_arena::out!("{}", render(combined));
        }
        None => wuzi_arena::out!("{}", render(&outcome.summary)),
    }
    if outcome.stopped_early && !quiet {
        eprintln!(
            "stopped early: SPRT decided{}",
            if outcome.combined.is_some() {
                " on the shards' combined games"
            } else {
                ""
            }
        );
    }
    if let Some(dir) = &opts.out {
        eprintln!(
            "summary: {}",
            wuzi_arena::run_dir::RunFiles::for_run(dir, config.shard)
                .summary
                .display()
        );
        draw_charts(dir);
        write_report(dir);
    }
    if outcome.interrupted {
        match &opts.out {
            Some(dir) => wuzi_arena::outln!(
                "resume with: {}",
                wuzi_arena::run_dir::resume_command(dir, config.shard)
            ),
            None => wuzi_arena::outln!(
                "nothing was kept (no --out): the games played are gone; give --out DIR to \
                 keep a run that can be resumed"
            ),
        }
        return Err(Interrupted.into());
    }
    if !quiet {
        if let Some(peak) = wuzi_arena::bench::peak_rss_bytes() {
            eprintln!(
                "peak memory: {:.1} MB ({} MB hash per engine)",
                peak as f64 / 1e6,
                config
                    .players
                    .iter()
                    .map(|p| p.limits.hash_mb)
                    .max()
                    .unwrap_or(DEFAULT_HASH_MB)
            );
        }
    }
    Ok(())
}

/// Draws the charts of the run in `dir`, listing them; a failure is reported, not fatal (the
/// records and the summary are already written; `wuzi-arena chart DIR` retries).
pub(crate) fn draw_charts(dir: &Path) {
    match wuzi_arena::run_charts::chart_run_dir(dir, None) {
        Ok((_, written)) => {
            let names: Vec<String> = written
                .iter()
                .filter_map(|c| c.stem.file_name().map(|n| n.to_string_lossy().into_owned()))
                .collect();
            eprintln!(
                "charts (.png + .svg) in {}: {}",
                dir.display(),
                names.join(", ")
            );
        }
        Err(e) => eprintln!("warning: charts not written: {e:#} (retry with `wuzi-arena chart`)"),
    }
}

/// Writes the run's `report.html`; a failure is reported, not fatal (`wuzi-arena report DIR`
/// retries).
pub(crate) fn write_report(dir: &Path) {
    match wuzi_arena::gate::write_report(dir, None, &Default::default()) {
        Ok(path) => eprintln!("report: {}", path.display()),
        Err(e) => eprintln!("warning: report not written: {e:#} (retry with `wuzi-arena report`)"),
    }
}

/// The built-in default match (see [`wuzi_arena::default_match`]).
pub(crate) fn default_match(common: &Common) -> Result<()> {
    let mut common = common.clone();
    if common.sprt.is_none() {
        common.sprt = Some(default_match::SPRT.to_string());
    }
    if common.out.is_none() {
        if common.resume {
            bail!("--resume needs --out DIR (the default match's directory)");
        }
        common.out = Some(default_match::timestamped_dir(
            Path::new(default_match::OUT_ROOT),
            "match",
            std::time::SystemTime::now(),
        ));
    }
    let players = default_match::players(&common.limits()?)?;
    if !common.quiet {
        eprintln!(
            "default match: default parameters against {} ({}), {}",
            default_match::WEAK_PARAMS_FILE,
            players[1]
                .params_diff()
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(" "),
            players[0].limits.describe()
        );
    }
    let config = common.config(
        RunKind::Match,
        players,
        vec![Matchup {
            first: 0,
            second: 1,
        }],
    )?;
    execute(&config, &common.options(), common.quiet)
}

pub(crate) fn sweep_config(
    common: &Common,
    player: Option<&str>,
    baseline: Option<&str>,
    grid_args: &[String],
    param: Option<&str>,
    values: Option<&str>,
) -> Result<RunConfig> {
    let limits = common.limits()?;
    let mut axes: Vec<SweepAxis> = grid_args
        .iter()
        .map(|g| SweepAxis::parse(g))
        .collect::<std::result::Result<_, _>>()?;
    if let (Some(p), Some(v)) = (param, values) {
        axes.push(SweepAxis::new(p, v)?);
    }
    if axes.is_empty() {
        bail!(
            "sweep needs --grid NAME=LO:HI:STEP (or NAME=V1,V2,...) or --param NAME --values LIST"
        );
    }
    let registry = Registry::find(common.engines.as_deref())?;
    let template = PlayerSpec::parse(player.unwrap_or("default"), &limits)?;
    let mut base = match baseline {
        Some(b) => PlayerSpec::parse_with(b, &limits, registry.as_ref())?,
        None => template.clone(),
    };
    if baseline.is_none() || base.name == template.name {
        base.name = "baseline".into();
    }
    let mut players = vec![base];
    let mut matchups = Vec::new();
    let mut points = Vec::new();
    for values in grid(&axes) {
        let mut p = template.clone();
        let mut name = Vec::new();
        for (axis, v) in axes.iter().zip(&values) {
            p.set_param(&axis.name, i64::from(*v))?;
            name.push(format!("{}={v}", axis.name));
        }
        p.name = name.join(",");
        let index = players.len();
        points.push(SweepPoint {
            values,
            player: index,
            matchup: matchups.len(),
        });
        matchups.push(Matchup {
            first: index,
            second: 0,
        });
        players.push(p);
    }
    let mut config = common.config(RunKind::Sweep, players, matchups)?;
    config.sweep = Some(SweepInfo {
        axes,
        baseline: 0,
        points,
    });
    config.validate()?;
    Ok(config)
}

/// `wuzi-arena match` with players.
pub(crate) fn match_players(players: &[String], common: &Common) -> Result<()> {
    let players = common.players(players)?;
    if players.len() != 2 {
        bail!("match needs exactly two --player, got {}", players.len());
    }
    let config = common.config(
        RunKind::Match,
        players,
        vec![Matchup {
            first: 0,
            second: 1,
        }],
    )?;
    execute(&config, &common.options(), common.quiet)
}

/// `wuzi-arena gauntlet`: the first player against each of the others.
pub(crate) fn gauntlet(players: &[String], common: &Common) -> Result<()> {
    let players = common.players(players)?;
    if players.len() < 2 {
        bail!("gauntlet needs a player and at least one opponent");
    }
    let matchups = (1..players.len())
        .map(|j| Matchup {
            first: 0,
            second: j,
        })
        .collect();
    let config = common.config(RunKind::Gauntlet, players, matchups)?;
    execute(&config, &common.options(), common.quiet)
}

/// `wuzi-arena round-robin`: every player against every other.
pub(crate) fn round_robin(players: &[String], common: &Common) -> Result<()> {
    let players = common.players(players)?;
    if players.len() < 2 {
        bail!("round-robin needs at least two players");
    }
    let n = players.len();
    let matchups = (0..n)
        .flat_map(|i| {
            (i + 1..n).map(move |j| Matchup {
                first: i,
                second: j,
            })
        })
        .collect();
    let config = common.config(RunKind::RoundRobin, players, matchups)?;
    execute(&config, &common.options(), common.quiet)
}

/// `wuzi-arena sweep`: one parameter grid against a baseline.
pub(crate) fn sweep(
    common: &Common,
    player: Option<&str>,
    baseline: Option<&str>,
    grid: &[String],
    param: Option<&str>,
    values: Option<&str>,
) -> Result<()> {
    let config = sweep_config(common, player, baseline, grid, param, values)?;
    execute(&config, &common.options(), common.quiet)
}

/// `wuzi-arena resume DIR`: continue a run with the options it was started with.
pub(crate) fn resume(
    dir: PathBuf,
    shard: Option<String>,
    concurrency: Option<usize>,
    quiet: bool,
) -> Result<()> {
    let run_dir = wuzi_arena::run_dir::RunDir::open(&dir)?;
    let config = match (shard, run_dir.entries.as_slice()) {
        (None, [one]) => one.config.clone(),
        (None, _) => bail!(
            "{} holds several shards of a run: name the one to continue with --shard i/n",
            dir.display()
        ),
        (Some(text), entries) => {
            let shard = Shard::parse(&text)?;
            match entries.iter().find(|e| e.config.shard == Some(shard)) {
                Some(e) => e.config.clone(),
                None => bail!("{} holds no shard {shard}", dir.display()),
            }
        }
    };
    let opts = RunOptions {
        concurrency: concurrency.unwrap_or_else(default_concurrency),
        out: Some(dir),
        resume: true,
    };
    execute(&config, &opts, quiet)
}

/// `wuzi-arena merge`: shards played in separate folders, as one run.
pub(crate) fn merge_shards(shards: &[PathBuf], out: &Path) -> Result<()> {
    let summary = merge(shards, out)?;
    wuzi_arena::out!("{}", render(&summary));
    eprintln!("merged {} folder(s) into {}", shards.len(), out.display());
    draw_charts(out);
    write_report(out);
    Ok(())
}
