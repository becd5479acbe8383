// SPDX-License-Identifier: GPL-2.0

//! Bottom-half (softirq) disabling.
//!
//! A lock that softirq code (NAPI poll, timers) also takes must be taken with bottom halves
//! disabled in process context, or a softirq on the same CPU would spin on it forever. Hold a
//! [`Guard`] around such a lock.
//!
//! # Examples
//!
//! ```
//! use kernel::sync::bh;
//!
//! let g = bh::disable();
//! // Softirqs cannot run on this CPU here.
//! drop(g);
//! ```
//!
//! # Compared with upstream
//!
//! Upstream has no bottom-half guard as of Linux 6.18 (its spinlock has no `_bh` variant
//! either); this one is ours.

use crate::bindings;
use core::marker::PhantomData;

/// Bottom halves stay disabled on this CPU while the guard lives. Not [`Send`].
///
/// # Invariants
///
/// `local_bh_disable` was called when the guard was made; `local_bh_enable` is called once, in
/// `drop`.
pub struct Guard(PhantomData<*mut ()>);

/// Disables bottom halves until the returned guard is dropped.
pub fn disable() -> Guard {
    // SAFETY: no preconditions; balanced in `Guard::drop`.
    unsafe { bindings::local_bh_disable() };
    // INVARIANT: disabled just above.
    Guard(PhantomData)
}

impl Drop for Guard {
    fn drop(&mut self) {
        // SAFETY: balanced with the disable in `disable` (type invariant).
        unsafe { bindings::local_bh_enable() };
    }
}
