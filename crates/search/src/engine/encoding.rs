//! A cage's combinations in the search's form: per cage position and digit, a
//! mask of the combinations that put the digit there, and for small cages each
//! combination packed in one word.

use kenken_model::{bits, Budget, Exhausted};

/// Cages of at most this many cells and parts have each combination packed in
/// one word: a 16-bit lane per cell (or part).
pub(crate) const PACKED: usize = 4;

/// Writes a cage's digit masks from its combinations (`width` digit bits each,
/// `count` of them): for cage position `pos` and digit `d`, the `nw` words at
/// `(pos * n + d) * nw` of `masks` (zeroed) mark the combinations that put `d`
/// there. When `packed` is given (a cage of at most [`PACKED`] cells), each
/// combination's digit bits also go in one word there, lane `i` for cell `i`.
/// The deadline of `budget` is looked at every [`BLOCK`] combinations.
pub(crate) fn encode(
    combos: &[u16],
    width: usize,
    n: usize,
    masks: &mut [u64],
    packed: Option<&mut [u64]>,
    budget: &mut Budget,
) -> Result<(), Exhausted> {
    let count = combos.len() / width.max(1);
    let nw = count.div_ceil(64);
    // Fixed widths for the usual cage sizes, so that a row is a few moves.
    match (width, packed) {
        (1, Some(packed)) => encode_packed::<1>(combos, n, nw, masks, packed, budget),
        (2, Some(packed)) => encode_packed::<2>(combos, n, nw, masks, packed, budget),
        (3, Some(packed)) => encode_packed::<3>(combos, n, nw, masks, packed, budget),
        (4, Some(packed)) => encode_packed::<4>(combos, n, nw, masks, packed, budget),
        _ => {
            for (k, combo) in combos.chunks_exact(width.max(1)).enumerate() {
                if k % BLOCK == BLOCK - 1 {
                    budget.check()?;
                }
                let (w, bit) = (k / 64, 1u64 << (k % 64));
                for (pos, &b) in combo.iter().enumerate() {
                    let d = b.trailing_zeros() as usize;
                    masks[(pos * n + d) * nw + w] |= bit;
                }
            }
            Ok(())
        }
    }
}

/// Combinations (or table rows) worked through between two looks at a budget
/// while a flat puzzle is built: a huge table must not hold a deadline up.
pub(super) const BLOCK: usize = 4096;

/// [`encode`] for a cage of `W` cells, packed.
fn encode_packed<const W: usize>(
    combos: &[u16],
    n: usize,
    nw: usize,
    masks: &mut [u64],
    packed: &mut [u64],
    budget: &mut Budget,
) -> Result<(), Exhausted> {
    for (k, (combo, word)) in combos.chunks_exact(W).zip(packed).enumerate() {
        if k % BLOCK == BLOCK - 1 {
            budget.check()?;
        }
        let combo: &[u16; W] = combo.try_into().expect("rows have the cage's width");
        let (w, bit) = (k / 64, 1u64 << (k % 64));
        let mut cells = 0u64;
        for (pos, &b) in combo.iter().enumerate() {
            let d = b.trailing_zeros() as usize;
            masks[(pos * n + d) * nw + w] |= bit;
            cells |= u64::from(b) << (16 * pos);
        }
        *word = cells;
    }
    Ok(())
}

/// Per packed combination, the digits it puts in each of the cage's parts (lane
/// `i` for part `i`, whose cage positions are the bits of `part_pos[i]`; unused
/// lanes all ones).
pub(super) fn pack_parts(packed: &[u64], part_pos: &[u8], out: &mut [u64]) {
    // Per part, the lanes of its positions.
    let mut lanes = [0u64; PACKED];
    for (lane, &positions) in lanes.iter_mut().zip(part_pos) {
        for p in bits::ones(u64::from(positions)) {
            *lane |= 0xFFFF << (16 * p);
        }
    }
    let lanes = &lanes[..part_pos.len()];
    for (&cells, out) in packed.iter().zip(out) {
        let mut in_parts = u64::MAX;
        for (i, &lane) in lanes.iter().enumerate() {
            let x = cells & lane;
            let here = (x | x >> 16 | x >> 32 | x >> 48) & 0xFFFF;
            in_parts &= !(0xFFFF << (16 * i)) | here << (16 * i);
        }
        *out = in_parts;
    }
}
