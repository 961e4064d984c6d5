//! `wuzi-arena`: engine-vs-engine matches, gauntlets, round robins and parameter sweeps with
//! pentanomial statistics, SPRT, records, resume, shards and export.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use wuzi_arena::config::{
    grid, Matchup, OpeningOrder, RunConfig, RunKind, Shard, SweepAxis, SweepInfo, SweepPoint,
    FORMAT_VERSION, RUN_FILE,
};
use wuzi_arena::default_match;
use wuzi_arena::opening::{FileFormat, Source};
use wuzi_arena::player::{parse_tc, PlayerLimits, PlayerSpec, DEFAULT_HASH_MB};
use wuzi_arena::record::{
    psq_file_name, read_records, to_move_line, to_psq, ExportFormat, GAMES_FILE,
};
use wuzi_arena::referee::GameSettings;
use wuzi_arena::registry::Registry;
use wuzi_arena::run::{default_concurrency, merge, run, summarize_dir, Progress, RunOptions};
use wuzi_arena::stats::{EloModel, SprtParams};
use wuzi_arena::summary::{fmt_estimate, render, render_openings};
use wuzi_engine::Rule;

#[derive(Parser)]
#[command(
    name = "wuzi-arena",
    version = wuzi_engine::build_info::VERSION_WITH_COMMIT,
    long_version = wuzi_engine::build_info::LONG_VERSION,
    about = "Engine-vs-engine games for wuzi: matches, gauntlets, round robins, parameter sweeps",
    after_help = "Players: --player 'name=new,params=new.toml,set=defence=60,nodes=2000' (keys: name, \
params, set (repeatable), preset=default|classic, nodes, depth, move-ms, tc=GAME_MS+INC_MS, threads, \
hash-mb; a bare word is a name). Limits given as options (--nodes, --tc, ...) apply to every player \
that does not set its own.\n\nExternal Gomocup brains: --player 'name=x,cmd=./pbrain-x,arg=--flag,\
dir=work/x,move-ms=1000' (cmd: the program; arg: one argument, repeatable; dir: its working folder, \
default a temporary one; move-ms and tc are sent as INFO timeout_turn/timeout_match, nodes and depth \
as INFO max_node/max_depth (the run-wide --nodes/--depth apply to in-process engines only); threads \
and hash-mb as INFO thread_num and max_memory; protocol options settle-ms (default 50), \
setup=board|turn, start-ms, end-ms, info='KEY VALUE'; the name defaults to the brain's ABOUT \
name).\n\nBrains by name: --player rapfi or --player rapfi,move-ms=200 (or brain=rapfi) takes the \
brain from a registry TOML file: --engines FILE, else $WUZI_ENGINES, else ./engines.toml, else \
~/.config/wuzi/engines.toml (example: suites/engines.example.toml). With a registry, a bare name \
that is not one of its brains is an error (name an engine player with name=).\n\nExit status: 0 \
when the run completes, 2 on any error (bad input, unknown brain, bad registry, unreadable files), \
130 when Ctrl-C or SIGTERM stopped it (what was played is written, marked interrupted, and the \
resume command printed; a second Ctrl-C exits at once)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Two players, every opening as a pair with colours swapped. Without --player: the built-in
    /// default match (default parameters against suites/params/weak.toml, 2000 nodes per move,
    /// SPRT 0,10, output in arena-out/match-<UTC time>).
    Match {
        /// Exactly two players, or none for the default match.
        #[arg(long = "player", value_name = "SPEC", num_args = 1)]
        players: Vec<String>,
        #[command(flatten)]
        common: Common,
    },
    /// The first player against each of the others.
    Gauntlet {
        /// The first player, then its opponents.
        #[arg(long = "player", value_name = "SPEC", num_args = 1, required = true)]
        players: Vec<String>,
        #[command(flatten)]
        common: Common,
    },
    /// Every player against every other.
    RoundRobin {
        /// The players.
        #[arg(long = "player", value_name = "SPEC", num_args = 1, required = true)]
        players: Vec<String>,
        #[command(flatten)]
        common: Common,
    },
    /// Parameter values (a list or a grid) each played against a baseline.
    Sweep {
        /// The player whose parameters are varied (default: default parameters).
        #[arg(long = "player", value_name = "SPEC")]
        player: Option<String>,
        /// The opponent of every point (default: the unvaried player).
        #[arg(long, value_name = "SPEC")]
        baseline: Option<String>,
        /// An axis, `name=lo:hi:step` or `name=v1,v2,...`; repeat for a grid.
        #[arg(long = "grid", value_name = "NAME=VALUES")]
        grid: Vec<String>,
        /// A parameter to vary with --values.
        #[arg(long, requires = "values")]
        param: Option<String>,
        /// The values of --param: `60,80,100` or `lo:hi:step`.
        #[arg(long, requires = "param")]
        values: Option<String>,
        #[command(flatten)]
        common: Common,
    },
    /// Continue an interrupted run from its directory (run.json + games.jsonl, or a shard's
    /// run-shard-I-of-N.json + games-shard-I-of-N.jsonl).
    Resume {
        /// The run directory.
        dir: PathBuf,
        /// The shard to continue, `i/n` or `auto/n`, when the folder holds several.
        #[arg(long)]
        shard: Option<String>,
        /// Games played at once (default: all cores).
        #[arg(long)]
        concurrency: Option<usize>,
        /// No progress bar.
        #[arg(long)]
        quiet: bool,
    },
    /// Combine the directories of a run's shards into one result.
    Merge {
        /// Output directory (must not hold a run).
        #[arg(long)]
        out: PathBuf,
        /// The shard directories.
        #[arg(required = true)]
        shards: Vec<PathBuf>,
    },
    /// Draw (or redraw) the charts of a run directory from run.json and games.jsonl, for
    /// example after merging shards or during a run.
    #[command(
        after_help = "Charts, each as NAME.png and NAME.svg (runs with --out get them at the \
end, and merge draws them too):\n  score           score with 95 % interval: per matchup (match, \
gauntlet), per player against the field (round robin), per point against the baseline (sweep)\n  \
score-matchups  round robin: score of each matchup's first player\n  colours         black wins / \
white wins / draws per matchup\n  sprt            SPRT runs with one matchup: LLR against games with \
both bounds and the verdict\n  sprt-K-A-vs-B   the same for matchup K (1-based) of several\n  \
elo-PARAM       sweeps: Elo against the value of PARAM (grids: one line per setting of the other \
parameters; more than 8 lines continue in elo-PARAM-2, ...)"
    )]
    Chart {
        /// The run directory.
        dir: PathBuf,
        /// Write the charts here instead of into the run directory.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Measure the arena: peak memory and games/s of the default match, time outside the
    /// engine's search at 10000 nodes per move, games/s with 1 and 2 workers.
    Bench(BenchArgs),
    /// Print the summary of a run directory from its records.
    Summary {
        /// The run directory.
        dir: PathBuf,
        /// Print the summary as JSON.
        #[arg(long)]
        json: bool,
        /// Also print each matchup's results per opening.
        #[arg(long)]
        per_opening: bool,
    },
    /// Export recorded games as Piskvork PSQ files or move lists.
    Export {
        /// A run directory or a games.jsonl file.
        input: PathBuf,
        /// psq (one file per game in the --out directory) or moves (one line per game).
        #[arg(long, default_value = "moves")]
        format: ExportFormat,
        /// Output directory (psq) or file (moves; default: standard output).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Board size, when the input has no run.json beside it.
        #[arg(long)]
        size: Option<usize>,
    },
    /// Write DIR/report.html: one self-contained page (no network) with the configuration,
    /// summary, inline SVG charts, per-opening results, non-five endings and a game viewer,
    /// for a run directory (match, gauntlet, round robin, sweep, shard, merged) or a gate
    /// folder. Runs, merges and the gate write theirs at the end.
    Report {
        /// The run directory or gate folder.
        dir: PathBuf,
        /// Write the page here instead of DIR/report.html.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Most games in the viewer; larger runs get a sample (all non-five endings up to a
        /// quarter, then evenly spaced games). 0: every game.
        #[arg(long, default_value_t = wuzi_arena::report::games::DEFAULT_MAX_GAMES)]
        max_games: usize,
    },
    /// Strength-regression gate: the rule and tactics suites, then an SPRT of a candidate
    /// against a baseline within a pair budget. Exit status 0 pass, 1 regression found, 2 could
    /// not run.
    Gate(Box<GateArgs>),
}

/// Options of `wuzi-arena bench`.
#[derive(Args, Clone)]
struct BenchArgs {
    /// Pairs of the default match measured for peak memory and games/s (default: all 184; its
    /// SPRT may stop it earlier).
    #[arg(long)]
    default_pairs: Option<u64>,
    /// Skip the default match (memory is then that of the other measurements).
    #[arg(long)]
    skip_default: bool,
    /// Pairs played by one worker for the overhead measurement.
    #[arg(long, default_value_t = 6)]
    overhead_pairs: u64,
    /// Nodes per move of the overhead measurement.
    #[arg(long, default_value_t = 10_000)]
    overhead_nodes: u64,
    /// Pairs (the same fixed games each time) played with 1 worker and with --workers workers.
    #[arg(long, default_value_t = 16)]
    scaling_pairs: u64,
    /// Nodes per move of the scaling measurement.
    #[arg(long, default_value_t = default_match::NODES)]
    scaling_nodes: u64,
    /// Workers compared with one worker.
    #[arg(long, default_value_t = 2)]
    workers: usize,
    /// Scaling measurements alternate 1 worker / --workers this many times (the best of each
    /// is compared; the machine may be shared).
    #[arg(long, default_value_t = 2)]
    repeat: usize,
    /// Hash table per engine, MB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB)]
    hash_mb: usize,
}

/// Options shared by the run commands.
#[derive(Args, Clone)]
struct Common {
    /// freestyle, standard or renju.
    #[arg(long, default_value = "renju")]
    rule: Rule,
    /// Board side, 5 to 20.
    #[arg(long, default_value_t = 15)]
    size: usize,
    /// `renju26` (26 openings x 8 symmetries), `random[:COUNT[:STONES]]`, or a file of Gomocup
    /// offsets (`dx,dy, dx,dy`) or move lists (`h8 i9 j10`).
    #[arg(long, default_value = "renju26")]
    openings: String,
    /// Format of an opening file (default: detected).
    #[arg(long)]
    openings_format: Option<FileFormat>,
    /// Also play the 7 other symmetric images of every opening of a file.
    #[arg(long)]
    symmetries: bool,
    /// Random openings: stones are placed within this distance of the centre.
    #[arg(long, default_value_t = 3)]
    random_radius: usize,
    /// Random openings: largest accepted distance of the quick check search's score from the
    /// balance point.
    #[arg(long, default_value_t = 150)]
    random_max_score: i32,
    /// Random openings: the balance point (score of an even position for the side to move);
    /// default: the median score of a seeded sample of candidates.
    #[arg(long, allow_hyphen_values = true)]
    random_centre: Option<i32>,
    /// Opening order: random (seeded shuffle) or sequential.
    #[arg(long, default_value = "random", value_parser = parse_order)]
    order: OpeningOrder,
    /// Game pairs per matchup (default: one per opening).
    #[arg(long)]
    pairs: Option<u64>,
    /// Run seed: opening order, random openings, per-game seeds.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Draw after this many moves (opening included).
    #[arg(long)]
    max_moves: Option<usize>,
    /// Grace beyond move time or game clock before a time loss, in ms.
    #[arg(long, default_value_t = 100)]
    time_margin_ms: u64,
    /// Nodes per move, for players that do not set their own.
    #[arg(long)]
    nodes: Option<u64>,
    /// Depth per move, for players that do not set their own.
    #[arg(long)]
    depth: Option<i32>,
    /// Time per move in ms, for players that do not set their own.
    #[arg(long)]
    move_ms: Option<u64>,
    /// Game time and increment in ms, `GAME+INC`, for players that do not set their own.
    #[arg(long)]
    tc: Option<String>,
    /// Search threads per engine.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Hash table per engine, MB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB)]
    hash_mb: usize,
    /// SPRT `elo0,elo1[,alpha,beta]`: stop each matchup when it decides; `off`: no SPRT (the
    /// default match has `0,10`).
    #[arg(long)]
    sprt: Option<String>,
    /// Elo model of the SPRT bounds: logistic or normalized.
    #[arg(long, default_value = "logistic", value_parser = parse_model)]
    sprt_model: EloModel,
    /// Games played at once (default: all cores).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Brain registry (TOML) for players given by name [default: $WUZI_ENGINES, else
    /// ./engines.toml, else ~/.config/wuzi/engines.toml, if there is one].
    #[arg(long, value_name = "FILE")]
    engines: Option<PathBuf>,
    /// Directory for run.json, games.jsonl and summary.json.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue the run in --out (same options) without replaying finished games.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Play pairs with index % n == i only: `i/n`, or `auto/n` (SLURM_ARRAY_TASK_ID or
    /// JOB_COMPLETION_INDEX). Shards given the same --out folder write their files side by
    /// side (run-shard-I-of-N.json, games-shard-I-of-N.jsonl), read each other's records and,
    /// with --sprt, all stop when the combined SPRT decides; `summary`, `chart` and `merge`
    /// read that folder. Shards in separate folders each play all their pairs; `merge` then
    /// applies the SPRT.
    #[arg(long)]
    shard: Option<String>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

fn parse_order(s: &str) -> std::result::Result<OpeningOrder, String> {
    match s.to_ascii_lowercase().as_str() {
        "random" | "shuffle" => Ok(OpeningOrder::Random),
        "sequential" | "file" => Ok(OpeningOrder::Sequential),
        _ => Err(format!("unknown order '{s}' (random or sequential)")),
    }
}

fn parse_model(s: &str) -> std::result::Result<EloModel, String> {
    match s.to_ascii_lowercase().as_str() {
        "logistic" => Ok(EloModel::Logistic),
        "normalized" | "normalised" => Ok(EloModel::Normalized),
        _ => Err(format!("unknown Elo model '{s}' (logistic or normalized)")),
    }
}

impl Common {
    fn limits(&self) -> Result<PlayerLimits> {
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

    fn players(&self, specs: &[String]) -> Result<Vec<PlayerSpec>> {
        let limits = self.limits()?;
        let registry = Registry::find(self.engines.as_deref())?;
        Ok(specs
            .iter()
            .map(|s| PlayerSpec::parse_with(s, &limits, registry.as_ref()))
            .collect::<std::result::Result<_, _>>()?)
    }

    /// The configuration of a run with these players and matchups.
    fn config(
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
        let config = RunConfig {
            format: FORMAT_VERSION,
            kind,
            game: GameSettings {
                size: self.size,
                rule: self.rule,
                max_moves: self.max_moves,
                time_margin_ms: self.time_margin_ms,
            },
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
        };
        config.validate()?;
        Ok(config)
    }

    fn options(&self) -> RunOptions {
        RunOptions {
            concurrency: self.concurrency.unwrap_or_else(default_concurrency),
            out: self.out.clone(),
            resume: self.resume,
        }
    }
}

/// Progress message: Elo and LLR of a single matchup, or the count of decided matchups.
fn progress_message(p: &Progress<'_>) -> String {
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

fn execute(config: &RunConfig, opts: &RunOptions, quiet: bool) -> Result<()> {
    for warning in config.identical_player_warnings() {
        eprintln!("warning: {warning}");
    }
    let bar = ProgressBar::with_draw_target(
        Some(0),
        if quiet || !std::io::stderr().is_terminal() {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        },
    );
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} games, eta {eta} | {msg}",
        )
        .expect("valid template")
        .progress_chars("=> "),
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
            println!(
                "all shards in the folder ({}), {} of this shard's games played here:",
                shards.join(", "),
                outcome.games_played
            );
            print!("{}", render(combined));
        }
        None => print!("{}", render(&outcome.summary)),
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
            Some(dir) => println!(
                "resume with: {}",
                wuzi_arena::run_dir::resume_command(dir, config.shard)
            ),
            None => println!(
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
fn draw_charts(dir: &Path) {
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
fn write_report(dir: &Path) {
    match wuzi_arena::report::write_report(dir, None, &Default::default()) {
        Ok(path) => eprintln!("report: {}", path.display()),
        Err(e) => eprintln!("warning: report not written: {e:#} (retry with `wuzi-arena report`)"),
    }
}

/// The built-in default match (see [`wuzi_arena::default_match`]).
fn default_match(common: &Common) -> Result<()> {
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

fn sweep_config(
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

fn export(
    input: &Path,
    format: ExportFormat,
    out: Option<&Path>,
    size: Option<usize>,
) -> Result<()> {
    if input.is_dir() && !input.join(GAMES_FILE).exists() {
        // A shard's folder, or the shards of a run sharing one.
        let run_dir = wuzi_arena::run_dir::RunDir::open(input)?;
        let mut records = run_dir.records()?;
        records.sort_by_key(|r| r.key());
        let size = size.unwrap_or(run_dir.config().game.size);
        return export_records(&records, format, out, size);
    }
    let (file, dir) = if input.is_dir() {
        (input.join(GAMES_FILE), Some(input.to_path_buf()))
    } else {
        (input.to_path_buf(), input.parent().map(Path::to_path_buf))
    };
    if !file.exists() {
        bail!("{}: no such records file", file.display());
    }
    let size = match size {
        Some(s) => s,
        None => match dir.map(|d| d.join(RUN_FILE)).filter(|p| p.exists()) {
            Some(run_file) => RunConfig::load(&run_file)?.game.size,
            None => 15,
        },
    };
    let records = read_records(&file)?;
    if records.truncated {
        eprintln!("{}: incomplete last line ignored", file.display());
    }
    let mut records = records.records;
    records.sort_by_key(|r| r.key());
    export_records(&records, format, out, size)
}

fn export_records(
    records: &[wuzi_arena::GameRecord],
    format: ExportFormat,
    out: Option<&Path>,
    size: usize,
) -> Result<()> {
    match format {
        ExportFormat::Psq => {
            let out = out.context("--out DIR is required for psq export")?;
            std::fs::create_dir_all(out).with_context(|| out.display().to_string())?;
            for r in records {
                let path = out.join(psq_file_name(r));
                std::fs::write(&path, to_psq(r, size))
                    .with_context(|| path.display().to_string())?;
            }
            eprintln!("{} games written to {}", records.len(), out.display());
        }
        ExportFormat::Moves => {
            let text: String = records.iter().map(|r| to_move_line(r) + "\n").collect();
            match out {
                Some(path) => {
                    std::fs::write(path, text).with_context(|| path.display().to_string())?
                }
                None => print!("{text}"),
            }
        }
    }
    Ok(())
}

fn main_inner() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Match { players, common } if players.is_empty() => default_match(&common),
        Command::Match { players, common } => {
            let players = common.players(&players)?;
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
        Command::Gauntlet { players, common } => {
            let players = common.players(&players)?;
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
        Command::RoundRobin { players, common } => {
            let players = common.players(&players)?;
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
        Command::Sweep {
            player,
            baseline,
            grid,
            param,
            values,
            common,
        } => {
            let config = sweep_config(
                &common,
                player.as_deref(),
                baseline.as_deref(),
                &grid,
                param.as_deref(),
                values.as_deref(),
            )?;
            execute(&config, &common.options(), common.quiet)
        }
        Command::Resume {
            dir,
            shard,
            concurrency,
            quiet,
        } => {
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
        Command::Merge { out, shards } => {
            let summary = merge(&shards, &out)?;
            print!("{}", render(&summary));
            eprintln!("merged {} folder(s) into {}", shards.len(), out.display());
            draw_charts(&out);
            write_report(&out);
            Ok(())
        }
        Command::Bench(args) => bench(&args),
        Command::Chart { dir, out } => {
            let (_, written) = wuzi_arena::run_charts::chart_run_dir(&dir, out.as_deref())?;
            let mut text = String::new();
            for c in &written {
                text.push_str(&format!(
                    "{}.png  {}.svg  {}\n",
                    c.stem.display(),
                    c.stem.display(),
                    c.shows
                ));
            }
            // A closed pipe (`| head`) is not an error.
            let _ = std::io::Write::write_all(&mut std::io::stdout(), text.as_bytes());
            Ok(())
        }
        Command::Summary {
            dir,
            json,
            per_opening,
        } => {
            let summary = summarize_dir(&dir)?;
            let run_dir = wuzi_arena::run_dir::RunDir::open(&dir)?;
            let missing = run_dir.missing_shards();
            if run_dir.entries.len() > 1 {
                let gaps = run_dir.unfinished_gaps(&run_dir.games()?);
                if gaps > 0 {
                    eprintln!(
                        "note: {gaps} pair(s) before the last finished one are not finished \
                         (shards still running or stopped); the counts and the SPRT state may \
                         change until they are"
                    );
                }
            }
            if !missing.is_empty() {
                let list: Vec<String> = missing.iter().map(|s| s.to_string()).collect();
                eprintln!(
                    "note: shard(s) {} have no files in {} (not counted)",
                    list.join(", "),
                    dir.display()
                );
            }
            if json {
                println!("{}", serde_json::to_string_pretty(&summary)?);
            } else {
                print!("{}", render(&summary));
                if per_opening {
                    print!("\n{}", render_openings(&summary));
                }
            }
            if summary.completion != wuzi_arena::summary::Completion::Finished {
                let resume = format!("resume with: {}", run_dir.resume_command());
                if json {
                    // Standard output stays JSON.
                    if let Some(note) = wuzi_arena::summary::completion_note(&summary) {
                        eprintln!("{note}");
                    }
                    eprintln!("{resume}");
                } else {
                    println!("{resume}");
                }
            }
            Ok(())
        }
        Command::Export {
            input,
            format,
            out,
            size,
        } => export(&input, format, out.as_deref(), size),
        Command::Report {
            dir,
            out,
            max_games,
        } => {
            let start = std::time::Instant::now();
            let path = wuzi_arena::report::write_report(
                &dir,
                out.as_deref(),
                &wuzi_arena::report::ReportOptions { max_games },
            )?;
            let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
            eprintln!(
                "report: {} ({:.1} MB, {:.1} s)",
                path.display(),
                bytes as f64 / 1e6,
                start.elapsed().as_secs_f64()
            );
            Ok(())
        }
        Command::Gate(args) => gate_command(*args),
    }
}

fn main() -> ExitCode {
    // Ctrl-C and SIGTERM stop runs cleanly (see wuzi_arena::interrupt); without the handler
    // they would still end the program, only without a summary.
    if let Err(e) = wuzi_arena::interrupt::install() {
        eprintln!("warning: {e}");
    }
    let result = main_inner();
    // Brains of dropped players get their END grace, then are killed: none outlives us.
    wuzi_arena::external::wait_for_exits();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is::<Interrupted>() => ExitCode::from(wuzi_arena::interrupt::EXIT_STATUS),
        // What failed after a signal failed because of it (a build or a brain it stopped).
        Err(e) if wuzi_arena::interrupt::requested() => {
            eprintln!("interrupted: {e:#}");
            ExitCode::from(wuzi_arena::interrupt::EXIT_STATUS)
        }
        Err(e) if e.is::<RegressionFound>() => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// A default-vs-weak renju match on the renju26 openings for `wuzi-arena bench`.
fn bench_config(nodes: u64, hash_mb: usize, pairs: Option<u64>, sprt: bool) -> Result<RunConfig> {
    let limits = PlayerLimits {
        nodes: Some(nodes),
        hash_mb,
        ..PlayerLimits::default()
    };
    let players = default_match::players(&limits)?;
    let source = Source::parse("renju26", None, false)?;
    let (openings, openings_source, _) = source.load(15, Rule::Renju, 1)?;
    let mut config = RunConfig::new(
        RunKind::Match,
        GameSettings {
            rule: Rule::Renju,
            ..GameSettings::default()
        },
        players,
        vec![Matchup {
            first: 0,
            second: 1,
        }],
        openings,
        openings_source,
    );
    if let Some(p) = pairs {
        config.pairs = p;
    }
    if sprt {
        config.sprt = Some(SprtParams::parse(default_match::SPRT, EloModel::Logistic)?);
    }
    config.validate()?;
    Ok(config)
}

fn fmt_mb(bytes: Option<u64>) -> String {
    bytes.map_or_else(|| "n/a".into(), |b| format!("{:.1} MB", b as f64 / 1e6))
}

fn fmt_cpu(m: &wuzi_arena::bench::Measurement) -> String {
    m.cpu.map_or_else(
        || "n/a".into(),
        |c| {
            format!(
                "{:.1} s ({:.0} ms/game)",
                c.as_secs_f64(),
                c.as_secs_f64() * 1000.0 / m.games.max(1) as f64
            )
        },
    )
}

/// `wuzi-arena bench`: see [`BenchArgs`].
fn bench(args: &BenchArgs) -> Result<()> {
    if args.workers == 0 || args.repeat == 0 || args.scaling_pairs == 0 || args.overhead_pairs == 0
    {
        bail!("--workers, --repeat, --scaling-pairs and --overhead-pairs must be positive");
    }
    let tmp = std::env::temp_dir().join(format!("wuzi-arena-bench-{}", std::process::id()));
    let result = bench_in(args, &tmp);
    let _ = std::fs::remove_dir_all(&tmp);
    result
}

fn bench_in(args: &BenchArgs, tmp: &Path) -> Result<()> {
    use wuzi_arena::bench::{
        hash_bound_bytes, machine_speedup, measure, set_cpu_accounting, MAX_ENGINES_PER_WORKER,
    };
    let engines_per_worker = MAX_ENGINES_PER_WORKER;
    set_cpu_accounting(true);
    let cores = default_concurrency();
    println!(
        "wuzi-arena bench: {cores} logical core(s), load average {}",
        std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|l| l.split_whitespace().next().map(str::to_string))
            .unwrap_or_else(|| "n/a".into())
    );
    println!(
        "engine state: each worker keeps at most {engines_per_worker} engines (fewer with fewer \
         players), each with one {} MB hash table (--hash-mb, 1..={})",
        args.hash_mb,
        wuzi_arena::player::MAX_HASH_MB
    );

    // (c) Memory and games/s of the default match, first so that the peak is its own.
    if !args.skip_default {
        let config = bench_config(default_match::NODES, args.hash_mb, args.default_pairs, true)?;
        println!(
            "\n[default match] default vs weak, renju26 ({} pairs max), {} nodes/move, SPRT {}, \
             {cores} worker(s), records in a temporary directory",
            config.pairs,
            default_match::NODES,
            default_match::SPRT
        );
        let m = measure(&config, cores, Some(tmp.join("default")))?;
        println!(
            "  {} games in {:.1} s: {:.2} games/s; CPU {}",
            m.games,
            m.elapsed.as_secs_f64(),
            m.games_per_s(),
            fmt_cpu(&m)
        );
        println!(
            "  peak memory (VmHWM): {}; hash bound for this run: {} ({} engines x {} MB x {cores} workers)",
            fmt_mb(m.peak_rss),
            fmt_mb(Some(hash_bound_bytes(&config, cores))),
            config.players.len().min(engines_per_worker),
            args.hash_mb
        );
    }

    // (a) Overhead: one worker, so its wall time is the game loop's.
    let config = bench_config(
        args.overhead_nodes,
        args.hash_mb,
        Some(args.overhead_pairs),
        false,
    )?;
    println!(
        "\n[overhead] {} games at {} nodes/move, 1 worker, records written",
        config.pairs * 2,
        args.overhead_nodes
    );
    let m = measure(&config, 1, Some(tmp.join("overhead")))?;
    let inside = m.search.time.as_secs_f64();
    println!(
        "  wall {:.2} s, inside Engine::search {:.2} s ({} searches, {:.2} ms each)",
        m.elapsed.as_secs_f64(),
        inside,
        m.search.searches,
        inside * 1000.0 / m.search.searches.max(1) as f64
    );
    println!(
        "  wall time outside the search: {:.2} ms per game = {:.2} % of the time inside (target < 2 %)",
        m.overhead_ms_per_game().unwrap_or(f64::NAN),
        m.overhead().unwrap_or(f64::NAN) * 100.0
    );
    if let (Some(cpu), Some(o)) = (m.cpu, m.cpu_overhead()) {
        println!(
            "  CPU: process {:.2} s (all threads, the recording thread included), searches {:.2} s: \
             {:.2} % outside the search ({:.2} ms per game)",
            cpu.as_secs_f64(),
            m.search.cpu.as_secs_f64(),
            o * 100.0,
            (cpu.as_secs_f64() - m.search.cpu.as_secs_f64()) * 1000.0 / m.games.max(1) as f64
        );
    }

    // (b) Scaling: the same fixed games with 1 and with N workers, alternating.
    let config = bench_config(
        args.scaling_nodes,
        args.hash_mb,
        Some(args.scaling_pairs),
        false,
    )?;
    println!(
        "\n[scaling] the same {} games at {} nodes/move with 1 and {} workers, {} round(s)",
        config.pairs * 2,
        args.scaling_nodes,
        args.workers,
        args.repeat
    );
    let mut speedups = Vec::new();
    let mut relative = Vec::new();
    let mut cpu_per_game = [f64::INFINITY; 2];
    for round in 0..args.repeat {
        // The machine's own speedup, before and after the round (other programs come and go).
        let before = machine_speedup(args.workers, Duration::from_millis(400));
        let mut gps = [0.0f64; 2];
        for (k, workers) in [1, args.workers].into_iter().enumerate() {
            let m = measure(
                &config,
                workers,
                Some(tmp.join(format!("scaling-{round}-{k}"))),
            )?;
            println!(
                "  round {}: {workers} worker(s): {:.1} s, {:.2} games/s, CPU {}",
                round + 1,
                m.elapsed.as_secs_f64(),
                m.games_per_s(),
                fmt_cpu(&m)
            );
            gps[k] = m.games_per_s();
            if let Some(c) = m.cpu {
                cpu_per_game[k] = cpu_per_game[k].min(c.as_secs_f64() / m.games.max(1) as f64);
            }
        }
        let after = machine_speedup(args.workers, Duration::from_millis(400));
        let machine = (before + after) / 2.0;
        let speedup = gps[1] / gps[0].max(1e-9);
        println!(
            "  round {}: speedup {speedup:.2}x; {} threads of plain arithmetic got {before:.2}x \
             before and {after:.2}x after it",
            round + 1,
            args.workers
        );
        speedups.push(speedup);
        relative.push(speedup / machine.max(1e-9));
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let best = speedups.iter().copied().fold(0.0, f64::max);
    println!(
        "  speedup with {} workers: best {best:.2}x, median {:.2}x (target >= {:.1}x); median \
         {:.0} % of what the machine gave plain arithmetic at the time",
        args.workers,
        median(&mut speedups.clone()),
        0.9 * args.workers as f64,
        median(&mut relative) * 100.0
    );
    if cpu_per_game.iter().all(|c| c.is_finite()) {
        println!(
            "  CPU per game: {:.0} ms with 1 worker, {:.0} ms with {} (equal when the workers \
             do not slow each other down)",
            cpu_per_game[0] * 1000.0,
            cpu_per_game[1] * 1000.0,
            args.workers
        );
    }
    println!(
        "\npeak memory of this process: {}",
        fmt_mb(wuzi_arena::bench::peak_rss_bytes())
    );
    Ok(())
}

/// Options of `wuzi-arena gate`; the defaults and their reasoning are documented in
/// `wuzi_arena::gate`.
#[derive(Args)]
#[command(
    after_help = "Exit status: 0 pass, 1 regression found (a suite case failed, the SPRT \
accepted H0, or the budget ran out with LLR < 0 and the Elo interval below 0), 2 could not run \
(bad input, unreadable suites, a failed build), 130 interrupted (Ctrl-C, SIGTERM: no \
verdict).\n\nExamples:\n  wuzi-arena gate\n  wuzi-arena gate --candidate 'params=new.toml' \
--pairs 2000\n  wuzi-arena gate --baseline-ref origin/main --pairs 600"
)]
struct GateArgs {
    /// The candidate, a player spec of this build's engine [default: against a build (the
    /// recorded reference or --baseline-ref) the built brain's own defaults, and parameters that
    /// differ from this build's defaults are passed on as --set; against --baseline,
    /// params=suites/params/default.toml].
    #[arg(long, value_name = "SPEC")]
    candidate: Option<String>,
    /// The baseline, a player spec of this build (in-process games), e.g.
    /// `params=old.toml`, or a brain of the registry by name, e.g. `rapfi,nodes=20000`
    /// [default: the reference build named in --reference].
    #[arg(long, value_name = "SPEC", conflicts_with_all = ["baseline_ref", "reference"])]
    baseline: Option<String>,
    /// The file naming the reference build (the last accepted engine commit), the baseline
    /// when neither --baseline nor --baseline-ref is given.
    #[arg(long, value_name = "FILE", conflicts_with = "baseline_ref")]
    reference: Option<PathBuf>,
    /// Brain registry (TOML) for players given by name [default: $WUZI_ENGINES, else
    /// ./engines.toml, else ~/.config/wuzi/engines.toml, if there is one].
    #[arg(long, value_name = "FILE")]
    engines: Option<PathBuf>,
    /// Use another build as the baseline: check GIT_REF out into a temporary worktree, build its
    /// pbrain-wuzi (and the current tree's, as the candidate), check that each reports its
    /// commit, and play them as Gomocup brains at --nodes per move (INFO max_node).
    #[arg(long, value_name = "GIT_REF")]
    baseline_ref: Option<String>,
    /// The repository of --baseline-ref (any folder inside it).
    #[arg(long, default_value = ".")]
    repo: PathBuf,
    /// Build folder of --baseline-ref: a cargo target folder per baseline commit (its checked
    /// binary is reused by later runs) and one for the working tree [default: gate-build under
    /// CARGO_TARGET_DIR or the repository's target].
    #[arg(long)]
    build_dir: Option<PathBuf>,
    /// Cargo profile of the --baseline-ref builds (dev builds faster, plays slower).
    #[arg(long, default_value = wuzi_arena::gate::DEFAULT_BUILD_PROFILE)]
    build_profile: String,
    /// The candidate's pbrain-wuzi, already built from the working tree (e.g. the test build's
    /// target/debug/pbrain-wuzi), instead of building it; it must report HEAD's commit.
    #[arg(long, value_name = "PATH", conflicts_with = "baseline")]
    candidate_bin: Option<PathBuf>,
    /// Play even if candidate and baseline are the same player (same binary and parameters),
    /// whose mirror games prove nothing; otherwise the gate refuses with exit status 2.
    #[arg(long)]
    allow_identical: bool,
    /// Timed games for the built brains (--baseline-ref): ms per move instead of --nodes (the
    /// games are then not reproducible).
    #[arg(long)]
    move_ms: Option<u64>,
    /// A suite folder or file to run first; repeatable [default: suites/rules, suites/tactics].
    #[arg(long = "suite", value_name = "PATH")]
    suites: Vec<PathBuf>,
    /// Skip the suites.
    #[arg(long, conflicts_with = "suites")]
    no_suites: bool,
    /// Nodes per move, for players that set none.
    #[arg(long, default_value_t = wuzi_arena::gate::DEFAULT_NODES)]
    nodes: u64,
    /// Hash table per engine, MB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB)]
    hash_mb: usize,
    /// Budget: most game pairs before the budget rule decides.
    #[arg(long, default_value_t = wuzi_arena::gate::DEFAULT_PAIRS)]
    pairs: u64,
    /// SPRT `elo0,elo1[,alpha,beta]`: H0 (fail) elo0, H1 (pass) elo1.
    #[arg(long, default_value = "-20,0", allow_hyphen_values = true)]
    sprt: String,
    /// Elo model of the SPRT bounds: logistic or normalized.
    #[arg(long, default_value = "logistic", value_parser = parse_model)]
    sprt_model: EloModel,
    /// Openings: `random[:COUNT[:STONES]]`, `renju26` or a file [default: random:PAIRS:4, one
    /// random balanced 4-stone opening per pair, at most 2000].
    #[arg(long)]
    openings: Option<String>,
    /// freestyle, standard or renju.
    #[arg(long, default_value = "renju")]
    rule: Rule,
    /// Board side, 5 to 20.
    #[arg(long, default_value_t = 15)]
    size: usize,
    /// Run seed: openings and their order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Draw after this many moves (opening included).
    #[arg(long)]
    max_moves: Option<usize>,
    /// Games played at once [default: all cores].
    #[arg(long)]
    concurrency: Option<usize>,
    /// Output folder: summary.md, gate.json, charts, the run's records.
    #[arg(long, default_value = wuzi_arena::gate::DEFAULT_OUT)]
    out: PathBuf,
    /// Also append the markdown summary to this file [default: $GITHUB_STEP_SUMMARY if set].
    #[arg(long, value_name = "FILE")]
    step_summary: Option<PathBuf>,
    /// No progress bar or stage messages.
    #[arg(long)]
    quiet: bool,
}

/// A signal stopped the command (what was played is already written and the resume command
/// printed): exit status 130.
#[derive(Debug)]
struct Interrupted;

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("interrupted")
    }
}

impl std::error::Error for Interrupted {}

/// This program's command line, as one line a shell reads back the same.
fn this_command() -> String {
    wuzi_arena::run_dir::this_command("wuzi-arena")
}

/// The gate found a regression: exit status 1 (its report is already printed).
#[derive(Debug)]
struct RegressionFound;

impl std::fmt::Display for RegressionFound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("regression found")
    }
}

impl std::error::Error for RegressionFound {}

/// `wuzi-arena gate`: see [`GateArgs`] and `wuzi_arena::gate`.
fn gate_command(args: GateArgs) -> Result<()> {
    use wuzi_arena::gate::{self, Baseline, GateConfig, GateEvent, Verdict};
    let limits = PlayerLimits {
        nodes: Some(args.nodes),
        hash_mb: args.hash_mb,
        ..PlayerLimits::default()
    };
    let registry = Registry::find(args.engines.as_deref())?;
    let spec = |given: &Option<String>, file: &str| {
        PlayerSpec::parse_with(
            given.as_deref().unwrap_or(&format!("params={file}")),
            &limits,
            registry.as_ref(),
        )
    };
    // Against a built reference the candidate is the working tree's code as built, with its
    // own built-in parameters (a params file pinning every value would mask a change of the
    // built-in defaults); --candidate still applies on top.
    let baseline = match (&args.baseline, &args.baseline_ref) {
        (Some(_), _) => Baseline::Player(spec(&args.baseline, gate::DEFAULT_CANDIDATE_PARAMS)?),
        (None, Some(reference)) => Baseline::GitRef(reference.clone()),
        (None, None) => {
            let file = args
                .reference
                .clone()
                .unwrap_or_else(|| PathBuf::from(gate::DEFAULT_REFERENCE));
            let reference = gate::Reference::load(&file)?;
            if !args.quiet {
                eprintln!(
                    "gate: baseline: the reference build of {}: {} ({})",
                    file.display(),
                    reference.commit,
                    reference.what
                );
            }
            Baseline::GitRef(reference.commit)
        }
    };
    let candidate = match (&args.candidate, &baseline) {
        (None, Baseline::GitRef(_)) => PlayerSpec::parse("name=candidate", &limits)?,
        _ => spec(&args.candidate, gate::DEFAULT_CANDIDATE_PARAMS)?,
    };
    let mut config = GateConfig::new(candidate, baseline);
    config.suites = if args.no_suites {
        Vec::new()
    } else if args.suites.is_empty() {
        gate::DEFAULT_SUITES.iter().map(PathBuf::from).collect()
    } else {
        args.suites.clone()
    };
    config.game = GameSettings {
        size: args.size,
        rule: args.rule,
        max_moves: args.max_moves,
        ..GameSettings::default()
    };
    config.openings = match &args.openings {
        Some(o) => Source::parse(o, None, false)?,
        None => gate::default_openings(args.pairs),
    };
    config.pairs = args.pairs;
    config.seed = args.seed;
    config.sprt =
        SprtParams::parse(&args.sprt, args.sprt_model).map_err(wuzi_arena::ArenaError::from)?;
    config.concurrency = args.concurrency.unwrap_or_else(default_concurrency);
    config.out = args.out.clone();
    config.repo = args.repo.clone();
    config.build_dir = args.build_dir.clone();
    config.build_profile = args.build_profile.clone();
    config.move_ms = args.move_ms;
    config.candidate_bin = args.candidate_bin.clone();
    config.allow_identical = args.allow_identical;

    let bar = ProgressBar::with_draw_target(
        Some(0),
        if args.quiet || !std::io::stderr().is_terminal() {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        },
    );
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} games (budget), eta {eta} | {msg}",
        )
        .expect("valid template")
        .progress_chars("=> "),
    );
    let quiet = args.quiet;
    let openings_bar = wuzi_arena::opening::progress_bar(quiet, "random openings");
    let mut observer = |event: GateEvent<'_>| match event {
        GateEvent::Openings { done, total } => {
            wuzi_arena::opening::show_progress(&openings_bar, done, total);
            if done == total {
                openings_bar.finish_and_clear();
            }
        }
        GateEvent::Message(m) if !quiet => bar.suspend(|| eprintln!("gate: {m}")),
        GateEvent::Message(_) => {}
        GateEvent::Progress(p) => {
            bar.set_length(p.total);
            bar.set_position(p.done);
            bar.set_message(progress_message(p));
        }
    };
    let report = match gate::run_gate(&config, &mut observer) {
        Ok(report) => report,
        Err(e @ gate::GateError::Interrupted { .. }) => {
            bar.finish_and_clear();
            if let gate::GateError::Interrupted { dir: Some(dir), .. } = &e {
                write_report(dir);
            }
            // The gate has no resume: its verdict needs one uninterrupted session.
            println!("{e}");
            println!(
                "the gate starts its games afresh; run it again with: {}",
                this_command()
            );
            return Err(Interrupted.into());
        }
        Err(e) => return Err(e.into()),
    };
    bar.finish_and_clear();
    write_report(&config.out);
    print!("{}", gate::render_markdown(&report));
    let step_summary = args.step_summary.clone().or_else(|| {
        std::env::var_os("GITHUB_STEP_SUMMARY")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    });
    if let Some(path) = step_summary {
        if let Err(e) = gate::append_markdown(&path, &report) {
            eprintln!("warning: job summary not written: {e}");
        }
    }
    if !quiet {
        eprintln!(
            "gate: {} ({} games to the decision); report in {}",
            match report.verdict {
                Verdict::Pass => "PASS",
                Verdict::Fail => "FAIL",
            },
            report.games_to_decision(),
            config.out.join(gate::SUMMARY_MD).display()
        );
    }
    match report.verdict {
        Verdict::Pass => Ok(()),
        Verdict::Fail => Err(RegressionFound.into()),
    }
}
