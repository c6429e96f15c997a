//! Seeds: every attempt draws from its own generator, seeded from the run's seed
//! and the attempt's index alone, so an attempt's puzzle does not depend on which
//! thread ran it or on what other attempts did.

use rand::SeedableRng;

/// The random number generator of one attempt: small, fast, and portable (the
/// same numbers on every platform for the same seed).
pub type AttemptRng = rand_pcg::Pcg64Mcg;

/// The seed of attempt `index` of a run seeded with `seed`.
///
/// Attempt 0 uses the run's seed itself, so a puzzle's own seed, given back as
/// the run's seed with the same options, makes that puzzle again as the first.
pub fn attempt_seed(seed: u64, index: u64) -> u64 {
    if index == 0 {
        seed
    } else {
        splitmix64(seed.wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15)))
    }
}

/// The generator of an attempt with this seed.
pub fn attempt_rng(seed: u64) -> AttemptRng {
    AttemptRng::seed_from_u64(seed)
}

/// SplitMix64's output function: neighbouring inputs give unrelated outputs.
fn splitmix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A seed from the clock, for a run given none.
pub fn clock_seed() -> u64 {
    kenken_model::clock::SystemTime::now()
        .duration_since(kenken_model::clock::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attempt_zero_is_the_run_seed_and_others_differ() {
        assert_eq!(attempt_seed(42, 0), 42);
        let seeds: std::collections::HashSet<u64> =
            (0..1000).map(|i| attempt_seed(42, i)).collect();
        assert_eq!(seeds.len(), 1000);
    }
}
