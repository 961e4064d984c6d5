//! `wuzi-tune check` and `wuzi-tune params`: what a spec sets up and what the engine offers,
//! without playing.

use std::path::Path;

use wuzi_engine::Params;

use crate::error::Result;
use crate::spec::TuneSpec;
use crate::spsa::Method;
use crate::verify::repeats_openings;

use super::{default_out, resolve_spec};

/// `wuzi-tune check --spec SPEC`: prints the resolved set-up and schedule of a spec.
pub fn check(spec: &Path) -> Result<()> {
    let parsed = TuneSpec::load(spec)?;
    let config = resolve_spec(&parsed, spec, false)?;
    wuzi_arena::outln!("{}", config.describe());
    wuzi_arena::outln!("base: {}", config.base_source);
    wuzi_arena::outln!("openings: {}", config.openings_source);
    let s = &config.spsa.schedule;
    // Under adam, a_k is the step size eta_k.
    let a = match s.method {
        Method::Fishtest => "a_1",
        Method::Adam => "eta_1",
    };
    let gain = config.spsa.params.first().map_or("r_end", |p| s.gain(p).0);
    wuzi_arena::outln!("schedule: {}", s.method);
    wuzi_arena::outln!(
        "{:<20} {:>8} {:>8} {:>8} {:>8} {:>8} {:>9} {:>9} {:>10}",
        "parameter",
        "start",
        "min",
        "max",
        "c_end",
        gain,
        "c_1",
        a,
        "max step"
    );
    for p in &config.spsa.params {
        wuzi_arena::outln!(
            "{:<20} {:>8} {:>8} {:>8} {:>8.3} {:>8.4} {:>9.3} {:>9.4} {:>10.3}",
            p.name,
            p.start,
            p.min,
            p.max,
            p.c_end,
            s.gain(p).1,
            s.c_k(p, 1),
            s.a_k(p, 1),
            s.first_step(p, config.pairs_per_iteration)
        );
    }
    wuzi_arena::outln!(
        "verify: {} pairs on {}, seed {}{}",
        config.verify.pairs,
        config
            .verify
            .openings
            .as_ref()
            .map_or("the tune's openings".to_string(), |o| format!(
                "{} ({})",
                o.source,
                o.list.len()
            )),
        config.verify.seed,
        config
            .verify
            .sprt
            .map(|s| format!(", SPRT {s} ({})", s.model))
            .unwrap_or_default()
    );
    if repeats_openings(&config) {
        wuzi_arena::outln!(
            "WARNING: the verification plays more pairs than it has openings: games \
             repeat and its Elo interval would be too narrow"
        );
    }
    wuzi_arena::outln!("output: {}", default_out(&parsed, spec).display());
    Ok(())
}

/// `wuzi-tune params`: lists the engine's parameters with their defaults and declared ranges.
pub fn params() {
    wuzi_arena::outln!(
        "{:<20} {:>8} {:>8} {:>8}  meaning",
        "name",
        "default",
        "min",
        "max"
    );
    for s in Params::SPECS {
        wuzi_arena::outln!(
            "{:<20} {:>8} {:>8} {:>8}  {}",
            s.name,
            s.default,
            s.min,
            s.max,
            s.help.trim()
        );
    }
    let t = Params::table_specs();
    wuzi_arena::outln!(
        "and {} combination table entries, {} .. {}, range {}..={} (`wuzi params \
         --table` shows their values)",
        t.len(),
        t[0].name,
        t[t.len() - 1].name,
        t[0].min,
        t[0].max
    );
}
