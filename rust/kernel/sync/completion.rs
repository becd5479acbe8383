// SPDX-License-Identifier: GPL-2.0

//! Completions: one side waits until another says it is done.
//!
//! C header: [`include/linux/completion.h`](srctree/include/linux/completion.h)
//!
//! # Compared with upstream
//!
//! Linux 6.16 added `kernel::sync::Completion` with these operations (for the same `Devres`
//! race); 6.12 has none. This one has only what [`Devres`](crate::devres::Devres) needs:
//! `complete_all` and `wait_for_completion`.

use crate::{bindings, init::PinInit, pin_init, types::Opaque};
use macros::pin_data;

/// A completion (`struct completion`).
///
/// # Invariants
///
/// `inner` was initialised with `init_completion` and, being pinned, has not moved since.
///
/// # Examples
///
/// ```
/// use kernel::sync::Completion;
///
/// let done = KBox::pin_init(Completion::new(), GFP_KERNEL)?;
/// done.complete_all();
/// // Already complete: returns at once.
/// done.wait_for_completion();
/// # Ok::<(), Error>(())
/// ```
#[pin_data]
pub struct Completion {
    #[pin]
    inner: Opaque<bindings::completion>,
}

// SAFETY: `struct completion` is made to be waited on and completed from any thread.
unsafe impl Send for Completion {}
// SAFETY: its operations do their own locking (the wait queue's spinlock).
unsafe impl Sync for Completion {}

impl Completion {
    /// A new, not yet completed, completion.
    pub fn new() -> impl PinInit<Self> {
        pin_init!(Self {
            // SAFETY: `slot` is valid, pinned memory for a `struct completion`, which
            // `init_completion` initialises in place.
            inner <- Opaque::ffi_init(|slot| unsafe { bindings::init_completion(slot) }),
        })
    }

    fn as_raw(&self) -> *mut bindings::completion {
        self.inner.get()
    }

    /// Marks it complete, waking every waiter now and letting every later wait return at once.
    /// Callable from any context.
    pub fn complete_all(&self) {
        // SAFETY: initialised and pinned (type invariant).
        unsafe { bindings::complete_all(self.as_raw()) };
    }

    /// Waits, uninterruptibly, until it is complete. Sleeps: process context only.
    pub fn wait_for_completion(&self) {
        // SAFETY: initialised and pinned (type invariant).
        unsafe { bindings::wait_for_completion(self.as_raw()) };
    }
}
