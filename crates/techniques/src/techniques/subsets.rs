//! k-subsets of position masks whose union has exactly k positions: the search
//! behind hidden subsets (digits over cells) and fish (lines over lines).

/// Calls `found` with each k-subset of `masks` (as ascending indices, in
/// lexicographic order) whose masks' union has exactly k bits, until it returns
/// `Some`. A partial subset whose union already has more than k bits is not
/// extended, so the search stays far below C(len, k); nothing is allocated.
pub fn first_tight_subset<T>(
    masks: &[u32],
    k: usize,
    mut found: impl FnMut(&[usize], u32) -> Option<T>,
) -> Option<T> {
    let mut picked = [0usize; 32];
    extend(masks, k, 0, 0, &mut picked, 0, &mut found)
}

fn extend<T>(
    masks: &[u32],
    k: usize,
    from: usize,
    union: u32,
    picked: &mut [usize; 32],
    depth: usize,
    found: &mut impl FnMut(&[usize], u32) -> Option<T>,
) -> Option<T> {
    if depth == k {
        return if union.count_ones() as usize == k {
            found(&picked[..k], union)
        } else {
            None
        };
    }
    // Leave room for the picks still to come.
    for i in from..=masks.len().saturating_sub(k - depth) {
        if i >= masks.len() {
            break;
        }
        let u = union | masks[i];
        if u.count_ones() as usize > k {
            continue;
        }
        picked[depth] = i;
        if let Some(t) = extend(masks, k, i + 1, u, picked, depth + 1, found) {
            return Some(t);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use itertools::Itertools;

    #[test]
    fn same_subsets_in_the_same_order_as_all_combinations() {
        // Pseudo-random masks over 9 positions; every k.
        let mut x = 12345u32;
        let masks: Vec<u32> = (0..9)
            .map(|_| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                (x >> 7) & 0x1ff & ((x >> 19) | (x >> 3))
            })
            .collect();
        for k in 1..=9 {
            let expected: Vec<Vec<usize>> = (0..masks.len())
                .combinations(k)
                .filter(|c| c.iter().fold(0, |u, &i| u | masks[i]).count_ones() as usize == k)
                .collect();
            let mut got = Vec::new();
            let none: Option<()> = first_tight_subset(&masks, k, |s, u| {
                assert_eq!(u, s.iter().fold(0, |u, &i| u | masks[i]));
                got.push(s.to_vec());
                None
            });
            assert!(none.is_none());
            assert_eq!(got, expected, "k = {k}");
        }
    }
}
