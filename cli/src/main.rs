//! `table`: build and query perfect lookup tables for sliding-tile puzzles.
//!
//! A thin layer over the `slidetable` library: parse arguments, call the library, print.

use std::process::ExitCode;

use clap::Parser;

mod cli;

fn main() -> ExitCode {
    // A file-size limit (`ulimit -f`) is met with an error naming the file, not a silent death by
    // SIGXFSZ: with the signal ignored, the write or the allocation fails with EFBIG instead.
    #[cfg(unix)]
    // SAFETY: sets one signal's disposition to "ignore" before any other thread exists; no
    // handler runs, so nothing can be called in a signal context.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                e.exit();
            }
            // every error is one line on stderr, argument errors too
            eprintln!("table: {}", cli::clap_one_line(&e.to_string()));
            return ExitCode::from(cli::EXIT_USAGE);
        }
    };
    match cli::run(args) {
        Ok(code) => code,
        Err(err) => {
            if cli::is_broken_pipe(&err) {
                return ExitCode::SUCCESS;
            }
            eprintln!("table: {}", cli::one_line(&err));
            ExitCode::from(cli::exit_code(&err))
        }
    }
}
