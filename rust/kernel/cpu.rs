// SPDX-License-Identifier: GPL-2.0

//! CPUs.
//!
//! C header: [`include/linux/cpumask.h`](srctree/include/linux/cpumask.h)

/// How many CPUs are online now (C's `num_online_cpus()`): at least 1, and only a snapshot,
/// as CPUs may come and go.
///
/// # Examples
///
/// ```
/// let n = kernel::cpu::num_online_cpus();
/// assert!(n >= 1);
/// ```
#[inline]
pub fn num_online_cpus() -> u32 {
    // SAFETY: `__num_online_cpus` is a static of the kernel's, always valid; C reads it with
    // `raw_atomic_read` (a `READ_ONCE` of its counter), as this volatile read of the counter
    // does; only its address is taken, no reference to the `static mut`.
    let n = unsafe {
        core::ptr::read_volatile(core::ptr::addr_of!(bindings::__num_online_cpus.counter))
    };
    // The counter is never negative; a CPU is always online (the one running this).
    u32::try_from(n).unwrap_or(1).max(1)
}
