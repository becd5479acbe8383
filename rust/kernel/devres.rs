// SPDX-License-Identifier: GPL-2.0

//! Resources that live at most as long as a device is bound to its driver.
//!
//! C header: [`include/linux/device.h`](srctree/include/linux/device.h)
//!
//! A [`Devres`] puts a resource (a mapped BAR, an interrupt, a registered interface) under the
//! device's managed-resource list. Whichever comes first, the device being unbound or the
//! [`Devres`] being dropped, revokes the resource and drops it, and the unbind does not finish
//! before that drop has: nothing of the binding outlives it. Code that holds the `Devres` gets
//! the resource with [`Devres::access`] when it can show a bound device (no cost beyond a
//! pointer comparison), or with [`Devres::try_access`] from anywhere (an RCU read-side section,
//! and `None` once revoked).
//!
//! # Compared with upstream
//!
//! The design is upstream's (Linux 6.15-6.16): an `Arc`-shared inner part holding the
//! [`Revocable`] and a [`Completion`], `access` against a [`Device<Bound>`], and a drop that
//! revokes without a grace period and takes its managed-resource entry back, or, if the unbind
//! is already running it, tells that unbind when the resource is gone. Differences: 6.12 has
//! no `devm_remove_action_nowarn`, and `devm_remove_action` warns when the entry is gone, so
//! this uses a devres entry of its own (`devres_alloc` / `devres_add` / `devres_destroy`,
//! whose "not found" is silent); and the resource is given by value, not as an initialiser.

use crate::alloc::Flags;
use crate::device::{Bound, Device};
use crate::error::{code::*, Result};
use crate::init::InPlaceInit;
use crate::revocable::{Revocable, RevocableGuard};
use crate::sync::{Arc, Completion};
use crate::types::ARef;
use crate::{bindings, c_str, pin_init};
use core::ffi::c_void;
use macros::pin_data;

#[pin_data]
struct Inner<T> {
    dev: ARef<Device>,
    #[pin]
    data: Revocable<T>,
    /// Completed by [`Devres::drop`] once it has dropped the resource, for an unbind that found
    /// it already being revoked.
    #[pin]
    revoked: Completion,
}

/// A resource tied to a device's binding.
///
/// # Invariants
///
/// While the devres entry added in [`Devres::new`] is on the device's list, it holds a pointer
/// made by [`Arc::into_raw`] from a clone of `self.0`, which owns that reference; the entry's
/// release function ([`Devres::release`]) or [`Devres::drop`] (after taking the entry off the
/// list) reclaims it, exactly once.
///
/// # Examples
///
/// ```
/// use kernel::device::{Bound, Device};
/// use kernel::devres::Devres;
///
/// fn keep(dev: &Device<Bound>) -> Result {
///     let d = Devres::new(dev, 42u32, GFP_KERNEL)?;
///     // With the bound device at hand: no RCU section.
///     assert_eq!(*d.access(dev)?, 42);
///     // From anywhere: `None` once the device is unbound.
///     assert_eq!(d.try_access().map(|v| *v), Some(42));
///     Ok(())
/// }
/// ```
///
/// The resource must be `'static`: the entry may outlive the `Devres` if that is leaked.
pub struct Devres<T: Send + 'static>(Arc<Inner<T>>);

impl<T: Send + 'static> Devres<T> {
    /// Ties `data` to `dev`'s binding. On failure `data` is dropped.
    pub fn new(dev: &Device<Bound>, data: T, flags: Flags) -> Result<Self> {
        let inner = Arc::pin_init(
            pin_init!(Inner {
                dev: dev.into(),
                data: Revocable::new(data),
                revoked <- Completion::new(),
            }),
            flags,
        )?;
        // SAFETY: `release` has the `dr_release_t` signature; the entry holds one pointer, and
        // the name is `'static`. NUMA_NO_NODE is -1.
        let node = unsafe {
            bindings::__devres_alloc_node(
                Some(Self::release),
                core::mem::size_of::<*const Inner<T>>(),
                flags.as_raw(),
                -1,
                c_str!("rust_devres").as_char_ptr(),
            )
        };
        if node.is_null() {
            return Err(ENOMEM);
        }
        let raw = Arc::into_raw(inner.clone());
        // SAFETY: `node` points to a fresh entry of one pointer's size (allocated above, suitably
        // aligned for any type by the devres allocator), which we initialise before adding it.
        unsafe {
            node.cast::<*const Inner<T>>().write(raw);
            bindings::devres_add(dev.as_raw(), node);
        }
        // INVARIANT: the entry is on the list and owns the reference leaked just above.
        Ok(Self(inner))
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn release(_dev: *mut bindings::device, res: *mut c_void) {
        // SAFETY: `res` is one of our entries, holding the pointer leaked in `new`; the devres
        // core runs the release once, after taking the entry off the list, so we reclaim that
        // reference exactly once (type invariant).
        let inner = unsafe { Arc::from_raw(res.cast::<*const Inner<T>>().read()) };
        if !inner.data.revoke() {
            // `Devres::drop` revokes concurrently: the unbind must not finish before the
            // resource is gone.
            inner.revoked.wait_for_completion();
        }
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn matches(
        _dev: *mut bindings::device,
        res: *mut c_void,
        data: *mut c_void,
    ) -> i32 {
        // SAFETY: the core passes entries allocated with our `release`, which all hold a pointer.
        let p = unsafe { res.cast::<*const Inner<T>>().read() };
        i32::from(p.cast::<c_void>() == data.cast_const())
    }

    /// The resource, given proof that the device is bound: `dev` must be the device this
    /// [`Devres`] was made for ([`EINVAL`] otherwise).
    pub fn access<'a>(&'a self, dev: &'a Device<Bound>) -> Result<&'a T> {
        if self.0.dev.as_raw() != dev.as_raw() {
            return Err(EINVAL);
        }
        // SAFETY: the resource is revoked only by the unbind of `dev` or by dropping `self`;
        // `dev` is bound for `'a` and `self` is borrowed for `'a`.
        Ok(unsafe { self.0.data.access() })
    }

    /// The resource inside an RCU read-side section (do not sleep holding the guard), or `None`
    /// once it has been revoked.
    pub fn try_access(&self) -> Option<RevocableGuard<'_, T>> {
        self.0.data.try_access()
    }
}

impl<T: Send + 'static> Drop for Devres<T> {
    fn drop(&mut self) {
        // SAFETY: every reference to the resource borrows `self` (`access`, `try_access`), and
        // `self` is being dropped, so none exists: no grace period is needed.
        if !unsafe { self.0.data.revoke_nosync() } {
            // The unbind's release already did it.
            return;
        }
        let ptr: *const Inner<T> = &*self.0;
        // SAFETY: the device is valid (we hold a reference); `release` and `matches` are the
        // functions the entry was made with; `matches` compares the stored pointer with `ptr`.
        let ret = unsafe {
            bindings::devres_destroy(
                self.0.dev.as_raw(),
                Some(Self::release),
                Some(Self::matches),
                ptr as *mut c_void,
            )
        };
        if ret == 0 {
            // SAFETY: the entry was on the list and is now destroyed without its release
            // running, so the reference it owned (type invariant) is ours to drop.
            drop(unsafe { Arc::from_raw(ptr) });
        } else {
            // The unbind took the entry off the list and runs (or will run) its release, which
            // waits for this.
            self.0.revoked.complete_all();
        }
    }
}
