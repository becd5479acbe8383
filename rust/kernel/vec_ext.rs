// SPDX-License-Identifier: GPL-2.0

//! `truncate` and `clear` for [`Vec`](crate::alloc::kvec::Vec), keeping its allocation.
//!
//! A driver that rebuilds a ring of buffers (at every bring-up, resume or reset) can keep the
//! ring's array and drop only what it holds: no new allocation, and none of a high order, after
//! the first.
//!
//! # Examples
//!
//! ```
//! use kernel::vec_ext::VecExt;
//!
//! let mut v = KVec::with_capacity(4, GFP_KERNEL)?;
//! for i in 0..4 {
//!     v.push(i, GFP_KERNEL)?;
//! }
//! v.truncate(1);
//! assert_eq!(v.as_slice(), &[0]);
//! v.clear();
//! assert!(v.is_empty());
//! assert_eq!(v.capacity(), 4);
//! # Ok::<(), Error>(())
//! ```
//!
//! # Compared with upstream
//!
//! Linux 6.16 has `Vec::truncate` and `Vec::clear` as methods of `Vec` itself; 6.12 has neither
//! (nor `pop`). This is the same contract as an extension trait, for 6.12's `Vec`.

use crate::alloc::{kvec::Vec, Allocator};

/// Shortening a [`Vec`] in place.
pub trait VecExt {
    /// Drops the elements from `len` on, last first; nothing if the vector is no longer. The
    /// capacity is unchanged.
    fn truncate(&mut self, len: usize);

    /// Drops every element. The capacity is unchanged.
    fn clear(&mut self) {
        self.truncate(0);
    }
}

impl<T, A: Allocator> VecExt for Vec<T, A> {
    fn truncate(&mut self, len: usize) {
        while self.len() > len {
            let last = self.len() - 1;
            // SAFETY: `set_len`: `last` is below the length, so below the capacity, and a lower
            // length needs no further element initialised. `drop_in_place`: `last` was below
            // the length, so the element there is initialised and in the allocation
            // (`as_mut_ptr` points at the first element); with the length lowered first the
            // vector no longer owns it, so it is dropped exactly once, here (a drop that panics
            // leaves the elements before it in the vector, none dropped twice).
            unsafe {
                self.set_len(last);
                core::ptr::drop_in_place(self.as_mut_ptr().add(last));
            }
        }
    }
}
