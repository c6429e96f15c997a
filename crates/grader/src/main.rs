//! `grader`: the command-line front end of the KenKen grader.
//!
//! This file only parses the command line and dispatches; each subcommand lives in
//! its own module with an `Args` struct and a `run` function returning the exit
//! code (see [`exit`]). The puzzle logic is in the libraries; the modules here read
//! input, call them and format what they return.

#![forbid(unsafe_code)]

mod batch;
mod check;
mod convert;
mod exit;
mod generate;
mod grade;
mod hint;
mod input;
mod interrupt;
mod options;
mod position_arg;
mod print;
mod render;
mod report;
mod serve;
mod solve;
mod streaming;
mod techniques;
mod wording;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

const AFTER_HELP: &str = "\
A PUZZLE argument is a puzzle string in any supported format (Tatham Keen game ID or \
web-player URL, SudokuWiki K6C/D6C, the '# <size>' text format, a letter grid), the \
path of a file holding one, or '-' for standard input. Files are UTF-8, or UTF-16 \
with a byte-order mark.

Exit codes:
  0  success (solve: every puzzle has exactly one solution)
  1  the output could not be written, or an internal error (a bug); a closed pipe
     (`grader batch | head`) ends the run quietly with 0
  2  the input cannot be used: a bad argument, a missing file, a directory, a file
     or stream that cannot be read or is not text, or a puzzle that cannot be read
     or is not valid (batch, solve --many: at least one row has such an error; the
     other rows are still written)
  3  solve: a puzzle does not have exactly one solution (ambiguous, impossible, or
     --timeout passed first); check: the position contradicts the solution
  4  generate: --max-tries or --timeout stopped it before --count puzzles were found
  130, 143  batch, solve --many: stopped by SIGINT (Ctrl-C) or SIGTERM; the row
     being written is finished first, so the output holds whole rows only (a
     second signal ends the run at once)
When several apply to a batch, the lower code wins (1, then 2, then 3).";

#[derive(Parser, Debug)]
#[command(
    name = "grader",
    version,
    about = "Solve, grade and convert KenKen (Calcudoku) puzzles",
    after_long_help = AFTER_HELP
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Grade one puzzle: its step log with each step's rating, the max and total
    /// difficulty and the status.
    #[command(after_long_help = AFTER_HELP)]
    Grade(grade::GradeArgs),
    /// Solve a puzzle by exhaustive search: its solution and whether it is unique;
    /// with --many, every puzzle of a batch input, one row each.
    ///
    /// `grader solve PUZZLE` prints the grid and the verdict. `grader solve --many
    /// [FILE|-]` reads the inputs `grader batch` reads and writes one TSV or NDJSON
    /// row per puzzle, in input order, in parallel and streamed like `batch`: one
    /// process checks any number of puzzles for uniqueness.
    #[command(after_long_help = AFTER_HELP)]
    Solve(solve::SolveArgs),
    /// Grade many puzzles (a JSON array, NDJSON, a JSON object of puzzle arrays or
    /// one puzzle per line) in parallel, one TSV or NDJSON row per puzzle, in input
    /// order.
    ///
    /// The input is graded a chunk at a time (2 048 puzzles per worker thread, each
    /// chunk by size, largest first) and each chunk's rows are written as soon as it
    /// is done: memory stays flat however long the input (a JSON array is read
    /// whole), and on a stream the first rows come out once the first chunk is read
    /// and graded. An element or line that is not a puzzle gets a row saying why,
    /// and the rest are graded; a JSON array or object that is not well-formed JSON
    /// is refused before any row.
    #[command(after_long_help = AFTER_HELP)]
    Batch(batch::BatchArgs),
    /// Convert a puzzle to another string format.
    #[command(after_long_help = AFTER_HELP)]
    Convert(convert::ConvertArgs),
    /// List the techniques of the ladder with their ratings.
    Techniques(techniques::TechniquesArgs),
    /// Make unique puzzles whose max rating lies in a band (--min, --max), written
    /// as they are found. Exit code 4 when --max-tries or --timeout stops the run
    /// first.
    Generate(generate::GenerateArgs),
    /// Draw the grid as SVG or PNG: empty, a position, the candidates, the
    /// solution, or one step of the log drawn on the grid before it.
    #[command(after_long_help = AFTER_HELP)]
    Render(render::RenderArgs),
    /// The next step from a solver's position, told as little as asked (a nudge,
    /// the technique, the cells, the whole step).
    #[command(after_long_help = AFTER_HELP)]
    Hint(hint::HintArgs),
    /// Which entered digits or pencil marks of a position contradict the
    /// solution, telling nothing else.
    #[command(after_long_help = AFTER_HELP)]
    Check(check::CheckArgs),
    /// A local web page to solve a puzzle on: paste one (or pick one from FILE),
    /// step through its solution, enter digits and pencil marks, ask for hints,
    /// check the position, see the rating, export K6C.
    ///
    /// It listens on 127.0.0.1 only unless --host says otherwise; the page and its
    /// script are inside the binary (nothing is fetched from elsewhere).
    Serve(serve::ServeArgs),
    /// A print-ready booklet (PDF, or SVG pages) of the puzzles of a file: 1, 2, 4
    /// or 6 a page with number, size and rating, and answer keys at the end.
    ///
    /// A puzzle that cannot be read or does not have exactly one solution is left
    /// out with a line on stderr (exit code 2 or 3 at the end, as for `batch`), and
    /// the others keep their numbers in the input.
    Print(print::PrintArgs),
}

#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    exit::install_panic_hook();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return exit::command_line_refused(&e),
    };
    let result = match cli.command {
        Command::Grade(args) => grade::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Batch(args) => batch::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Techniques(args) => techniques::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Render(args) => render::run(args),
        Command::Hint(args) => hint::run(args),
        Command::Check(args) => check::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Print(args) => print::run(args),
    };
    match result {
        Ok(code) => code,
        // A closed pipe (`grader batch … | head`) is no news to the user: the run
        // ends quietly, as coreutils and ripgrep end.
        Err(e) if exit::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("grader: error: {e:#}");
            ExitCode::from(exit::FAILURE)
        }
    }
}
