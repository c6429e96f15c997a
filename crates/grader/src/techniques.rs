//! `grader techniques`: the ladder, easiest first, with each technique's id (for
//! `--disable` and `--enable`), name, rating rule and what it finds, then what each
//! band of the rating scale means to a solver — all from the techniques library's
//! registry.

use clap::Args;
use kenken_techniques::listing;
use kenken_techniques::registry::SCALE;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct TechniquesArgs {}

pub fn run(_args: TechniquesArgs) -> anyhow::Result<ExitCode> {
    let rows = listing();
    let id_width = rows.iter().map(|(k, _, _)| k.id().len()).max().unwrap_or(0);
    let name_width = rows.iter().map(|(_, n, _)| n.len()).max().unwrap_or(0);
    let mut text = format!("{:id_width$}  {:name_width$}  RATING\n", "ID", "TECHNIQUE");
    for (kind, name, rule) in rows {
        let off = if kind.row().enabled {
            ""
        } else {
            " (off unless --enable)"
        };
        text.push_str(&format!(
            "{:id_width$}  {name:name_width$}  {rule}{off}\n{:id_width$}  {}\n",
            kind.id(),
            "",
            kind.row().summary
        ));
    }
    text.push_str(
        "\nEach step applies the first technique, from the top, that removes something; \
         naked singles (propagation) cannot be disabled.\n\
         \nA puzzle's rating is its hardest step's (max); the total adds up every step. \
         What the max means to a solver:\n",
    );
    for band in SCALE {
        text.push_str(&format!("  {band}\n"));
    }
    crate::report::print(text.trim_end())?;
    Ok(ExitCode::SUCCESS)
}
