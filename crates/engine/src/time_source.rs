//! Where the engine reads the time: `Instant` for intervals (search limits, clocks, speeds),
//! `unix_time` for dates and seeds. Natively these are std's. In the
//! browser's build (wasm32, no operating system) std's would panic, so the page's JavaScript
//! hands them in as two imports of the module `env`: `poolshark_now_ms()`, a monotonic time
//! in milliseconds (`performance.now()`), and `poolshark_unix_ms()` (`Date.now()`).

use std::time::Duration;

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;
#[cfg(target_arch = "wasm32")]
pub use web::Instant;

/// The time since 1970-01-01 UTC (zero if the clock is set before it).
pub fn unix_time() -> Duration {
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
    }
    #[cfg(target_arch = "wasm32")]
    {
        web::unix_time()
    }
}

#[cfg(target_arch = "wasm32")]
mod web {
    use std::ops::{Add, AddAssign, Sub, SubAssign};
    use std::time::Duration;

    #[link(wasm_import_module = "env")]
    extern "C" {
        fn poolshark_now_ms() -> f64;
        fn poolshark_unix_ms() -> f64;
    }

    /// A point on the page's monotonic clock, as the time since the page's time origin.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Instant(Duration);

    fn millis(ms: f64) -> Duration {
        Duration::from_secs_f64(ms.max(0.0) / 1000.0)
    }

    pub(super) fn unix_time() -> Duration {
        // SAFETY: the import takes nothing and returns a number; the host always provides it.
        millis(unsafe { poolshark_unix_ms() })
    }

    impl Instant {
        pub fn now() -> Instant {
            // SAFETY: as in `unix_time`.
            Instant(millis(unsafe { poolshark_now_ms() }))
        }
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            self.0.saturating_sub(earlier.0)
        }
        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            self.0.saturating_sub(earlier.0)
        }
        pub fn checked_duration_since(&self, earlier: Instant) -> Option<Duration> {
            self.0.checked_sub(earlier.0)
        }
        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }
        pub fn checked_add(&self, d: Duration) -> Option<Instant> {
            self.0.checked_add(d).map(Instant)
        }
        pub fn checked_sub(&self, d: Duration) -> Option<Instant> {
            self.0.checked_sub(d).map(Instant)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d)
        }
    }
    impl AddAssign<Duration> for Instant {
        fn add_assign(&mut self, d: Duration) {
            self.0 += d;
        }
    }
    impl Sub<Duration> for Instant {
        type Output = Instant;
        fn sub(self, d: Duration) -> Instant {
            Instant(self.0.saturating_sub(d))
        }
    }
    impl SubAssign<Duration> for Instant {
        fn sub_assign(&mut self, d: Duration) {
            self.0 = self.0.saturating_sub(d);
        }
    }
    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, other: Instant) -> Duration {
            self.duration_since(other)
        }
    }
}
