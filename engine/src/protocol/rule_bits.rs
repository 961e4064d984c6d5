//! The rule that a Gomocup `INFO rule` bit sum names.

use crate::rule::Rule;

/// The rule for a Gomocup `INFO rule` bit sum, and a note when the reading is lenient.
///
/// 4 (renju) wins over 1 (exactly five = standard); 2 alone (the continuous-game bit) is
/// read as renju as Rapfi and Yixin-Board do; 8 (caro) is not supported and played as
/// standard; 0 is freestyle.
pub fn rule_from_bits(bits: u32) -> (Rule, Option<String>) {
    if bits & 4 != 0 {
        (Rule::Renju, None)
    } else if bits & 1 != 0 {
        (Rule::Standard, None)
    } else if bits & 2 != 0 {
        (
            Rule::Renju,
            Some(format!(
                "rule {bits} read as renju (bit 2, as Rapfi and Yixin-Board do)"
            )),
        )
    } else if bits & 8 != 0 {
        (
            Rule::Standard,
            Some(format!(
                "rule {bits}: caro is not supported, playing standard (exactly five)"
            )),
        )
    } else {
        (Rule::Freestyle, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_bits() {
        assert_eq!(rule_from_bits(0), (Rule::Freestyle, None));
        assert_eq!(rule_from_bits(1), (Rule::Standard, None));
        assert_eq!(rule_from_bits(4), (Rule::Renju, None));
        assert_eq!(rule_from_bits(5).0, Rule::Renju);
        let (r, note) = rule_from_bits(2);
        assert_eq!(r, Rule::Renju);
        assert!(note.unwrap().contains("renju"));
        assert_eq!(rule_from_bits(3).0, Rule::Standard);
    }
}
