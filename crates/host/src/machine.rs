//! What this machine allows the process: its memory (the smaller of the RAM and a cgroup's
//! limit), the number of files it may open, and whether its CPU runs the instructions this
//! binary was built for. Read from /proc, /sys and CPUID; `None` where they cannot be read
//! (another system), and each caller picks its own fallback.

/// What this machine allows, as the board's server takes it (`ServeLimits::new`).
pub fn here() -> poolshark_engine::board::limits::Machine {
    poolshark_engine::board::limits::Machine {
        memory_bytes: memory_bytes(),
        open_files: open_files_limit(),
    }
}

/// The memory this process may use, in bytes: the machine's RAM (`MemTotal`), or less
/// where a cgroup (v2 `memory.max` or v1 `memory.limit_in_bytes`) limits it.
pub fn memory_bytes() -> Option<u64> {
    let total = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| mem_total(&text));
    let cgroup = cgroup_limit_files()
        .into_iter()
        .filter_map(|path| std::fs::read_to_string(path).ok())
        .filter_map(|text| text.trim().parse::<u64>().ok())
        .min();
    match (total, cgroup) {
        (Some(t), Some(c)) => Some(t.min(c)),
        (t, c) => t.or(c),
    }
}

/// The instruction sets this binary was compiled to use everywhere (`.cargo/config.toml`'s
/// `target-cpu`) that this CPU lacks, by name: empty where it has them all. A binary started
/// on a CPU without them would die on an illegal instruction somewhere, so `main` asks first.
pub fn missing_cpu_features() -> Vec<&'static str> {
    #[allow(unused_mut)]
    let mut missing = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! need {
            ($($f:tt),*) => {$(
                if cfg!(target_feature = $f) && !std::is_x86_feature_detected!($f) {
                    missing.push($f);
                }
            )*};
        }
        need!("popcnt", "sse4.2", "avx", "avx2", "bmi1", "bmi2", "fma", "lzcnt");
    }
    missing
}

/// The soft limit on open file descriptors (`ulimit -n`), from /proc/self/limits.
pub fn open_files_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    open_files(&text)
}

fn mem_total(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

fn open_files(limits: &str) -> Option<u64> {
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line["Max open files".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// The files that may hold this process's cgroup memory limit ("max" or a huge number
/// where there is none: neither parses as a limit below the RAM, so both are harmless).
fn cgroup_limit_files() -> Vec<String> {
    let mut files = vec![
        "/sys/fs/cgroup/memory.max".to_string(),
        "/sys/fs/cgroup/memory/memory.limit_in_bytes".to_string(),
    ];
    if let Ok(text) = std::fs::read_to_string("/proc/self/cgroup") {
        for line in text.lines() {
            let mut parts = line.splitn(3, ':');
            let (_, controllers, path) = match (parts.next(), parts.next(), parts.next()) {
                (Some(id), Some(c), Some(p)) => (id, c, p),
                _ => continue,
            };
            let path = path.trim_end_matches('/');
            if path.is_empty() {
                continue;
            }
            if controllers.is_empty() {
                files.push(format!("/sys/fs/cgroup{path}/memory.max"));
            } else if controllers.split(',').any(|c| c == "memory") {
                files.push(format!("/sys/fs/cgroup/memory{path}/memory.limit_in_bytes"));
            }
        }
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The machine running the tests runs the binary, so it has every level the build uses;
    /// and a name is only ever one the build asked for.
    #[test]
    fn this_cpu_has_what_the_build_uses() {
        assert_eq!(missing_cpu_features(), Vec::<&str>::new());
        #[cfg(target_arch = "x86_64")]
        if cfg!(target_feature = "avx2") {
            assert!(std::is_x86_feature_detected!("avx2"));
        }
    }

    #[test]
    fn reads_mem_total_and_the_open_files_limit() {
        assert_eq!(
            mem_total("MemFree: 5 kB\nMemTotal:       24683584 kB\n"),
            Some(24683584 * 1024)
        );
        assert_eq!(mem_total("nothing"), None);
        let limits = "Limit                     Soft Limit           Hard Limit           Units     \n\
                      Max open files            1024                 4096                 files     \n";
        assert_eq!(open_files(limits), Some(1024));
        assert_eq!(open_files("Max open files unlimited"), None);
    }

    #[test]
    fn this_machine_has_some_memory() {
        if let Some(bytes) = memory_bytes() {
            assert!(bytes > 1 << 20);
        }
    }
}
