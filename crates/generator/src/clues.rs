//! Clues from the solution: which operations a cage's digits allow, and a random
//! choice among them weighted like Tatham's generator's mix.

use crate::request::Rules;
use crate::rng::AttemptRng;
use kenken_model::{Digit, Op};
use rand::Rng;

/// The clue `op` gives these digits, if it gives one (− needs the largest digit
/// to be at least the sum of the others, ÷ an exact quotient).
pub fn clue(op: Op, digits: &[Digit]) -> Option<u64> {
    let sum: u64 = digits.iter().map(|&d| u64::from(d)).sum();
    let max = u64::from(digits.iter().copied().max()?);
    match op {
        Op::Given => (digits.len() == 1).then_some(max),
        Op::Add => Some(sum),
        Op::Mul => digits
            .iter()
            .try_fold(1u64, |p, &d| p.checked_mul(u64::from(d))),
        Op::Sub => (2 * max >= sum).then(|| 2 * max - sum),
        Op::Div => {
            let rest = digits
                .iter()
                .try_fold(1u64, |p, &d| p.checked_mul(u64::from(d)))?
                / max;
            (max % rest == 0).then(|| max / rest)
        }
        // Clues come from a visible operation; a hidden one is hidden afterwards.
        Op::Hidden => None,
    }
}

/// The weight of `op` among the choices for a cage of `cells` cells. Tatham's
/// Keen (its Unreasonable level) clues about a quarter of its cages with each
/// operation, − and ÷ on two-cell cages only: among dominoes about 35 % −, 24 %
/// ÷ and 20 % each + and ×; larger cages + or × evenly. The weights give that
/// mix once ÷'s exactness has ruled it out of most dominoes.
fn weight(op: Op, cells: usize) -> u32 {
    match (op, cells) {
        (Op::Given, _) => 1,
        (Op::Add | Op::Mul, 2) => 2,
        (Op::Sub, 2) => 3,
        (Op::Div, 2) => 6,
        (Op::Add | Op::Mul, _) => 10,
        (Op::Sub | Op::Div, _) => 1,
        (Op::Hidden, _) => 0,
    }
}

/// A small number for each operation (a given 0, then + − × ÷), for keys that
/// pack a cage.
pub fn op_code(op: Op) -> u8 {
    match op {
        Op::Given => 0,
        Op::Add => 1,
        Op::Sub => 2,
        Op::Mul => 3,
        Op::Div => 4,
        Op::Hidden => 5,
    }
}

/// The operations of [`op_surplus`], in its order.
pub const MIX_OPS: [Op; 4] = [Op::Add, Op::Sub, Op::Mul, Op::Div];

/// How many more cages have each operation (+, −, ×, ÷) than random clues would
/// give them: for each multi-cell cage, the count of its operation less each
/// allowed operation's share of [`weight`]s on its digits (so the sum over the
/// operations is zero).
pub fn op_surplus<'a>(
    cages: impl IntoIterator<Item = (Op, &'a [Digit])>,
    rules: &Rules,
) -> [f64; 4] {
    let mut surplus = [0.0; 4];
    for (op, digits) in cages {
        if digits.len() < 2 {
            continue;
        }
        let shares = MIX_OPS.map(|o| {
            if allowed(o, digits, rules) {
                f64::from(weight(o, digits.len()))
            } else {
                0.0
            }
        });
        let total: f64 = shares.iter().sum();
        for (i, o) in MIX_OPS.into_iter().enumerate() {
            if o == op {
                surplus[i] += 1.0;
            }
            if total > 0.0 {
                surplus[i] -= shares[i] / total;
            }
        }
    }
    surplus
}

/// Whether the rules let `op` clue a cage of these digits.
pub fn allowed(op: Op, digits: &[Digit], rules: &Rules) -> bool {
    if digits.len() == 1 {
        return op == Op::Given;
    }
    if op == Op::Given || !rules.ops.contains(op) {
        return false;
    }
    if rules.strict && matches!(op, Op::Sub | Op::Div) && digits.len() != 2 {
        return false;
    }
    // A − clue of 0 or a ÷ clue of 1 needs repeated digits and says little.
    match clue(op, digits) {
        Some(c) => !(matches!(op, Op::Sub) && c == 0 || matches!(op, Op::Div) && c == 1),
        None => false,
    }
}

/// A random operation for a cage of these digits (weighted as [`weight`]), other
/// than `except`; None when the rules leave none.
pub fn pick_op(
    digits: &[Digit],
    rules: &Rules,
    except: Option<Op>,
    rng: &mut AttemptRng,
) -> Option<Op> {
    let choices: Vec<(Op, u32)> = [Op::Given, Op::Add, Op::Sub, Op::Mul, Op::Div]
        .into_iter()
        .filter(|&op| Some(op) != except && allowed(op, digits, rules))
        .map(|op| (op, weight(op, digits.len())))
        .collect();
    let total: u32 = choices.iter().map(|&(_, w)| w).sum();
    if total == 0 {
        return None;
    }
    let mut x = rng.random_range(0..total);
    for (op, w) in choices {
        if x < w {
            return Some(op);
        }
        x -= w;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::OpSet;
    use crate::rng::attempt_rng;

    fn rules(strict: bool) -> Rules {
        Rules {
            ops: OpSet::ALL,
            strict,
            cage_sizes: 2..=5,
            max_givens: 1,
            max_mean_cage_size: 3.0,
        }
    }

    #[test]
    fn clues_follow_the_ladder_rules() {
        assert_eq!(clue(Op::Add, &[1, 2, 3]), Some(6));
        assert_eq!(clue(Op::Mul, &[2, 3, 4]), Some(24));
        assert_eq!(clue(Op::Sub, &[6, 1]), Some(5));
        assert_eq!(clue(Op::Sub, &[9, 2, 3]), Some(4));
        assert_eq!(clue(Op::Sub, &[2, 3, 4]), None);
        assert_eq!(clue(Op::Div, &[2, 6]), Some(3));
        assert_eq!(clue(Op::Div, &[8, 2, 2]), Some(2));
        assert_eq!(clue(Op::Div, &[4, 6]), None);
        assert_eq!(clue(Op::Given, &[4]), Some(4));
        for (op, d, c) in [(Op::Sub, vec![9, 2, 3], 4), (Op::Div, vec![8, 2, 2], 2)] {
            assert!(op.holds(&d, c));
        }
    }

    #[test]
    fn strict_rules_keep_sub_and_div_on_dominoes() {
        assert!(allowed(Op::Sub, &[9, 2, 3], &rules(false)));
        assert!(!allowed(Op::Sub, &[9, 2, 3], &rules(true)));
        assert!(allowed(Op::Div, &[2, 6], &rules(true)));
        assert!(!allowed(Op::Div, &[4, 6], &rules(true)));
        assert!(allowed(Op::Given, &[3], &rules(true)));
        assert!(!allowed(Op::Add, &[3], &rules(true)));
    }

    #[test]
    fn the_surplus_counts_against_the_random_mix() {
        let r = rules(false);
        // A 1− domino ({2, 3}: +, −, × allowed, not ÷) and a 3-cell + cage.
        let cages: [(Op, &[Digit]); 2] = [(Op::Sub, &[2, 3]), (Op::Add, &[1, 2, 4])];
        let s = op_surplus(cages, &r);
        // Domino weights + 2, − 3, × 2: shares 2/7, 3/7, 2/7. Three cells:
        // + 10, − 1 (4 − 3 = 1, not 0), × 10, ÷ 1 (4 / 2 = 2): 10/22, 1/22, ….
        let want = [
            -2.0 / 7.0 + 1.0 - 10.0 / 22.0,
            1.0 - 3.0 / 7.0 - 1.0 / 22.0,
            -2.0 / 7.0 - 10.0 / 22.0,
            -1.0 / 22.0,
        ];
        for (got, want) in s.iter().zip(want) {
            assert!((got - want).abs() < 1e-12, "{s:?}");
        }
        assert!(s.iter().sum::<f64>().abs() < 1e-12);
    }

    #[test]
    fn picks_respect_the_op_set() {
        let mut r = rules(false);
        r.ops = OpSet::parse("+").unwrap();
        let mut rng = attempt_rng(1);
        for _ in 0..50 {
            assert_eq!(pick_op(&[1, 2, 3], &r, None, &mut rng), Some(Op::Add));
        }
        assert_eq!(pick_op(&[1, 2], &r, Some(Op::Add), &mut rng), None);
    }
}
