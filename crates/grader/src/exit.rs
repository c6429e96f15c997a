//! Exit codes (documented in `grader --help` and the README), the panic hook, and
//! how a command line clap refuses ends.

use std::process::ExitCode;

/// The output could not be written, or an internal error.
pub const FAILURE: u8 = 1;
/// The input cannot be used: a bad argument (clap's usage errors use 2 as well), a
/// missing file, a directory, a file or stream that cannot be read or is not text,
/// a puzzle that cannot be read or is not valid.
pub const BAD_INPUT: u8 = 2;
/// `solve`: a puzzle is ambiguous or impossible, or its search timed out.
pub const NOT_UNIQUE: u8 = 3;
/// `check`: an entry of the position contradicts the solution.
pub const CONTRADICTED: u8 = 3;

/// A panic is a bug in the grader, never the user's fault: say so in one line, with
/// no backtrace hint. (The batch catches a panic per puzzle and reports it in that
/// puzzle's row.)
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        eprintln!("grader: internal error (a bug in the grader, please report it): {info}");
    }));
}

/// Whether an error comes from writing to a closed pipe.
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// What clap's refusal of the command line ends with. Help and the version go to
/// standard output, written as any output is: a failure to write them exits 1
/// with a message (a closed pipe quietly, with 0). Everything else (a usage
/// error, or help asked for by a missing subcommand) goes to stderr with clap's
/// exit code, 2 for a usage error.
pub fn command_line_refused(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    use std::io::{IsTerminal, Write};
    if !matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        e.exit()
    }
    let rendered = e.render();
    let text = if std::io::stdout().is_terminal() {
        rendered.ansi().to_string()
    } else {
        rendered.to_string()
    };
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(io) if io.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(io) => {
            eprintln!("grader: error: cannot write to standard output: {io}");
            ExitCode::from(FAILURE)
        }
    }
}
