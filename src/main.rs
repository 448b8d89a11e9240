//! The poolshark binary: everything it does is in the library's `cli` module, where tests
//! can reach it.

fn main() -> std::process::ExitCode {
    let missing = poolshark_host::machine::missing_cpu_features();
    if !missing.is_empty() {
        eprintln!(
            "error: this poolshark was built for x86-64-v3 and this CPU lacks {}; build it for \
             this machine with RUSTFLAGS=\"-C target-cpu=x86-64\" cargo build --release",
            missing.join(", ")
        );
        return std::process::ExitCode::from(1);
    }
    poolshark::cli::main()
}
