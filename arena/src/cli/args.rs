//! The command line: commands and their options (clap), nothing else.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use wuzi_arena::adjudication::ProofRule;
use wuzi_arena::config::OpeningOrder;
use wuzi_arena::default_match;
use wuzi_arena::opening::FileFormat;
use wuzi_arena::player::DEFAULT_HASH_MB;
use wuzi_arena::record::ExportFormat;
use wuzi_arena::stats::EloModel;
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
setup=board|turn, start-ms, end-ms, info='KEY VALUE'; parameter values set=NAME=VALUE through a \
channel params=info|args|config (param-prefix, param-arg (repeatable), param-template, param-file; \
or the registry's params = ...); the name defaults to the brain's ABOUT name).\n\nBrains by name: --player rapfi or --player rapfi,move-ms=200 (or brain=rapfi) takes the \
brain from a registry TOML file: --engines FILE, else $WUZI_ENGINES, else ./engines.toml, else \
~/.config/wuzi/engines.toml (example: suites/engines.example.toml). With a registry, a bare name \
that is not one of its brains is an error (name an engine player with name=).\n\nExit status: 0 \
when the run completes, 2 on any error (bad input, unknown brain, bad registry, unreadable files), \
130 when Ctrl-C or SIGTERM stopped it (what was played is written, marked interrupted, and the \
resume command printed; a second Ctrl-C exits at once); 1 when the gate finds a regression or a \
replay diverges from its record."
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
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
    /// Export recorded games as Piskvork PSQ files, move lists or SGF files.
    Export {
        /// A run directory or a games.jsonl file.
        input: PathBuf,
        /// psq or sgf (one file per game in the --out directory) or moves (one line per
        /// game).
        #[arg(long, default_value = "moves")]
        format: ExportFormat,
        /// Output directory (psq, sgf) or file (moves; default: standard output).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Board size, when the input has no run.json beside it.
        #[arg(long)]
        size: Option<usize>,
        /// Rule written into SGF files, when the input has no run.json beside it (default
        /// renju).
        #[arg(long)]
        rule: Option<Rule>,
    },
    /// Play one recorded game again with its players and limits (from DIR/run.json), through
    /// the referee a run uses, and compare it with its record move by move. Exit status: 0
    /// identical (same moves, same result), 1 diverged (the first divergent move is printed with
    /// both moves and scores), 2 error (no run folder, unknown game, unreadable records).
    Replay {
        /// The run directory.
        dir: PathBuf,
        /// The game: PAIR.GAME (global pair, game 0 or 1), as the report shows "pair / game".
        #[arg(long)]
        game: wuzi_arena::replay::GameId,
        /// Draw the board after each replayed move.
        #[arg(long)]
        show: bool,
    },
    /// Search every position of a run's games with an analyst and write, per move, its best
    /// move, its score for the mover, the score after the move played and the mover's loss
    /// (DIR/analysis.jsonl), then mistakes per player and the decisive mistake of each lost
    /// game (printed and DIR/analysis-summary.json). Resumable: games already complete in the
    /// file are kept. Exit status 0 done, 2 error, 130 interrupted.
    Analyze(Box<AnalyzeArgs>),
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

/// Options of `wuzi-arena analyze`.
#[derive(Args, Clone)]
pub(crate) struct AnalyzeArgs {
    /// The run directory.
    pub(crate) dir: PathBuf,
    /// The analyst: any player spec with a limit (`default,nodes=20000`,
    /// `rapfi,nodes=200000`, `name=x,cmd=./pbrain-x,move-ms=1000`).
    #[arg(long, value_name = "SPEC")]
    pub(crate) analyst: String,
    /// Only these games, `PAIR.GAME,...` (as the report shows "pair / game").
    #[arg(long, value_name = "IDS", value_delimiter = ',')]
    pub(crate) games: Vec<wuzi_arena::replay::GameId>,
    /// Only the games this player played.
    #[arg(long, value_name = "NAME")]
    pub(crate) player: Option<String>,
    /// The analysis file (default DIR/analysis.jsonl); the summary goes beside it
    /// (analysis-summary.json, or NAME-summary.json for NAME.jsonl).
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
    /// A loss (analyst's score minus the score after the move) of at least this many engine
    /// units is a blunder.
    #[arg(long, value_name = "SCORE", default_value_t = wuzi_arena::analysis::summary::DEFAULT_BLUNDER)]
    pub(crate) blunder: i32,
    /// Write the decisive-mistake positions to FILE as a tactics suite (TOML).
    #[arg(long, value_name = "FILE")]
    pub(crate) export_positions: Option<PathBuf>,
    /// Games analysed at once (default: all cores).
    #[arg(long)]
    pub(crate) concurrency: Option<usize>,
    /// Brain registry for analysts named like `rapfi` (else $WUZI_ENGINES, ./engines.toml, ...).
    #[arg(long, value_name = "FILE")]
    pub(crate) engines: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub(crate) quiet: bool,
}

/// Options of `wuzi-arena bench`.
#[derive(Args, Clone)]
pub(crate) struct BenchArgs {
    /// Pairs of the default match measured for peak memory and games/s (default: all 184; its
    /// SPRT may stop it earlier).
    #[arg(long)]
    pub(crate) default_pairs: Option<u64>,
    /// Skip the default match (memory is then that of the other measurements).
    #[arg(long)]
    pub(crate) skip_default: bool,
    /// Pairs played by one worker for the overhead measurement.
    #[arg(long, default_value_t = 6)]
    pub(crate) overhead_pairs: u64,
    /// Nodes per move of the overhead measurement.
    #[arg(long, default_value_t = 10_000)]
    pub(crate) overhead_nodes: u64,
    /// Pairs (the same fixed games each time) played with 1 worker and with --workers workers.
    #[arg(long, default_value_t = 16)]
    pub(crate) scaling_pairs: u64,
    /// Nodes per move of the scaling measurement.
    #[arg(long, default_value_t = default_match::NODES)]
    pub(crate) scaling_nodes: u64,
    /// Workers compared with one worker.
    #[arg(long, default_value_t = 2)]
    pub(crate) workers: usize,
    /// Scaling measurements alternate 1 worker / --workers this many times (the best of each
    /// is compared; the machine may be shared).
    #[arg(long, default_value_t = 2)]
    pub(crate) repeat: usize,
    /// Hash table per engine, MB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB)]
    pub(crate) hash_mb: usize,
}

/// Options shared by the run commands.
#[derive(Args, Clone)]
pub(crate) struct Common {
    /// freestyle, standard or renju.
    #[arg(long, default_value = "renju")]
    pub(crate) rule: Rule,
    /// Board side, 5 to 20.
    #[arg(long, default_value_t = 15)]
    pub(crate) size: usize,
    /// `renju26` (26 openings x 8 symmetries), `random[:COUNT[:STONES]]`, or a file of Gomocup
    /// offsets (`dx,dy, dx,dy`) or move lists (`h8 i9 j10`).
    #[arg(long, default_value = "renju26")]
    pub(crate) openings: String,
    /// Format of an opening file (default: detected).
    #[arg(long)]
    pub(crate) openings_format: Option<FileFormat>,
    /// Also play the 7 other symmetric images of every opening of a file.
    #[arg(long)]
    pub(crate) symmetries: bool,
    /// Random openings: stones are placed within this distance of the centre.
    #[arg(long, default_value_t = 3)]
    pub(crate) random_radius: usize,
    /// Random openings: largest accepted distance of the quick check search's score from the
    /// balance point.
    #[arg(long, default_value_t = 150)]
    pub(crate) random_max_score: i32,
    /// Random openings: the balance point (score of an even position for the side to move);
    /// default: the median score of a seeded sample of candidates.
    #[arg(long, allow_hyphen_values = true)]
    pub(crate) random_centre: Option<i32>,
    /// Opening order: random (seeded shuffle) or sequential.
    #[arg(long, default_value = "random", value_parser = parse_order)]
    pub(crate) order: OpeningOrder,
    /// Game pairs per matchup (default: one per opening).
    #[arg(long)]
    pub(crate) pairs: Option<u64>,
    /// Run seed: opening order, random openings, per-game seeds.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Draw after this many moves (opening included).
    #[arg(long)]
    pub(crate) max_moves: Option<usize>,
    /// Grace beyond move time or game clock before a time loss, in ms.
    #[arg(long, default_value_t = 100)]
    pub(crate) time_margin_ms: u64,
    #[command(flatten)]
    pub(crate) adjudication: AdjudicationArgs,
    /// Nodes per move, for players that do not set their own.
    #[arg(long)]
    pub(crate) nodes: Option<u64>,
    /// Depth per move, for players that do not set their own.
    #[arg(long)]
    pub(crate) depth: Option<i32>,
    /// Time per move in ms, for players that do not set their own.
    #[arg(long)]
    pub(crate) move_ms: Option<u64>,
    /// Game time and increment in ms, `GAME+INC`, for players that do not set their own.
    #[arg(long)]
    pub(crate) tc: Option<String>,
    /// Search threads per engine.
    #[arg(long, default_value_t = 1)]
    pub(crate) threads: usize,
    /// Hash table per engine, MB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB)]
    pub(crate) hash_mb: usize,
    /// SPRT `elo0,elo1[,alpha,beta]`: stop each matchup when it decides; `off`: no SPRT (the
    /// default match has `0,10`).
    #[arg(long)]
    pub(crate) sprt: Option<String>,
    /// Elo model of the SPRT bounds: logistic or normalized.
    #[arg(long, default_value = "logistic")]
    pub(crate) sprt_model: EloModel,
    /// Games played at once (default: all cores).
    #[arg(long)]
    pub(crate) concurrency: Option<usize>,
    /// Brain registry (TOML) for players given by name [default: $WUZI_ENGINES, else
    /// ./engines.toml, else ~/.config/wuzi/engines.toml, if there is one].
    #[arg(long, value_name = "FILE")]
    pub(crate) engines: Option<PathBuf>,
    /// Directory for run.json, games.jsonl and summary.json.
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
    /// Continue the run in --out (same options) without replaying finished games.
    #[arg(long, requires = "out")]
    pub(crate) resume: bool,
    /// Write every line sent to and read from each external brain, with ms since the game's
    /// start, to --out/io/pairNNNNNN-gG-COLOUR-NAME.log (one file per game and brain; kept in
    /// run.json for resume).
    #[arg(long, requires = "out")]
    pub(crate) log_io: bool,
    /// Play pairs with index % n == i only: `i/n`, or `auto/n` (SLURM_ARRAY_TASK_ID or
    /// JOB_COMPLETION_INDEX). Shards given the same --out folder write their files side by
    /// side (run-shard-I-of-N.json, games-shard-I-of-N.jsonl), read each other's records and,
    /// with --sprt, all stop when the combined SPRT decides; `summary`, `chart` and `merge`
    /// read that folder. Shards in separate folders each play all their pairs; `merge` then
    /// applies the SPRT.
    #[arg(long)]
    pub(crate) shard: Option<String>,
    /// No progress bar.
    #[arg(long)]
    pub(crate) quiet: bool,
}

/// Ending games early, shared by the run commands and the gate (kept in the run's game
/// settings, so `resume` and shards go on with them).
#[derive(Args, Clone, Default)]
pub(crate) struct AdjudicationArgs {
    /// End a game as soon as the side to move has a proven win by continuous fours (the
    /// engine's renju-exact VCF solver, NODES per position after each move, default 20000);
    /// the record says `adjudicated` with the proof line.
    #[arg(long, value_name = "vcf[:NODES]", value_parser = parse_proof)]
    pub(crate) adjudicate: Option<ProofRule>,
    /// Score the game lost for a player when, for COUNT moves of each player, it reports a
    /// score of -SCORE or below and its opponent +SCORE or above (players' own units; brains
    /// that report no score are never adjudicated).
    #[arg(long, num_args = 2, value_names = ["COUNT", "SCORE"])]
    pub(crate) resign: Option<Vec<u32>>,
    /// Draw when both players report scores within SCORE of zero for COUNT moves each, not
    /// before move FROM_MOVE (opening included; default 0).
    #[arg(long, num_args = 2..=3, value_names = ["COUNT", "SCORE", "FROM_MOVE"])]
    pub(crate) draw: Option<Vec<u32>>,
}

pub(crate) fn parse_proof(s: &str) -> std::result::Result<ProofRule, String> {
    s.parse()
}

pub(crate) fn parse_order(s: &str) -> std::result::Result<OpeningOrder, String> {
    match s.to_ascii_lowercase().as_str() {
        "random" | "shuffle" => Ok(OpeningOrder::Random),
        "sequential" | "file" => Ok(OpeningOrder::Sequential),
        _ => Err(format!("unknown order '{s}' (random or sequential)")),
    }
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
pub(crate) struct GateArgs {
    /// The candidate, a player spec of this build's engine [default: against a build (the
    /// recorded reference or --baseline-ref) the built brain's own defaults, and parameters that
    /// differ from this build's defaults are passed on as --set; against --baseline,
    /// params=suites/params/default.toml].
    #[arg(long, value_name = "SPEC")]
    pub(crate) candidate: Option<String>,
    /// The baseline, a player spec of this build (in-process games), e.g.
    /// `params=old.toml`, or a brain of the registry by name, e.g. `rapfi,nodes=20000`
    /// [default: the reference build named in --reference].
    #[arg(long, value_name = "SPEC", conflicts_with_all = ["baseline_ref", "reference"])]
    pub(crate) baseline: Option<String>,
    /// The file naming the reference build (the last accepted engine commit), the baseline
    /// when neither --baseline nor --baseline-ref is given.
    #[arg(long, value_name = "FILE", conflicts_with = "baseline_ref")]
    pub(crate) reference: Option<PathBuf>,
    /// Brain registry (TOML) for players given by name [default: $WUZI_ENGINES, else
    /// ./engines.toml, else ~/.config/wuzi/engines.toml, if there is one].
    #[arg(long, value_name = "FILE")]
    pub(crate) engines: Option<PathBuf>,
    /// Use another build as the baseline: check GIT_REF out into a temporary worktree, build its
    /// pbrain-wuzi (and the current tree's, as the candidate), check that each reports its
    /// commit, and play them as Gomocup brains at --nodes per move (INFO max_node).
    #[arg(long, value_name = "GIT_REF")]
    pub(crate) baseline_ref: Option<String>,
    /// Gate another Gomocup engine: the registry brain NAME, whose `build` and `binary` keys
    /// say how to build it, built from --baseline-ref and from --candidate-ref (or the working
    /// tree) of its repository (--repo); no suites are run.
    #[arg(
        long,
        value_name = "NAME",
        requires = "baseline_ref",
        conflicts_with_all = ["candidate", "candidate_bin", "suites", "build_profile"]
    )]
    pub(crate) engine: Option<String>,
    /// With --engine: build the candidate from this git reference instead of the working tree.
    #[arg(long, value_name = "GIT_REF", requires = "engine")]
    pub(crate) candidate_ref: Option<String>,
    /// The repository of --baseline-ref (any folder inside it).
    #[arg(long, default_value = ".")]
    pub(crate) repo: PathBuf,
    /// Build folder of --baseline-ref: a cargo target folder per baseline commit (its checked
    /// binary is reused by later runs) and one for the working tree [default: gate-build under
    /// CARGO_TARGET_DIR or the repository's target; with --engine, ~/.cache/wuzi/gate-build,
    /// a folder per engine and commit].
    #[arg(long)]
    pub(crate) build_dir: Option<PathBuf>,
    /// Cargo profile of the --baseline-ref builds (dev builds faster, plays slower).
    #[arg(long, default_value = wuzi_arena::gate::DEFAULT_BUILD_PROFILE)]
    pub(crate) build_profile: String,
    /// The candidate's pbrain-wuzi, already built from the working tree (e.g. the test build's
    /// target/debug/pbrain-wuzi), instead of building it; it must report HEAD's commit.
    #[arg(long, value_name = "PATH", conflicts_with = "baseline")]
    pub(crate) candidate_bin: Option<PathBuf>,
    /// Play even if candidate and baseline are the same player (same binary and parameters),
    /// whose mirror games prove nothing; otherwise the gate refuses with exit status 2.
    #[arg(long)]
    pub(crate) allow_identical: bool,
    /// Timed games for the built brains (--baseline-ref): ms per move instead of --nodes (the
    /// games are then not reproducible).
    #[arg(long)]
    pub(crate) move_ms: Option<u64>,
    /// A suite folder or file to run first; repeatable [default: suites/rules, suites/tactics].
    #[arg(long = "suite", value_name = "PATH")]
    pub(crate) suites: Vec<PathBuf>,
    /// Skip the suites.
    #[arg(long, conflicts_with = "suites")]
    pub(crate) no_suites: bool,
    /// Nodes per move, for players that set none.
    #[arg(long, default_value_t = wuzi_arena::gate::DEFAULT_NODES)]
    pub(crate) nodes: u64,
    /// Hash table per engine, MB.
    #[arg(long, default_value_t = DEFAULT_HASH_MB)]
    pub(crate) hash_mb: usize,
    /// Budget: most game pairs before the budget rule decides.
    #[arg(long, default_value_t = wuzi_arena::gate::DEFAULT_PAIRS)]
    pub(crate) pairs: u64,
    /// SPRT `elo0,elo1[,alpha,beta]`: H0 (fail) elo0, H1 (pass) elo1.
    #[arg(long, default_value = "-20,0", allow_hyphen_values = true)]
    pub(crate) sprt: String,
    /// Elo model of the SPRT bounds: logistic or normalized.
    #[arg(long, default_value = "logistic")]
    pub(crate) sprt_model: EloModel,
    /// Openings: `random[:COUNT[:STONES]]`, `renju26` or a file [default: random:PAIRS:4, one
    /// random balanced 4-stone opening per pair, at most 2000].
    #[arg(long)]
    pub(crate) openings: Option<String>,
    /// freestyle, standard or renju.
    #[arg(long, default_value = "renju")]
    pub(crate) rule: Rule,
    /// Board side, 5 to 20.
    #[arg(long, default_value_t = 15)]
    pub(crate) size: usize,
    /// Run seed: openings and their order.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Draw after this many moves (opening included).
    #[arg(long)]
    pub(crate) max_moves: Option<usize>,
    #[command(flatten)]
    pub(crate) adjudication: AdjudicationArgs,
    /// Games played at once [default: all cores].
    #[arg(long)]
    pub(crate) concurrency: Option<usize>,
    /// Output folder: summary.md, gate.json, charts, the run's records.
    #[arg(long, default_value = wuzi_arena::gate::DEFAULT_OUT)]
    pub(crate) out: PathBuf,
    /// Also append the markdown summary to this file [default: $GITHUB_STEP_SUMMARY if set].
    #[arg(long, value_name = "FILE")]
    pub(crate) step_summary: Option<PathBuf>,
    /// No progress bar or stage messages.
    #[arg(long)]
    pub(crate) quiet: bool,
}
