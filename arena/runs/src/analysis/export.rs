//! Decisive-mistake positions as a tactics suite (the format of `suites/tactics/*.toml`,
//! read by `wuzi_engine::suite`), for review as regression candidates: the position as its
//! moves, the side to move, the analyst's move as the answer (`best`) and the move played as
//! the one to avoid (`avoid`). Nothing here is checked beyond the analyst's word, so the file
//! is a list of candidates, not a suite to gate on as it is.

use wuzi_engine::Rule;

use super::summary::Decisive;

/// A TOML basic string (JSON's escapes are a subset TOML reads).
fn quoted(text: &str) -> String {
    serde_json::to_string(text).expect("strings serialize")
}

/// The suite file text for `decisive` (those without an analyst's move are left out: they
/// have no answer). `nodes` is the node budget written into each case (the analyst's, when it
/// had one).
pub fn suite_text(
    decisive: &[Decisive],
    rule: Rule,
    size: usize,
    analyst: &str,
    nodes: Option<u64>,
) -> String {
    let mut out = format!(
        "# Decisive mistakes found by `wuzi-arena analyze` (analyst {analyst}): the analyst's\n\
         # move is the answer, the move played is to be avoided. Candidates for review.\n\
         rule = \"{rule}\"\nsize = {size}\n"
    );
    for d in decisive {
        let Some(best) = &d.best else { continue };
        out.push_str(&format!(
            "\n[[case]]\nname = {}\nsource = {}\nmoves = {}\nto_move = \"{}\"\nbest = \"{best}\"\n\
             avoid = \"{}\"\n",
            quoted(&format!(
                "game {}.{} move {}: {} {} played {}, analyst {best}",
                d.pair,
                d.game,
                d.ply + 1,
                d.colour,
                d.player,
                d.played
            )),
            quoted(&format!("wuzi-arena analyze, analyst {analyst}")),
            quoted(&d.position),
            d.colour,
            d.played
        ));
        if let Some(n) = nodes {
            out.push_str(&format!("nodes = {n}\n"));
        }
    }
    out
}
