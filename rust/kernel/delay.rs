// SPDX-License-Identifier: GPL-2.0

//! Delays and sleeps.
//!
//! C header: [`include/linux/delay.h`](srctree/include/linux/delay.h)
//!
//! # Examples
//!
//! ```
//! use kernel::delay;
//!
//! delay::udelay(5);  // busy-waits; fine in atomic context
//! delay::msleep(1);  // sleeps; process context only
//! ```
//!
//! # Compared with upstream
//!
//! Upstream (Linux 6.16) has `fsleep` with typed durations in `time/delay.rs`; 6.12 has none.
//! These three keep C's names and units (microseconds, milliseconds) so C readers find them.

use crate::bindings;

/// Busy-waits for at least `us` microseconds. Usable in atomic context; keep it short.
pub fn udelay(us: u32) {
    // SAFETY: `udelay` has no preconditions.
    unsafe { bindings::udelay(us as usize) };
}

/// Sleeps for at least `ms` milliseconds. Process context only.
pub fn msleep(ms: u32) {
    // SAFETY: `msleep` has no preconditions beyond being allowed to sleep, which callers are told.
    unsafe { bindings::msleep(ms) };
}

/// Sleeps for between `min_us` and `max_us` microseconds. Process context only.
pub fn usleep_range(min_us: u32, max_us: u32) {
    // SAFETY: as for `msleep`.
    unsafe {
        bindings::usleep_range_state(
            min_us as usize,
            max_us as usize,
            bindings::TASK_UNINTERRUPTIBLE,
        )
    };
}
