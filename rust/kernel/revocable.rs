// SPDX-License-Identifier: GPL-2.0

//! Objects that can be revoked: access is checked, and after revocation the object is dropped.
//!
//! Used by [`crate::devres::Devres`] to tie a resource (a mapped BAR, say) to the time a device is
//! bound to its driver: once the device is unbound, every later access fails instead of touching
//! a resource that is gone.
//!
//! # Compared with upstream
//!
//! As upstream's (Linux 6.13-6.16): an atomic "available" flag and RCU; `revoke` waits a grace
//! period, `revoke_nosync` does not (for `Devres::drop`, where no reader can exist), and
//! `access` skips the RCU section for callers that prove the object cannot be revoked meanwhile.
//! Differences: not pin-initialised (the object is held by value), no `try_access_with` family,
//! and `try_access` is `unsafe`: its guard must not be held across a sleep (see there).

use crate::sync::rcu;
use core::cell::UnsafeCell;
use core::mem::ManuallyDrop;
use core::ops::Deref;
use core::sync::atomic::{AtomicBool, Ordering};

/// An object that may be revoked; readers get it through [`Revocable::try_access`] (an RCU
/// read-side section, `unsafe`) or [`Revocable::access`] (proof that it cannot be revoked
/// meanwhile, `unsafe`), which safe wrappers such as [`crate::devres::Devres::access`] make.
///
/// Readers run in RCU read-side critical sections; [`Revocable::revoke`] marks the object gone,
/// waits for a grace period so that no reader still holds it, and only then drops it.
///
/// # Invariants
///
/// `data` is initialised and not yet dropped while `available` is `true`. Once `available` has
/// been set to `false` (which happens exactly once, by whoever swaps it), `data` is dropped by that
/// same caller, and never accessed again: after an RCU grace period ([`Revocable::revoke`]), or
/// at once where no reader can exist ([`Revocable::revoke_nosync`], whose caller guarantees it).
///
/// # Examples
///
/// ```
/// use kernel::revocable::Revocable;
///
/// let r = Revocable::new(17u32);
/// // SAFETY: nothing sleeps while the guard lives.
/// assert_eq!(unsafe { r.try_access() }.map(|v| *v), Some(17));
/// r.revoke();
/// // SAFETY: as above.
/// assert!(unsafe { r.try_access() }.is_none());
/// // Revoking twice is harmless.
/// r.revoke();
/// ```
pub struct Revocable<T> {
    available: AtomicBool,
    data: UnsafeCell<ManuallyDrop<T>>,
}

// SAFETY: `Revocable<T>` hands out `&T` to other threads (needs `T: Sync`) and may drop `T` on
// another thread than the one that made it (needs `T: Send`).
unsafe impl<T: Send + Sync> Sync for Revocable<T> {}

// SAFETY: moving a `Revocable<T>` moves the `T` inside it.
unsafe impl<T: Send> Send for Revocable<T> {}

impl<T> Revocable<T> {
    /// Wraps `data`, available until revoked.
    pub fn new(data: T) -> Self {
        // INVARIANT: `data` is initialised and `available` is `true`.
        Self {
            available: AtomicBool::new(true),
            data: UnsafeCell::new(ManuallyDrop::new(data)),
        }
    }

    /// Returns a guard that dereferences to the object, or `None` once it has been revoked.
    ///
    /// # Safety
    ///
    /// Nothing that may sleep runs while the guard lives (a mutex, `rtnl_lock`, a wait, an
    /// allocation with `GFP_KERNEL`, dropping a `Devres`). The guard holds an RCU read-side
    /// critical section, which a sleep ends where RCU is not preemptible: [`Revocable::revoke`]
    /// could then drop the object the guard still reaches. Rust cannot check this at compile
    /// time (upstream's `try_access` is safe and says so in prose; this one says it in its
    /// type).
    #[inline]
    pub unsafe fn try_access(&self) -> Option<RevocableGuard<'_, T>> {
        let guard = rcu::read_lock();
        if self.available.load(Ordering::Acquire) {
            // SAFETY: `available` was true inside this RCU section, so by the type invariant the
            // data is initialised, and `revoke` cannot drop it before the section ends, since it
            // waits for a grace period after clearing `available`.
            let data = unsafe { &*self.data.get() };
            Some(RevocableGuard { data, _rcu: guard })
        } else {
            None
        }
    }

    /// Revokes access and drops the object. Sleeps for an RCU grace period the first time.
    ///
    /// Returns `true` if this call did the revoking.
    pub fn revoke(&self) -> bool {
        if !self.available.swap(false, Ordering::AcqRel) {
            return false;
        }
        rcu::synchronize();
        // SAFETY: this caller swapped `available` from true to false, so it alone drops the data
        // (type invariant), and the grace period above means no reader still holds a reference.
        unsafe { ManuallyDrop::drop(&mut *self.data.get()) };
        true
    }

    /// Like [`Revocable::revoke`], without waiting for a grace period.
    ///
    /// # Safety
    ///
    /// No reference to the object may exist: no [`RevocableGuard`] and nothing returned by
    /// [`Revocable::access`] (as when the only way to them borrows something being dropped).
    pub unsafe fn revoke_nosync(&self) -> bool {
        if !self.available.swap(false, Ordering::AcqRel) {
            return false;
        }
        // SAFETY: as in `revoke`; the caller guarantees no reader exists, so no grace period
        // needs to pass.
        unsafe { ManuallyDrop::drop(&mut *self.data.get()) };
        true
    }

    /// Whether the object is still there (not revoked). Only a snapshot, unless the caller
    /// rules out a concurrent [`Revocable::revoke`] by other means (a lock revokers hold).
    #[inline]
    pub fn is_available(&self) -> bool {
        self.available.load(Ordering::Acquire)
    }

    /// The object, without the RCU read-side section of [`Revocable::try_access`].
    ///
    /// # Safety
    ///
    /// The object must not be revoked while the returned reference lives (as when revocation
    /// happens only at a device's unbind and the caller proves the device bound for `'_`).
    #[inline]
    pub unsafe fn access(&self) -> &T {
        // SAFETY: not revoked for the reference's lifetime (the caller's guarantee), so the data
        // is initialised and not dropped (type invariant).
        unsafe { &*self.data.get() }
    }
}

impl<T> Drop for Revocable<T> {
    fn drop(&mut self) {
        if *self.available.get_mut() {
            // SAFETY: `&mut self` means no reader exists, and `available` says the data is still
            // there to drop.
            unsafe { ManuallyDrop::drop(self.data.get_mut()) };
        }
    }
}

/// Access to a [`Revocable`]'s object, inside an RCU read-side critical section.
pub struct RevocableGuard<'a, T> {
    data: &'a T,
    _rcu: rcu::Guard,
}

impl<T> Deref for RevocableGuard<'_, T> {
    type Target = T;

    #[inline]
    fn deref(&self) -> &T {
        self.data
    }
}
