//! `wuzi-arena gate`: suites, then an SPRT against the baseline.

use std::path::PathBuf;

use super::args::GateArgs;
use super::outcome::{this_command, Interrupted, RegressionFound};
use super::run::{progress_message, write_report};
use anyhow::Result;
use wuzi_arena::opening::Source;
use wuzi_arena::player::{PlayerLimits, PlayerSpec};
use wuzi_arena::referee::GameSettings;
use wuzi_arena::registry::Registry;
use wuzi_arena::run::default_concurrency;
use wuzi_arena::stats::SprtParams;

/// `wuzi-arena gate`: see [`GateArgs`] and `wuzi_arena::gate`.
pub(crate) fn gate_command(args: GateArgs) -> Result<()> {
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
    let engine = match &args.engine {
        Some(name) => {
            let Some(registry) = registry.as_ref() else {
                anyhow::bail!(
                    "--engine {name}: no brain registry (give --engines FILE or set {})",
                    wuzi_arena::registry::ENV_VAR
                );
            };
            let brain = registry.get(name)?.clone();
            if brain.build.is_none() {
                anyhow::bail!(
                    "--engine {name}: brain '{name}' of {} has no build recipe (add build = \
                     \"...\" and binary = \"...\" to its entry)",
                    registry.path().display()
                );
            }
            Some(gate::EngineGate {
                brain,
                candidate_ref: args.candidate_ref.clone(),
            })
        }
        None => None,
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
    super::adjudication::apply(&args.adjudication, &mut config.game)?;
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
    config.engine = engine;

    let bar = wuzi_arena::progress::bar(
        args.quiet,
        "{elapsed_precise} [{bar:30}] {pos}/{len} games (budget), eta {eta} | {msg}",
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
            wuzi_arena::outln!("{e}");
            wuzi_arena::outln!(
                "the gate starts its games afresh; run it again with: {}",
                this_command()
            );
            return Err(Interrupted.into());
        }
        Err(e) => return Err(e.into()),
    };
    bar.finish_and_clear();
    write_report(&config.out);
    wuzi_arena::out!("{}", gate::render_markdown(&report));
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
