//! Running a gate: suites, then the match against the baseline, its charts and reports
//! ([`run_gate`]).
use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use super::build::{build_brains, BuiltBrains};
use super::config::{
    Baseline, EngineGate, GateConfig, BASELINE, BRAIN_BIN, CANDIDATE, MATCH_DIR, REPORT_JSON,
    SCORE_CHART, SPRT_CHART, SUMMARY_MD,
};
use super::engine_build::build_engine_brains;
use super::error::GateError;
use super::markdown::{fmt_num, write_gate_files};
use super::results::GateEvent;
use super::results::{GateReport, MatchReport, SuiteResult};
use super::verdict::{budget_verdict, Decision, Verdict};
use wuzi_engine::suite::{self};

use wuzi_charts::{self, ChartError, ScoreEntry, SprtPoint, SprtSpec};
use wuzi_games::opening::Opening;
use wuzi_games::record::GAMES_FILE;
use wuzi_players::{PlayerKind, PlayerLimits, PlayerSpec};
use wuzi_runs::config::{Matchup, OpeningOrder, RunConfig, RunKind, FORMAT_VERSION, RUN_FILE};
use wuzi_runs::error::ArenaError;
use wuzi_runs::run::{load_run_records, run, RunOptions, SUMMARY_FILE};
use wuzi_runs::summary::{GameLite, GameMap, Tally};
use wuzi_stats::{llr, sprt_status, Estimate, SprtVerdict, Wdl};

/// Runs the gate: suites, then games, then the report files in `config.out`.
pub fn run_gate(
    config: &GateConfig,
    observer: &mut dyn FnMut(GateEvent<'_>),
) -> Result<GateReport, GateError> {
    let start = Instant::now();
    let engine = config.engine.as_ref();
    // Another engine's candidate is its built brain: the spec gives only its limits.
    let params = match (engine, config.candidate.params()) {
        (Some(_), _) => None,
        (None, Some(p)) => Some(p?),
        (None, None) => {
            return Err(GateError::Config(format!(
                "the candidate must be the wuzi engine with parameters (params=FILE, set=...), \
                 not '{}'",
                config.candidate
            )))
        }
    };
    if config.pairs == 0 || config.pairs > wuzi_runs::config::MAX_PAIRS {
        return Err(GateError::Config(format!(
            "--pairs must be 1..={}, got {}",
            wuzi_runs::config::MAX_PAIRS,
            config.pairs
        )));
    }
    config.sprt.validate().map_err(ArenaError::from)?;
    if config.concurrency == 0 {
        return Err(GateError::Config("--concurrency must be at least 1".into()));
    }
    let mut candidate = config.candidate.clone();
    candidate.name = CANDIDATE.into();
    candidate.validate()?;
    // Openings and the run settings are checked before the suites and any build.
    let (openings, openings_source, _) = config.openings.load_with(
        config.game.size,
        config.game.rule,
        config.seed,
        Some(config.pairs),
        &mut |done, total| observer(GateEvent::Openings { done, total }),
    )?;
    let mut stand_in = match &config.baseline {
        Baseline::Player(b) => b.clone(),
        Baseline::GitRef(_) => candidate.clone(),
    };
    stand_in.name = BASELINE.into();
    if let Baseline::Player(b) = &config.baseline {
        if !config.allow_identical && candidate.same_player_as(b) {
            return Err(GateError::IdenticalPlayers(describe_player(&candidate)));
        }
    }
    run_config(
        config,
        [candidate.clone(), stand_in],
        openings.clone(),
        openings_source.clone(),
    )?;
    // The output folder is cleared only once the games can start (or the suites have failed):
    // a build that fails, or a refused pair of players, leaves the last gate's report and games
    // as they were.
    let prebuilt = match (engine, &config.baseline) {
        (Some(e), Baseline::GitRef(r)) => Some(build_engine_brains(config, e, r, observer)?),
        (Some(e), Baseline::Player(_)) => {
            return Err(GateError::Config(format!(
                "--engine {}: the baseline is a commit of its repository (--baseline-ref REF)",
                e.brain.name
            )))
        }
        (None, _) => None,
    };

    let mut suites = Vec::new();
    let mut notes = Vec::new();
    if let Some(e) = engine {
        notes.push(format!(
            "no suites: wuzi's rule and tactics suites test wuzi's own engine in process and do \
             not apply to {}; its strength is judged by the games alone",
            e.brain.name
        ));
    }
    // Only wuzi's own candidate has parameters to run the suites with.
    let suite_paths = if params.is_some() {
        &config.suites[..]
    } else {
        &[]
    };
    for path in suite_paths {
        let Some(params) = &params else { break };
        observer(GateEvent::Message(&format!("suite {}", path.display())));
        let report = suite::run(std::slice::from_ref(path), params)?;
        if report.passed == 0 && report.failures.is_empty() {
            return Err(GateError::EmptySuite(path.clone()));
        }
        let result = SuiteResult {
            path: path.clone(),
            passed: report.passed,
            failures: report.failures.iter().map(ToString::to_string).collect(),
        };
        observer(GateEvent::Message(&format!(
            "suite {}: {} passed, {} failed",
            path.display(),
            result.passed,
            result.failures.len()
        )));
        suites.push(result);
    }
    let suite_failures: usize = suites.iter().map(|s| s.failures.len()).sum();

    let mut report = GateReport {
        verdict: Verdict::Pass,
        decision: Decision::SuitesFailed,
        reason: String::new(),
        candidate: describe_player(&candidate),
        baseline: match &config.baseline {
            Baseline::Player(p) => describe_player(p),
            Baseline::GitRef(r) => format!("{} built from {r}", brain_label(config)),
        },
        candidate_commit: None,
        baseline_commit: None,
        settings: String::new(),
        suites,
        games: None,
        charts: Vec::new(),
        warnings: Vec::new(),
        notes,
        elapsed_s: 0.0,
    };

    if suite_failures > 0 {
        prepare_out(&config.out)?;
        report.decision = Decision::SuitesFailed;
        report.verdict = Verdict::Fail;
        report.reason = format!("{suite_failures} suite case(s) failed; no games were played");
    } else {
        let identical_params = candidate.params_diff().is_empty();
        let (players, built) = gate_players(config, candidate, prebuilt, observer)?;
        if let Some(built) = &built {
            // The same clean commit with the brain's own parameters: one binary against itself.
            let (c, b) = (&built.candidate.commit, &built.baseline.commit);
            if !config.allow_identical && identical_params && !c.dirty && c.hash == b.hash {
                return Err(GateError::IdenticalPlayers(format!(
                    "{} of commit {} on both sides, with its built-in parameters",
                    brain_label(config),
                    c.stamp()
                )));
            }
            let source = match engine.and_then(|e| e.candidate_ref.as_deref()) {
                Some(r) => r.to_string(),
                None => "the working tree".to_string(),
            };
            report.candidate = format!(
                "{} built from {source} (commit {}{}); {}",
                brain_label(config),
                built.candidate.commit.stamp(),
                if built.candidate.reused {
                    ", cached build"
                } else {
                    ""
                },
                describe_player(&players[0])
            );
            report.baseline = format!(
                "{} (commit {}{}); {}",
                report.baseline,
                built.baseline.commit.stamp(),
                if built.baseline.reused {
                    ", cached build"
                } else {
                    ""
                },
                describe_player(&players[1])
            );
            report.candidate_commit = Some(built.candidate.commit.stamp());
            report.baseline_commit = Some(built.baseline.commit.stamp());
        }
        let run_config = run_config(config, players, openings, openings_source)?;
        prepare_out(&config.out)?;
        if wuzi_runs::interrupt::requested() {
            // Stopped during the suites or the builds: no game was played.
            return Err(GateError::Interrupted {
                games: 0,
                planned: 2 * config.pairs,
                dir: None,
            });
        }
        report.settings = describe_settings(&run_config);
        observer(GateEvent::Message(&format!(
            "games: {}; budget {} pairs; SPRT [{}, {}] {} Elo",
            report.settings, config.pairs, config.sprt.elo0, config.sprt.elo1, config.sprt.model
        )));
        let games = play(config, &run_config, observer)?;
        let (decision, reason) = match games.decided {
            Some((SprtVerdict::AcceptH1, pairs)) => (
                Decision::SprtH1,
                format!(
                    "SPRT accepted H1 (Elo {}: no regression) after {pairs} pairs ({} games)",
                    fmt_num(config.sprt.elo1),
                    2 * pairs
                ),
            ),
            Some((_, pairs)) => (
                Decision::SprtH0,
                format!(
                    "SPRT accepted H0 (Elo {}: a regression) after {pairs} pairs ({} games)",
                    fmt_num(config.sprt.elo0),
                    2 * pairs
                ),
            ),
            None => {
                let d = budget_verdict(&games.report.penta, &config.sprt);
                let how = if d == Decision::BudgetFail {
                    "the LLR leans to H0 and the Elo interval lies below 0"
                } else {
                    "no significant regression (pass unless LLR < 0 and the Elo interval lies \
                     below 0)"
                };
                (
                    d,
                    format!(
                        "budget of {} pairs used up without an SPRT decision: {how}",
                        config.pairs
                    ),
                )
            }
        };
        report.decision = decision;
        report.verdict = decision.verdict();
        report.reason = reason;
        write_charts(config, &games.report, &mut report);
        report.games = Some(games.report);
    }
    report.elapsed_s = start.elapsed().as_secs_f64();
    write_gate_files(&config.out, &report)?;
    Ok(report)
}

/// Removes the files an earlier gate left in `out` (only those the gate writes).
pub(crate) fn prepare_out(out: &Path) -> Result<(), GateError> {
    std::fs::create_dir_all(out).map_err(|e| GateError::io(out, e))?;
    let mut stale = vec![out.join(SUMMARY_MD), out.join(REPORT_JSON)];
    for stem in [SPRT_CHART, SCORE_CHART] {
        let (png, svg) = wuzi_charts::output_paths(&out.join(stem));
        stale.extend([png, svg]);
    }
    let dir = out.join(MATCH_DIR);
    stale.extend([RUN_FILE, GAMES_FILE, SUMMARY_FILE].map(|f| dir.join(f)));
    for path in stale {
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(GateError::io(path, e))
            }
            _ => {}
        }
    }
    Ok(())
}

/// What the built brains are called in the report: the gated engine's name, or `pbrain-wuzi`.
fn brain_label(config: &GateConfig) -> &str {
    config.engine.as_ref().map_or(BRAIN_BIN, |e| &e.brain.name)
}

/// The two players of the games, and the built brains for a built baseline (`prebuilt`: the
/// brains of another engine, built already).
pub(crate) fn gate_players(
    config: &GateConfig,
    candidate: PlayerSpec,
    prebuilt: Option<BuiltBrains>,
    observer: &mut dyn FnMut(GateEvent<'_>),
) -> Result<([PlayerSpec; 2], Option<BuiltBrains>), GateError> {
    if let (Some(engine), Some(built)) = (&config.engine, prebuilt) {
        let players = engine_players(config, engine, &built, &candidate)?;
        return Ok((players, Some(built)));
    }
    match &config.baseline {
        Baseline::Player(b) => {
            let mut baseline = b.clone();
            baseline.name = BASELINE.into();
            Ok(([candidate, baseline], None))
        }
        Baseline::GitRef(reference) => {
            let built = build_brains(config, reference, observer)?;
            let limits = |p: &PlayerSpec| brain_limits(config, &p.limits);
            let sets: Vec<String> = candidate
                .params_diff()
                .iter()
                .map(|(k, v)| format!("--set={k}={v}"))
                .collect();
            let cand = PlayerSpec {
                name: CANDIDATE.into(),
                kind: PlayerKind::External {
                    command: built.candidate.path.display().to_string(),
                    args: sets,
                    workdir: None,
                    // Our own brain reads every command whole: no settle gap needed.
                    options: own_brain_options(),
                },
                limits: limits(&candidate),
            };
            let base = PlayerSpec {
                name: BASELINE.into(),
                kind: PlayerKind::External {
                    command: built.baseline.path.display().to_string(),
                    args: Vec::new(),
                    workdir: None,
                    options: own_brain_options(),
                },
                limits: limits(&candidate),
            };
            cand.validate()?;
            base.validate()?;
            Ok(([cand, base], Some(built)))
        }
    }
}

/// The players of an engine gate: both built brains with the registry entry's arguments,
/// protocol options and working folder (by default the brain's own folder, where a build may
/// have installed the files it reads), at the gate's limits ([`brain_limits`]).
fn engine_players(
    config: &GateConfig,
    engine: &EngineGate,
    built: &BuiltBrains,
    candidate: &PlayerSpec,
) -> Result<[PlayerSpec; 2], GateError> {
    let limits = brain_limits(config, &candidate.limits);
    if limits.nodes.is_some() && !engine.brain.supports("max_node") {
        return Err(GateError::Config(format!(
            "brain '{}' does not list max_node in its extensions: the gate's --nodes limit \
             would be ignored; give --move-ms MS for timed games",
            engine.brain.name
        )));
    }
    let player = |name: &str, path: &Path| PlayerSpec {
        name: name.into(),
        kind: PlayerKind::External {
            command: path.display().to_string(),
            args: engine.brain.args.clone(),
            workdir: engine
                .brain
                .dir
                .clone()
                .or_else(|| path.parent().map(Path::to_path_buf)),
            options: Box::new(engine.brain.options.clone()),
        },
        limits: limits.clone(),
    };
    let players = [
        player(CANDIDATE, &built.candidate.path),
        player(BASELINE, &built.baseline.path),
    ];
    for p in &players {
        p.validate()?;
    }
    Ok(players)
}

/// Protocol options for `pbrain-wuzi` builds: it reads every command whole, so no settle
/// gap slows node-limited games.
pub(crate) fn own_brain_options() -> Box<wuzi_players::external::BrainOptions> {
    Box::new(wuzi_players::external::BrainOptions {
        settle_ms: Some(0),
        ..Default::default()
    })
}

/// The limits of both built brains: the candidate's node and depth limits (sent to the brains
/// as `INFO max_node`/`INFO max_depth`, under which `pbrain-wuzi` searches on one thread and
/// ignores the clock, so the games are reproducible), or `move_ms` per move when set.
pub(crate) fn brain_limits(config: &GateConfig, candidate: &PlayerLimits) -> PlayerLimits {
    match config.move_ms {
        Some(ms) => PlayerLimits {
            move_ms: Some(ms),
            threads: candidate.threads,
            hash_mb: candidate.hash_mb,
            ..PlayerLimits::default()
        },
        None => PlayerLimits {
            nodes: candidate.nodes,
            depth: candidate.depth,
            threads: 1,
            hash_mb: candidate.hash_mb,
            ..PlayerLimits::default()
        },
    }
}

/// The match configuration of the gate, validated.
pub(crate) fn run_config(
    config: &GateConfig,
    players: [PlayerSpec; 2],
    openings: Vec<Opening>,
    openings_source: String,
) -> Result<RunConfig, GateError> {
    let run = RunConfig {
        format: FORMAT_VERSION,
        kind: RunKind::Match,
        game: config.game.clone(),
        players: players.into(),
        matchups: vec![Matchup {
            first: 0,
            second: 1,
        }],
        openings_source,
        openings,
        order: OpeningOrder::Random,
        pairs: config.pairs,
        seed: config.seed,
        sprt: Some(config.sprt),
        shard: None,
        sweep: None,
        log_io: false,
    };
    run.validate()?;
    Ok(run)
}

/// A player for the report: its parameters (file, and the values that differ from the
/// built-in defaults) or program, and its limits.
pub fn describe_player(p: &PlayerSpec) -> String {
    let what = match &p.kind {
        PlayerKind::Engine { params, file } => {
            let mut text = file
                .as_ref()
                .map_or("built-in parameters".to_string(), |f| {
                    f.display().to_string()
                });
            if !params.is_empty() {
                let diff: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
                let _ = write!(
                    text,
                    " (differs from the built-in defaults: {})",
                    diff.join(" ")
                );
            }
            text
        }
        PlayerKind::External { command, args, .. } => {
            let mut text = command.clone();
            for a in args {
                text.push(' ');
                text.push_str(a);
            }
            text
        }
        _ => p.to_string(),
    };
    format!("{what}; {}", p.limits.describe())
}

/// `renju 15x15; candidate nodes 2000, baseline nodes 2000; openings: ...; seed 1`.
pub(crate) fn describe_settings(run: &RunConfig) -> String {
    let limits: Vec<String> = run
        .players
        .iter()
        .map(|p| format!("{} {}", p.name, p.limits.describe()))
        .collect();
    format!(
        "{} {}x{}; {}; openings: {} ({}); seed {}",
        run.game.rule,
        run.game.size,
        run.game.size,
        limits.join(", "),
        run.openings_source,
        run.openings.len(),
        run.seed
    )
}

/// The played games and where the SPRT decided.
pub(crate) struct Played {
    report: MatchReport,
    decided: Option<(SprtVerdict, u64)>,
}

/// Plays the games into `out/match` and gathers the statistics.
pub(crate) fn play(
    config: &GateConfig,
    run_config: &RunConfig,
    observer: &mut dyn FnMut(GateEvent<'_>),
) -> Result<Played, GateError> {
    let dir = config.out.join(MATCH_DIR);
    let opts = RunOptions {
        concurrency: config.concurrency,
        out: Some(dir.clone()),
        resume: false,
    };
    let started = Instant::now();
    let outcome = run(run_config, &opts, &mut |p| observer(GateEvent::Progress(p)))?;
    if outcome.interrupted {
        return Err(GateError::Interrupted {
            games: outcome.summary.games_finished,
            planned: outcome.summary.games_planned,
            dir: Some(dir),
        });
    }
    let elapsed_s = started.elapsed().as_secs_f64();

    // Replay the counted pairs in order for the LLR path and the per-colour results.
    let games: GameMap = load_run_records(run_config, &dir, false)?
        .iter()
        .map(|r| (r.key(), GameLite::from_record(r)))
        .collect();
    let mut tally = Tally::default();
    let mut llr_path = Vec::new();
    let (mut as_black, mut as_white) = (Wdl::default(), Wdl::default());
    for local in 0..run_config.pairs {
        let g = run_config.global_pair(0, local);
        let (Some(a), Some(b)) = (games.get(&(g, 0)), games.get(&(g, 1))) else {
            break;
        };
        tally.add_pair(a, b, run_config.sprt.as_ref());
        as_black.add_game(a.outcome_for_first());
        as_white.add_game(b.outcome_for_first());
        llr_path.push((tally.wdl.games(), llr(&tally.penta, &config.sprt)));
        if tally.decision.is_some() {
            break;
        }
    }
    let status = sprt_status(&tally.penta, &config.sprt);
    let m = outcome.summary.matchups.first();
    let report = MatchReport {
        sprt: config.sprt,
        budget_pairs: config.pairs,
        pairs: tally.pairs(),
        games: tally.wdl.games(),
        games_played: outcome.games_played,
        wdl: tally.wdl,
        as_black,
        as_white,
        penta: tally.penta,
        score: tally.penta.score_estimate(),
        elo: tally.penta.elo_estimate(),
        nelo: tally.penta.nelo_estimate(),
        llr: status.llr,
        lower: status.lower,
        upper: status.upper,
        llr_path,
        nodes_per_move: m.map_or([None, None], |m| m.nodes_per_move),
        elapsed_s,
    };
    Ok(Played {
        report,
        decided: tally.decision.map(|d| (d.verdict, d.pairs)),
    })
}

/// Draws the LLR and score charts; a chart that fails becomes a warning.
pub(crate) fn write_charts(config: &GateConfig, games: &MatchReport, report: &mut GateReport) {
    let verdict = match report.decision {
        Decision::SprtH1 => wuzi_charts::SprtVerdict::H1Accepted,
        Decision::SprtH0 => wuzi_charts::SprtVerdict::H0Accepted,
        _ => wuzi_charts::SprtVerdict::Undecided,
    };
    let spec = SprtSpec {
        elo0: config.sprt.elo0,
        elo1: config.sprt.elo1,
        lower: games.lower,
        upper: games.upper,
        verdict,
    };
    let mut points = vec![SprtPoint { games: 0, llr: 0.0 }];
    points.extend(
        games
            .llr_path
            .iter()
            .map(|&(games, llr)| SprtPoint { games, llr }),
    );
    let stem = config.out.join(SPRT_CHART);
    let title = format!(
        "Gate SPRT [{}, {}] {} Elo: candidate vs baseline",
        config.sprt.elo0, config.sprt.elo1, config.sprt.model
    );
    record_chart(
        report,
        &stem,
        wuzi_charts::sprt_chart(&stem, &title, &spec, &points),
    );

    let entry = |label: &str, e: Option<Estimate>, games: u64| {
        e.map(|e| ScoreEntry {
            label: label.to_string(),
            score: e.value,
            low: e.lower,
            high: e.upper,
            games,
        })
    };
    let entries: Vec<ScoreEntry> = [
        entry("candidate (pairs)", games.score, games.games),
        entry(
            "candidate as black",
            games.as_black.score_estimate(),
            games.as_black.games(),
        ),
        entry(
            "candidate as white",
            games.as_white.score_estimate(),
            games.as_white.games(),
        ),
    ]
    .into_iter()
    .flatten()
    .collect();
    let stem = config.out.join(SCORE_CHART);
    record_chart(
        report,
        &stem,
        wuzi_charts::score_chart(
            &stem,
            "Gate: candidate's score against the baseline",
            "",
            &entries,
        ),
    );
}

pub(crate) fn record_chart(report: &mut GateReport, stem: &Path, result: Result<(), ChartError>) {
    match result {
        Ok(()) => {
            let (png, svg) = wuzi_charts::output_paths(stem);
            report.charts.extend([png, svg]);
        }
        Err(e) => report
            .warnings
            .push(format!("chart {}: {e}", stem.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Built brains play at the candidate's node limit on one thread (reproducible), or at
    /// `move_ms` when it is set.
    #[test]
    fn built_brains_get_node_limits_unless_timed() {
        let candidate = PlayerLimits {
            nodes: Some(1500),
            threads: 4,
            hash_mb: 8,
            ..PlayerLimits::default()
        };
        let spec = PlayerSpec::engine("c", &wuzi_engine::Params::default(), candidate.clone());
        let mut config = GateConfig::new(spec, Baseline::GitRef("HEAD".into()));
        let l = brain_limits(&config, &candidate);
        assert_eq!(
            (l.nodes, l.move_ms, l.threads, l.hash_mb),
            (Some(1500), None, 1, 8)
        );
        assert!(l.is_deterministic());
        config.move_ms = Some(40);
        let l = brain_limits(&config, &candidate);
        assert_eq!((l.nodes, l.move_ms, l.threads), (None, Some(40), 4));
    }
}
