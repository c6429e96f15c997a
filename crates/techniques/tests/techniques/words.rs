//! Words a person reads, checked on every text of every corpus step the proofs
//! test walks (its one-line text, its explanation and each proof's text): no
//! claim naming "one of cages …" without saying which, no "part(s)"-style
//! plurals, parities said as words ("an odd total", not "add up to odd"), no
//! "of it" for several lines, and a hidden operation said in full (`cage F5 (10,
//! operation hidden)`) once per text, as `cage F5 (10?)` after.

/// Why `text` reads wrong, if it does.
pub(super) fn check(text: &str) -> Result<(), String> {
    let wrong = |why: &str| Err(format!("{why}: {text}"));
    if text.contains("one of cages") {
        return wrong("`one of cages` without saying which");
    }
    if text.contains("(s)") {
        return wrong("a `(s)` plural");
    }
    if text.contains("add up to odd") || text.contains("add up to even") {
        return wrong("a parity said as a sum");
    }
    for sentence in text.split(". ").map(str::to_lowercase) {
        let several = ["rows ", "columns ", "boxes "]
            .iter()
            .any(|w| sentence.contains(w));
        if several && (sentence.contains(" of it ") || sentence.ends_with(" of it")) {
            return wrong("`of it` for several lines");
        }
    }
    let mut named: Vec<&str> = Vec::new();
    for (at, _) in text.match_indices(", operation hidden)") {
        // `cage F5 (10` or `Cage F5 (10`.
        let start = text[..at].rfind("age ").map_or(0, |s| s + 4);
        let cage = &text[start..at];
        if named.contains(&cage) {
            return wrong(&format!("cage {cage}'s hidden operation said twice"));
        }
        named.push(cage);
    }
    Ok(())
}

#[test]
fn the_slips_once_written_are_caught() {
    for slip in [
        "whichever combination cage E6 takes, one of cages F3, E4 and E7 is left with nothing.",
        "add up to odd in B2, B3; B4: 2 odd part(s), so an even total.",
        "Columns 1 and 2 hold 1 to 6 twice, so the cells of it add up to 42.",
        "Cage C4 (9, operation hidden) and cage C1 (12, operation hidden) are linked by the \
         lines they share. Cage C4 (9, operation hidden) loses 1 combination.",
    ] {
        assert!(check(slip).is_err(), "{slip}");
    }
    assert!(check(
        "Cage C4 (9, operation hidden) and cage C1 (12, operation hidden) are linked. Cage \
         C4 (9?) loses 1 combination."
    )
    .is_ok());
}
