//! The 26 canonical renju openings (RIF numbering), centred on a board.

use wuzi_engine::Pos;

use super::moves::{dedupe, from_offset, with_symmetries, Opening};
use crate::error::{GamesError, Result};

/// A row of [`RENJU26`]: id, romaji name, offsets of the three stones.
pub type RenjuOpening = (&'static str, &'static str, [(i32, i32); 3]);

/// The 26 canonical renju openings (RIF numbering): id, romaji name and the offsets of the
/// three stones from the centre (`x` right, `y` up), black, white, black. Transcribed from
/// `shared/data/openings/renju26.csv` (a unit test checks the two agree when it is present).
pub const RENJU26: [RenjuOpening; 26] = [
    ("1D", "Kansei", [(0, 0), (0, 1), (0, 2)]),
    ("2D", "Keigetsu", [(0, 0), (0, 1), (1, 2)]),
    ("3D", "Sosei", [(0, 0), (0, 1), (2, 2)]),
    ("4D", "Kagetsu", [(0, 0), (0, 1), (1, 1)]),
    ("5D", "Zangetsu", [(0, 0), (0, 1), (2, 1)]),
    ("6D", "Ugetsu", [(0, 0), (0, 1), (1, 0)]),
    ("7D", "Kinsei", [(0, 0), (0, 1), (2, 0)]),
    ("8D", "Shogetsu", [(0, 0), (0, 1), (0, -1)]),
    ("9D", "Kyugetsu", [(0, 0), (0, 1), (1, -1)]),
    ("10D", "Shingetsu", [(0, 0), (0, 1), (2, -1)]),
    ("11D", "Zuisei", [(0, 0), (0, 1), (0, -2)]),
    ("12D", "Sangetsu", [(0, 0), (0, 1), (1, -2)]),
    ("13D", "Yusei", [(0, 0), (0, 1), (2, -2)]),
    ("1I", "Chosei", [(0, 0), (1, 1), (2, 2)]),
    ("2I", "Kyogetsu", [(0, 0), (1, 1), (2, 1)]),
    ("3I", "Kosei", [(0, 0), (1, 1), (2, 0)]),
    ("4I", "Suigetsu", [(0, 0), (1, 1), (2, -1)]),
    ("5I", "Ryusei", [(0, 0), (1, 1), (2, -2)]),
    ("6I", "Ungetsu", [(0, 0), (1, 1), (1, 0)]),
    ("7I", "Hogetsu", [(0, 0), (1, 1), (1, -1)]),
    ("8I", "Rangetsu", [(0, 0), (1, 1), (1, -2)]),
    ("9I", "Gingetsu", [(0, 0), (1, 1), (0, -1)]),
    ("10I", "Myojo", [(0, 0), (1, 1), (0, -2)]),
    ("11I", "Shagetsu", [(0, 0), (1, 1), (-1, -1)]),
    ("12I", "Meigetsu", [(0, 0), (1, 1), (-1, -2)]),
    ("13I", "Suisei", [(0, 0), (1, 1), (-2, -2)]),
];

/// The 26 renju openings as listed (one symmetry each), centred on a `size` board.
pub fn renju26_base(size: usize) -> Result<Vec<Opening>> {
    RENJU26
        .iter()
        .map(|(id, _, offsets)| {
            let moves = offsets
                .iter()
                .map(|&(dx, dy)| from_offset(size, dx, dy))
                .collect::<Option<Vec<Pos>>>()
                .ok_or_else(|| GamesError::Opening {
                    source_name: "renju26".into(),
                    line: None,
                    message: format!("opening {id} does not fit a {size}x{size} board"),
                })?;
            Ok(Opening {
                id: (*id).to_string(),
                moves,
            })
        })
        .collect()
}

/// The 26 renju openings in all 8 board symmetries, symmetric duplicates removed (184 on an
/// odd-sized board: the 6 openings with a mirror axis have 4 distinct images, the others 8).
pub fn renju26(size: usize) -> Result<Vec<Opening>> {
    Ok(dedupe(&with_symmetries(&renju26_base(size)?, size), size).0)
}
#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::path::Path;
    use wuzi_engine::Rule;

    #[test]
    fn renju26_has_184_distinct_positions() {
        let base = renju26_base(15).expect("fits");
        assert_eq!(base.len(), 26);
        assert_eq!(base[0].notation(), "h8 h9 h10");
        assert_eq!(base[25].notation(), "h8 i9 f6");
        let all = with_symmetries(&base, 15);
        assert_eq!(all.len(), 208);
        let (kept, removed) = dedupe(&all, 15);
        // 1D, 8D, 11D, 1I, 11I and 13I lie on a mirror axis: 4 images each.
        assert_eq!(kept.len(), 6 * 4 + 20 * 8);
        assert_eq!(removed, 24);
        assert_eq!(renju26(15).expect("fits"), kept);
        // Every kept position is distinct; up to symmetry they are the 26 openings.
        let keys: HashSet<_> = kept.iter().map(|o| o.position_key(15)).collect();
        assert_eq!(keys.len(), kept.len());
        let classes: HashSet<_> = kept.iter().map(|o| o.canonical_key(15)).collect();
        assert_eq!(classes.len(), 26);
        // 1D (h8 h9 h10) lies on the vertical axis: its mirror image is itself.
        assert_eq!(all[4].notation(), "h8 h9 h10");
        assert!(kept.iter().all(|o| o.id != "1D/s4"));
        for o in &kept {
            o.check(15, Rule::Renju).expect("legal");
            assert_eq!(o.moves[0], Pos::new(7, 7), "{o}");
        }
    }

    #[test]
    fn table_matches_the_shared_csv() {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/openings/renju26.csv");
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("skipped: {} not found", path.display());
            return;
        };
        let rows: Vec<&str> = text.lines().skip(1).filter(|l| !l.is_empty()).collect();
        assert_eq!(rows.len(), 26);
        let base = renju26_base(15).expect("fits");
        for ((row, (id, name, _)), o) in rows.iter().zip(RENJU26).zip(&base) {
            let cols: Vec<&str> = row.split(',').collect();
            assert_eq!(cols[0], id);
            assert_eq!(cols[2], name);
            let moves = format!("{} {} {}", cols[5], cols[6], cols[7]);
            assert_eq!(o.notation(), moves, "{id}");
        }
    }
}
