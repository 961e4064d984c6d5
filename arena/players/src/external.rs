//! External Gomocup brains as players: any `pbrain-*` program (our `pbrain-wuzi` with other
//! parameters or from another build, or a third-party engine) run as a child process.
//!
//! # Spec
//!
//! `--player 'name=rapfi,cmd=./pbrain-rapfi,arg=--flag,dir=work/rapfi,move-ms=1000'`:
//! `cmd=PATH` is the program (a bare name is looked up in `PATH`), `arg=TEXT` one command-line
//! argument (repeatable, in order; a spec item cannot contain a comma), `dir=PATH` the brain's
//! working folder (created if missing, kept afterwards; default: a fresh temporary folder per
//! player instance, removed when the player is dropped). Without `name=` the player is named
//! after the brain's `ABOUT` answer (`name="..."`), else after the program's file name. A
//! brain named in a registry file needs none of this: `--player rapfi` ([`crate::registry`]).
//!
//! Limits: `move-ms=N` (sent as `INFO timeout_turn`) and/or `tc=GAME_MS+INC_MS`
//! (`INFO timeout_match`, and `INFO time_left` before every move, the referee's clock with
//! the increments it added); `nodes=N` and `depth=N` are sent as the Yixin-Board extensions
//! `INFO max_node` and `INFO max_depth` (Rapfi and `pbrain-wuzi` honour them; with either and
//! no time limit the brain still gets `timeout_turn` [`DEFAULT_TURN_MS`] as a safety). The
//! run-wide `--nodes`/`--depth` are not applied to external players: only a spec's own.
//! `threads=` becomes `INFO thread_num`, `hash-mb=` `INFO max_memory` (the hash plus what
//! `pbrain-wuzi` keeps aside, so a `pbrain-wuzi` brain gets exactly that hash). Every record
//! says which limits the brain was given (`given`: the limit `INFO` lines). Engine options go
//! on its command line (`arg=--params=FILE.toml` for `pbrain-wuzi`), or, as values, through a
//! parameter channel ([`ParamChannel`]): `params=info|args|config` with `param-prefix=`,
//! `param-arg=` (repeatable), `param-template=`, `param-file=`, and `set=NAME=VALUE` per value.
//!
//! Protocol options ([`BrainOptions`]): `settle-ms=N` (default [`DEFAULT_SETTLE_MS`]),
//! `setup=board|turn`, `start-ms=N` (default [`DEFAULT_START_MS`]), `end-ms=N` (default
//! [`DEFAULT_END_MS`]) and `info=KEY VALUE` (repeatable, an extra `INFO` line per game; one
//! with a key the arena sends replaces the arena's line, e.g. `info=timeout_match 1000000000`
//! for a brain that cannot take the protocol's 0 for "no limit").
//!
//! # Protocol
//!
//! Per game: `START n` or `RESTART` when the process is alive, played the previous game
//! cleanly and the board size is the same (a brain that does not answer `RESTART` with `OK`
//! is killed and started afresh). A brain that answers `START` with `ERROR` (or anything it
//! says instead of `OK` that is an `ERROR`/`UNKNOWN`) loses the game as a crash; one that
//! says nothing within `start-ms` plays on, with a note in the record. Then `INFO`
//! `timeout_turn`, `timeout_match`, `max_memory`, `game_type 1`, `rule` (0 freestyle,
//! 1 standard, 4 renju), `thread_num`, `max_node`/`max_depth` when given, the extra `info=`
//! lines and `folder` (the working folder). Per move: `BEGIN` on the empty board, `TURN x,y`
//! with the opponent's reply, and for a game from an opening (or whenever the brain's view is
//! out of step) a set-up: `BOARD` with every stone in play order (1 own, 2 opponent) then
//! `DONE`, or with `setup=turn` each stone as `TURN x,y` with the brain's answer to each but
//! the last taken back (`TAKEBACK x,y`). The set-up is not charged to the brain's clock.
//!
//! **Pacing.** No command is sent sooner than the settle gap after the brain's last output
//! (some brains half-read a command that arrives just after their move); the wait is not
//! charged to either clock. A brain that keeps talking is sent its command anyway after the
//! gap plus [`SETTLE_CAP_MS`].
//!
//! **Tolerance.** Replies are read on a separate thread, so a hung brain cannot block the
//! arena, and CRLF line ends are fine. While the arena waits for a move, only `x,y` on the
//! board counts: `MESSAGE` lines are skipped (the last one is kept:
//! [`ExternalPlayer::last_message`]; `pbrain-wuzi`'s `depth`, `score` and `nodes` are read
//! from it into the move's record), `DEBUG`, `OK` and blank lines are skipped, and every other
//! line (`ERROR`, `UNKNOWN`, debug output, text with control bytes, a banner printed before
//! `START`) is kept in the game record's notes (at most [`MAX_NOTES`] per game and player) and
//! skipped. Two numbers `x,y` off the board lose as `illegal`, and an occupied point is left to
//! the referee (also `illegal`). No move within the time limit plus a grace
//! ([`DEFAULT_GRACE_MS`]) loses on time, the detail saying what the brain sent instead; a brain
//! that exits or closes its output loses as `crash`. After any such failure the process is
//! killed, and the next game starts a new one in the same working folder, so a run goes on.
//! Dropping the player sends `END` in the background and kills the brain if it has not exited
//! after `end-ms`; games go on meanwhile, and only the end of a run waits for these exits
//! ([`wait_for_exits`]). A brain runs in its own process group and is killed with the whole
//! group, so a wrapper script that does not `exec` its engine leaves nothing running.
//!
//! The brain's standard error goes to `stderr.log` in its working folder; the last line of it
//! is quoted when a brain crashes.
//!
//! **Transcript.** Every line sent and read is recorded as it passes: the last [`TAIL_LINES`]
//! of a game go to the [`crate::PlayerReport`] (the referee quotes them in the detail of a
//! loss by crash, time or illegal move), and with [`crate::Player::log_io_to`] (`--log-io`)
//! each line is written at once to the game's log file, with the ms since the game's start. A brain that reads files relative to its working folder
//! (weights, configuration) needs `dir=` set to its own folder.

mod channel;
mod containment;
mod notes;
mod options;
mod player;
mod process;
mod protocol;
mod transcript;

pub use channel::ParamChannel;
pub use containment::{contain_brains, TAG_VAR};
pub use options::{BrainOptions, SetupMode, DEFAULT_END_MS, DEFAULT_SETTLE_MS, DEFAULT_START_MS};
pub use player::{
    query_about, ExternalPlayer, DEFAULT_GRACE_MS, DEFAULT_TURN_MS, MAX_NOTES, START_TIMEOUT_MS,
    TAKEBACK_WAIT_MS,
};
pub use process::{
    kill_all, read_capped_line, resolve_program, wait_for_exits, MAX_LINE, SETTLE_CAP_MS,
    STDERR_LOG,
};
pub use protocol::{
    about_name, classify, max_memory_bytes, parse_about, parse_move, parse_stats, quote, rule_bits,
    Line, MAX_ABOUT_NAME, QUOTE,
};
pub use transcript::TAIL_LINES;
