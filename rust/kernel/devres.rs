// SPDX-License-Identifier: GPL-2.0

//! Resources that live at most as long as a device is bound to its driver.
//!
//! C header: [`include/linux/device.h`](srctree/include/linux/device.h)
//!
//! A [`Devres`] puts a resource (a mapped BAR, an interrupt) under the device's managed-resource
//! list. Whichever comes first, the device being unbound or the [`Devres`] being dropped, revokes
//! the resource and drops it, and neither returns before the resource is gone: the unbind does
//! not finish, and the drop does not return, while the other is still dropping it. Code that
//! holds the `Devres` gets the resource with [`Devres::access`], showing the bound device (no
//! cost beyond a pointer comparison and a load).
//!
//! There is no `try_access` from anywhere, as upstream has: its RCU read-side guard would leave
//! every sleeping call (a mutex, `rtnl_lock`, a wait, dropping a `Devres`) callable while it is
//! held, and without `PREEMPT_RCU` a sleep ends the read-side section, so the revoke's grace
//! period could end and drop what the guard still reaches. Rust cannot yet tell a sleeping
//! function from another at compile time, so that access is not offered; code without a bound
//! device reaches the resource through something that holds the binding (a registration's
//! callbacks, handed a bound device).
//!
//! A [`ClassDevres`] is the same for what a driver offers the rest of the kernel on behalf of the
//! device (a network interface): it is withdrawn earlier, when the bus starts to unbind the
//! device, before the driver's remove and before any other managed resource is released (see
//! [`Device::add_class_registration`]). So while such a registration's callbacks run, every other
//! resource of the binding is still there, which is what lets them be handed a bound device. It
//! gives no [`Devres::access`], since it is withdrawn while the device is still bound.
//!
//! # Compared with upstream
//!
//! The design is upstream's (Linux 6.15-6.16): an `Arc`-shared inner part holding the
//! [`Revocable`] and a [`Completion`], `access` against a [`Device<Bound>`], and a drop that
//! revokes without a grace period and takes its managed-resource entry back. Differences: one
//! completion, completed by whichever side revoked once the resource is dropped and waited for
//! by the other (upstream 6.16 fixed a race there with a second one); 6.12 has no
//! `devm_remove_action_nowarn`, and `devm_remove_action` warns when the entry is gone, so this
//! uses a devres entry of its own (`devres_alloc` / `devres_add` / `devres_destroy`, whose "not
//! found" is silent); the resource is given by value, not as an initialiser; and
//! [`ClassDevres`] has no upstream counterpart (upstream class abstractions hand out no bound
//! device).
//!
//! [`Device::add_class_registration`]: crate::device::Device::add_class_registration

use crate::alloc::Flags;
use crate::device::{Bound, ClassRegistration, Core, Device};
use crate::error::{code::*, Result};
use crate::init::InPlaceInit;
use crate::revocable::Revocable;
use crate::sync::{Arc, Completion};
use crate::types::ARef;
use crate::{bindings, c_str, pin_init};
use core::ffi::c_void;
use macros::pin_data;

/// The shared part of a [`Devres`] or [`ClassDevres`].
///
/// # Invariants
///
/// `done` is completed, once, by whoever revoked `data`, after the data has been dropped.
#[pin_data]
struct Inner<T> {
    dev: ARef<Device>,
    /// `dev`'s address, to tell it from another device in [`Devres::access`] without going
    /// through the reference (a plain compare on the data path).
    dev_addr: usize,
    #[pin]
    data: Revocable<T>,
    #[pin]
    done: Completion,
}

impl<T> Inner<T> {
    /// Revokes the resource (waiting for RCU readers) and drops it, or, if someone else is
    /// doing that, waits until they are done.
    fn revoke_and_wait(&self) {
        if self.data.revoke() {
            // INVARIANT: we revoked and the data is dropped.
            self.done.complete_all();
        } else {
            self.done.wait_for_completion();
        }
    }
}

impl<T: Send + Sync> ClassRegistration for Inner<T> {
    fn revoke(&self) {
        self.revoke_and_wait();
    }
}

/// A managed-resource entry: one pointer to an `Inner<T>`, made by [`Arc::into_raw`].
///
/// # Invariants
///
/// While the entry is on the device's list it owns the reference the pointer stands for; the
/// entry's release ([`release::<T>`]) or, after `devres_destroy` took the entry off the list,
/// the one who took it, reclaims that reference, exactly once.
type Entry<T> = *const Inner<T>;

/// The C callback; see the function-pointer field it is installed in.
///
/// # Safety
///
/// Called only by the C core, with arguments that are valid, as that callback's C
/// documentation promises, for the duration of the call.
unsafe extern "C" fn release<T>(_dev: *mut bindings::device, res: *mut c_void) {
    // SAFETY: `res` is one of our entries, holding the pointer leaked by `Inner::add_entry`; the
    // devres core runs the release once, after taking the entry off the list, so we reclaim that
    // reference exactly once (invariant of `Entry`).
    let inner = unsafe { Arc::from_raw(res.cast::<Entry<T>>().read()) };
    inner.revoke_and_wait();
}

/// The C callback; see the function-pointer field it is installed in.
///
/// # Safety
///
/// Called only by the C core, with arguments that are valid, as that callback's C
/// documentation promises, for the duration of the call.
unsafe extern "C" fn matches<T>(
    _dev: *mut bindings::device,
    res: *mut c_void,
    data: *mut c_void,
) -> i32 {
    // SAFETY: the core passes entries allocated with `release::<T>`, which all hold a pointer.
    let p = unsafe { res.cast::<Entry<T>>().read() };
    i32::from(p.cast::<c_void>() == data.cast_const())
}

impl<T: Send + 'static> Inner<T> {
    fn new(dev: &Device<Bound>, data: T, flags: Flags) -> Result<Arc<Self>> {
        let inner = Arc::pin_init(
            pin_init!(Inner {
                dev: dev.into(),
                dev_addr: dev.as_raw() as usize,
                data: Revocable::new(data),
                done <- Completion::new(),
            }),
            flags,
        )?;
        // SAFETY: `release::<T>` has the `dr_release_t` signature; the entry holds one pointer;
        // the name is `'static`. NUMA_NO_NODE is -1.
        let node = unsafe {
            bindings::__devres_alloc_node(
                Some(release::<T>),
                core::mem::size_of::<Entry<T>>(),
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
            node.cast::<Entry<T>>().write(raw);
            bindings::devres_add(dev.as_raw(), node);
        }
        // INVARIANT: the entry is on the list and owns the reference leaked just above.
        Ok(inner)
    }

    /// Revokes for the owner's drop: no grace period, since every reader borrows the owner; if
    /// the unbind (or a class revocation) got there first, waits until it has dropped the data.
    fn drop_owner(this: &Arc<Self>) {
        // SAFETY: the owner (`Devres`/`ClassDevres`) is being dropped, and every reference to
        // the resource it handed out (`access`) borrows it, so none exists; class
        // revocation revokes with a grace period of its own.
        if !unsafe { this.data.revoke_nosync() } {
            this.done.wait_for_completion();
            return;
        }
        let ptr: *const Self = &**this;
        // SAFETY: the device is valid (we hold a reference); `release::<T>` and `matches::<T>`
        // are the functions the entry was made with; `matches` compares the stored pointer with
        // `ptr`.
        let ret = unsafe {
            bindings::devres_destroy(
                this.dev.as_raw(),
                Some(release::<T>),
                Some(matches::<T>),
                ptr as *mut c_void,
            )
        };
        if ret == 0 {
            // SAFETY: the entry was on the list and is now destroyed without its release
            // running, so the reference it owned (invariant of `Entry`) is ours to drop.
            drop(unsafe { Arc::from_raw(ptr) });
        }
        // Otherwise the unbind took the entry off the list and runs (or will run) its release,
        // which waits for `done`.
        // INVARIANT: we revoked and the data is dropped.
        this.done.complete_all();
    }
}

/// A resource tied to a device's binding.
///
/// The resource must be `'static`: the entry may outlive the `Devres` if that is leaked.
///
/// # Invariants
///
/// `self.0`'s managed-resource entry was added to `self.0.dev`'s list in [`Devres::new`] (see
/// `Entry`); the resource is revoked only by that entry's release (the device's unbind) or by
/// dropping `self`.
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
///     Ok(())
/// }
/// ```
pub struct Devres<T: Send + 'static>(Arc<Inner<T>>);

impl<T: Send + 'static> Devres<T> {
    /// Ties `data` to `dev`'s binding. On failure `data` is dropped.
    pub fn new(dev: &Device<Bound>, data: T, flags: Flags) -> Result<Self> {
        // INVARIANT: the entry is added by `Inner::new`.
        Ok(Self(Inner::new(dev, data, flags)?))
    }

    /// The resource, given proof that the device is bound: `dev` must be the device this
    /// [`Devres`] was made for ([`EINVAL`] otherwise), in the binding it was made in (a
    /// [`Devres`] kept past its binding's end was revoked then: [`ENODEV`], even once the
    /// device is bound again).
    #[inline]
    pub fn access<'a>(&'a self, dev: &'a Device<Bound>) -> Result<&'a T> {
        if self.0.dev_addr != dev.as_raw() as usize {
            return Err(EINVAL);
        }
        // A binding's unbind revokes its resources before it ends, and `dev` is bound for `'a`:
        // a resource of an earlier binding of `dev` reads as revoked here, stably; one still
        // available belongs to the binding `dev` proves, which cannot end during `'a`.
        if !self.0.data.is_available() {
            return Err(ENODEV);
        }
        // SAFETY: the resource is revoked only by the unbind of its binding or by dropping
        // `self` (type invariant); it is `dev`'s current binding (above), bound for `'a`, and
        // `self` is borrowed for `'a`.
        Ok(unsafe { self.0.data.access() })
    }
}

impl<T: Send + 'static> Drop for Devres<T> {
    fn drop(&mut self) {
        Inner::drop_owner(&self.0);
    }
}

/// What a driver offers the rest of the kernel on behalf of a bound device, withdrawn when the
/// bus starts unbinding the device (see the [module documentation](self)).
///
/// # Invariants
///
/// As for [`Devres`], and `self.0` is also on the device's class-registration list, whose
/// revocation (by the bus, before the driver's remove) revokes it.
pub struct ClassDevres<T: Send + Sync + 'static>(Arc<Inner<T>>);

impl<T: Send + Sync + 'static> ClassDevres<T> {
    /// Ties `data` to `dev`'s binding, to be withdrawn when the bus starts unbinding `dev`.
    /// [`ENODEV`] if the bus does not support that (or the unbind has begun); `data` is then
    /// dropped.
    pub(crate) fn new(dev: &Device<Bound>, data: T, flags: Flags) -> Result<Self> {
        let inner = Inner::new(dev, data, flags)?;
        let this = Self(inner);
        dev.add_class_registration(this.0.clone())?;
        // INVARIANT: the entry is added by `Inner::new`, the class registration just above.
        Ok(this)
    }

    /// The resource, without an RCU section, in a bus callback of the device it was made for
    /// (`dev`, with the device lock held: suspend, resume, shutdown, error recovery), which may
    /// sleep while using it. [`EINVAL`] for another device, [`ENODEV`] if it was withdrawn.
    #[inline]
    pub fn access<'a>(&'a self, dev: &'a Device<Core>) -> Result<&'a T> {
        if self.0.dev_addr != dev.as_raw() as usize {
            return Err(EINVAL);
        }
        if !self.0.data.is_available() {
            return Err(ENODEV);
        }
        // SAFETY: the resource is withdrawn only when the bus starts unbinding `dev`, by the
        // unbind's release of the entry, or by dropping `self` (type invariant). The first two
        // run with `dev`'s device lock held, which the `Core` context says the caller holds
        // for `'a`, so neither can start before the reference ends, and neither has run (the
        // resource was available under the lock); `self` is borrowed for `'a`.
        Ok(unsafe { self.0.data.access() })
    }
}

impl<T: Send + Sync + 'static> Drop for ClassDevres<T> {
    fn drop(&mut self) {
        Inner::drop_owner(&self.0);
    }
}
