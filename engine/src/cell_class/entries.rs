//! A learned table's entries: a value per colour and index, 0 where none is given. The
//! threat-mask table ([`super::mask::MaskTable`]) and the pattern-code table
//! ([`super::code::CodeTable`]) are this type at their sizes.

/// `N` entries per colour, 0 where none is given. Kept canonical (a table of zeros is stored
/// as none) so that equal tables compare equal and an empty one costs nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Entries<const N: usize>(Option<Box<[[i32; N]; 2]>>);

impl<const N: usize> Entries<N> {
    /// The entry of colour index `c` at index `i`.
    #[inline]
    pub fn value(&self, c: usize, i: usize) -> i32 {
        self.0.as_ref().map_or(0, |t| t[c][i])
    }

    /// Does any entry differ from 0?
    #[inline]
    pub fn is_set(&self) -> bool {
        self.0.is_some()
    }

    /// Sets one entry (the caller checks the range).
    pub fn set(&mut self, c: usize, i: usize, value: i32) {
        let t = self.0.get_or_insert_with(|| Box::new([[0; N]; 2]));
        t[c][i] = value;
        if value == 0 && t.iter().flatten().all(|&v| v == 0) {
            self.0 = None;
        }
    }

    /// The non-zero entries, as (name, value), colour 0's first, in index order; `names` are
    /// colour 0's `N` names then colour 1's.
    pub fn named(&self, names: &[&'static str]) -> Vec<(&'static str, i32)> {
        (0..2 * N)
            .map(|i| (names[i], self.value(i / N, i % N)))
            .filter(|&(_, v)| v != 0)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_of_zeros_equals_no_table() {
        let mut t = Entries::<3>::default();
        assert!(!t.is_set());
        t.set(1, 2, 40);
        assert!(t.is_set());
        assert_eq!(t.value(1, 2), 40);
        assert_eq!(t.named(&["a", "b", "c", "d", "e", "f"]), vec![("f", 40)]);
        t.set(1, 2, 0);
        assert_eq!(t, Entries::default());
    }
}
