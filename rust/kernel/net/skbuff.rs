// SPDX-License-Identifier: GPL-2.0

//! Socket buffers (`struct sk_buff`).
//!
//! C header: [`include/linux/skbuff.h`](srctree/include/linux/skbuff.h)

use crate::bindings;
use core::ptr::NonNull;

/// An owned socket buffer.
///
/// Dropping it frees it as a drop (`dev_kfree_skb_any`, counted by drop monitors); a buffer that
/// was delivered should be released with [`SkBuff::consume`] instead. Both are safe in any
/// context.
///
/// # Invariants
///
/// `self.0` points to a valid `sk_buff` that this value owns exclusively.
pub struct SkBuff(NonNull<bindings::sk_buff>);

// SAFETY: an exclusively owned `sk_buff` may be handed to and freed on any CPU.
unsafe impl Send for SkBuff {}

impl SkBuff {
    /// Takes ownership of `ptr`.
    ///
    /// # Safety
    ///
    /// `ptr` must be a valid `sk_buff` whose ownership the caller gives up.
    pub unsafe fn from_raw(ptr: NonNull<bindings::sk_buff>) -> Self {
        // INVARIANT: the caller hands over exclusive ownership.
        Self(ptr)
    }

    /// Gives up ownership; the caller must free or pass on the buffer.
    pub fn into_raw(self) -> NonNull<bindings::sk_buff> {
        let p = self.0;
        core::mem::forget(self);
        p
    }

    /// The length of the data, in bytes.
    pub fn len(&self) -> u32 {
        // SAFETY: the buffer is valid (type invariant).
        unsafe { (*self.0.as_ptr()).len }
    }

    /// Whether the buffer holds no data.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Frees a buffer that was used successfully. Safe in any context.
    pub fn consume(self) {
        // SAFETY: we own the buffer and give it up here.
        unsafe { bindings::dev_consume_skb_any(self.into_raw().as_ptr()) };
    }
}

impl Drop for SkBuff {
    fn drop(&mut self) {
        // SAFETY: we own the buffer (type invariant) and it is not used after this.
        unsafe { bindings::dev_kfree_skb_any(self.0.as_ptr()) };
    }
}
