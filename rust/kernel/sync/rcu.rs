// SPDX-License-Identifier: GPL-2.0

//! RCU read-side critical sections.
//!
//! C header: [`include/linux/rcupdate.h`](srctree/include/linux/rcupdate.h)
//!
//! # Compared with upstream
//!
//! As upstream's `sync/rcu.rs` (Linux 6.13): a non-`Send` guard for `rcu_read_lock`, and
//! `synchronize` for `synchronize_rcu`.

use crate::bindings;
use core::marker::PhantomData;

/// An RCU read-side critical section, held for as long as the guard lives.
///
/// The guard is not [`Send`]: the section must end on the CPU context that began it.
///
/// # Invariants
///
/// The RCU read lock was taken when the guard was made and has not been released since.
///
/// # Examples
///
/// ```
/// use kernel::sync::rcu;
///
/// let guard = rcu::read_lock();
/// // Readers of RCU-protected data run here, without sleeping.
/// drop(guard);
/// ```
pub struct Guard(PhantomData<*mut ()>);

impl Guard {
    /// Enters an RCU read-side critical section.
    pub fn new() -> Self {
        // SAFETY: `rcu_read_lock` may be called from any context; the matching unlock is in
        // `Drop`.
        unsafe { bindings::rcu_read_lock() };
        // INVARIANT: the RCU read lock was just taken.
        Self(PhantomData)
    }
}

impl Default for Guard {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        // SAFETY: by the type invariant the lock is held, and it is released only here.
        unsafe { bindings::rcu_read_unlock() };
    }
}

/// Enters an RCU read-side critical section; it ends when the returned guard is dropped.
pub fn read_lock() -> Guard {
    Guard::new()
}

/// Waits until every RCU read-side critical section that began before the call has ended.
///
/// Sleeps: call it only from process context.
pub fn synchronize() {
    // SAFETY: `synchronize_rcu` has no preconditions other than being allowed to sleep, which
    // callers are told above.
    unsafe { bindings::synchronize_rcu() };
}
