//! Ending a streaming run (`batch`, `solve --many`) on SIGINT or SIGTERM
//! between two rows, so that its output holds whole rows only.
//!
//! Rows are written under a lock ([`Interrupt::writing`]), through a buffer
//! that may reach the output mid-row. A signal is taken by a thread of its own
//! ([`Interrupt::watch`]), which records it and waits for the lock: the row
//! being written is finished, the buffer flushed, and the process ends with
//! 128 + the signal's number (130 for SIGINT, 143 for SIGTERM) and one line on
//! stderr. Whoever holds the lock when the signal is seen ends the process: the
//! writer after its row (it checks between rows), or the watcher once the
//! writer is between chunks. A second signal ends the process at once.

use indicatif::ProgressBar;
use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::flag::register_conditional_shutdown;
use signal_hook::iterator::Signals;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// What a run shares with the thread that takes its signals.
pub struct Interrupt {
    /// The subcommand, for the closing line (`batch`, `solve`).
    command: &'static str,
    /// The signal received, 0 until one is.
    signal: AtomicI32,
    /// Rows written whole.
    rows: AtomicUsize,
    /// Held while rows are written.
    writing: Mutex<()>,
    /// The progress bar, cleared before the closing line.
    progress: OnceLock<ProgressBar>,
}

impl Interrupt {
    /// Takes SIGINT and SIGTERM from now on: the first ends the run between
    /// two rows, a second at once.
    pub fn watch(command: &'static str) -> io::Result<Arc<Interrupt>> {
        let interrupt = Arc::new(Interrupt {
            command,
            signal: AtomicI32::new(0),
            rows: AtomicUsize::new(0),
            writing: Mutex::new(()),
            progress: OnceLock::new(),
        });
        let again = Arc::new(AtomicBool::new(false));
        for signal in [SIGINT, SIGTERM] {
            // Run before the watcher hears of a signal: the first finds `again`
            // false (the watcher then sets it), a second ends the process here.
            register_conditional_shutdown(signal, 128 + signal, Arc::clone(&again))?;
        }
        let mut signals = Signals::new([SIGINT, SIGTERM])?;
        let watched = Arc::clone(&interrupt);
        std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    again.store(true, Ordering::SeqCst);
                    watched.signal.store(signal, Ordering::SeqCst);
                    // The writer, if it is writing, ends the process itself
                    // after its row; else the output holds whole rows now.
                    let _writing = watched.writing();
                    watched.end();
                }
            })?;
        Ok(interrupt)
    }

    /// The progress bar to clear when the run ends on a signal.
    pub fn show_progress(&self, bar: ProgressBar) {
        let _ = self.progress.set(bar);
    }

    /// The lock to hold while writing rows (and not while the progress bar is
    /// held: [`Interrupt::end`] clears it).
    pub fn writing(&self) -> MutexGuard<'_, ()> {
        self.writing.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts a row written whole.
    pub fn wrote_row(&self) {
        self.rows.fetch_add(1, Ordering::Relaxed);
    }

    /// Whether a signal came: the writer, holding [`Interrupt::writing`], then
    /// flushes what it wrote and calls [`Interrupt::end`].
    pub fn stopped(&self) -> bool {
        self.signal.load(Ordering::SeqCst) != 0
    }

    /// Ends the process after a signal, with one line on stderr. Called with
    /// [`Interrupt::writing`] held and the output flushed.
    pub fn end(&self) -> ! {
        if let Some(bar) = self.progress.get() {
            bar.finish_and_clear();
        }
        let signal = self.signal.load(Ordering::SeqCst);
        let name = match signal {
            SIGINT => "SIGINT",
            SIGTERM => "SIGTERM",
            _ => "a signal",
        };
        eprintln!(
            "grader {}: stopped by {name} after {} row(s)",
            self.command,
            self.rows.load(Ordering::Relaxed)
        );
        std::process::exit(128 + signal)
    }
}
