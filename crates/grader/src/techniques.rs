//! `grader techniques`: the ladder, easiest first, with each technique's id (for
//! `--disable`), name, rating rule and what it finds — all from the techniques
//! library's own table.

use clap::Args;
use kenken_techniques::ladder;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct TechniquesArgs {}

pub fn run(_args: TechniquesArgs) -> anyhow::Result<ExitCode> {
    let rows = ladder::listing();
    let id_width = rows.iter().map(|(k, _, _)| k.id().len()).max().unwrap_or(0);
    let name_width = rows.iter().map(|(_, n, _)| n.len()).max().unwrap_or(0);
    let mut text = format!("{:id_width$}  {:name_width$}  RATING\n", "ID", "TECHNIQUE");
    for (kind, name, rule) in rows {
        text.push_str(&format!(
            "{:id_width$}  {name:name_width$}  {rule}\n{:id_width$}  {}\n",
            kind.id(),
            "",
            kind.summary()
        ));
    }
    text.push_str(
        "\nEach step applies the first technique, from the top, that removes something; \
         naked singles (propagation) cannot be disabled.",
    );
    crate::report::print(&text)?;
    Ok(ExitCode::SUCCESS)
}
