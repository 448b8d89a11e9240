//! The poolshark binary: everything it does is in the library's `cli` module, where tests
//! can reach it.

fn main() -> std::process::ExitCode {
    poolshark::cli::main()
}
