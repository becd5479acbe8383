// SPDX-License-Identifier: GPL-2.0

//! Generic devices of the driver model, and the contexts in which a reference to one is held.
//!
//! C header: [`include/linux/device.h`](srctree/include/linux/device.h)
//!
//! A [`Device`] is a C `struct device`. What code holding a reference to it may do depends on
//! where that reference came from, so the context is part of the type:
//!
//! - [`Normal`]: any reference, such as an [`ARef<Device>`] kept in a driver's state. The
//!   device exists, but it may not be bound to the driver any more.
//! - [`Bound`]: the device is bound to its driver for as long as the reference lives. Things
//!   that belong to a binding need it: device-managed resources ([`Devres`]), DMA allocations
//!   and mappings, interrupt requests.
//! - [`Core`]: a bus callback of the driver (`probe`, `remove`, power management, shutdown,
//!   error recovery) runs with the device lock held. Operations the bus allows only there need
//!   it (enabling the device, bus mastering).
//!
//! A `&Device<Core>` is also a `&Device<Bound>`, which is also a `&Device` (by [`Deref`]), so a
//! reference only ever loses rights when passed on. Only bus and class abstractions create the
//! stronger references, at the places where the C core guarantees what they claim.
//!
//! # Compared with upstream
//!
//! Linux 6.14 and later have the same three contexts with the same names and meanings; this
//! file replaces 6.12's `device.rs`, which had no contexts. Kept smaller: no `CoreInternal`
//! context, no property or firmware-node accessors, and printing lives in
//! [`dev_printk`](crate::dev_printk).
//!
//! [`Devres`]: crate::devres::Devres

use crate::{
    bindings,
    types::{ARef, Opaque},
};
use core::{marker::PhantomData, ops::Deref, ptr};

mod private {
    pub trait Sealed {}
    impl Sealed for super::Normal {}
    impl Sealed for super::Bound {}
    impl Sealed for super::Core {}
}

/// The context a device reference is held in; see the [module documentation](self).
pub trait DeviceContext: private::Sealed {}

/// Any reference: the device exists, nothing more is known.
pub struct Normal;
/// The device is bound to its driver while the reference lives.
pub struct Bound;
/// Inside a bus callback of the driver, with the device lock held.
pub struct Core;

impl DeviceContext for Normal {}
impl DeviceContext for Bound {}
impl DeviceContext for Core {}

/// A device (`struct device`), in context `Ctx`.
///
/// # Invariants
///
/// The wrapped `struct device` is valid, with a non-zero reference count, for as long as the
/// reference to this `Device` exists. For `Ctx` = [`Bound`] the device is bound to a driver for
/// that long; for `Ctx` = [`Core`] the reference is also confined to a bus callback that holds
/// the device lock.
///
/// Instances are reference counted: [`ARef<Device>`] holds a count, and `struct device`'s
/// release may run on any thread.
///
/// # Examples
///
/// ```
/// use kernel::device::{Bound, Device};
///
/// // Code that needs a bound device says so in its signature; a `&Device` does not fit.
/// fn needs_binding(_dev: &Device<Bound>) {}
///
/// // A bound device can be used wherever any device can.
/// fn any_device(_dev: &Device) {}
/// fn pass_on(dev: &Device<Bound>) {
///     any_device(dev);
/// }
/// ```
#[repr(transparent)]
pub struct Device<Ctx: DeviceContext = Normal>(Opaque<bindings::device>, PhantomData<Ctx>);

impl Device {
    /// Creates a new reference-counted abstraction instance of an existing `struct device` pointer.
    ///
    /// # Safety
    ///
    /// `ptr` must be valid, with a reference count that cannot drop to zero during this call.
    pub unsafe fn get_device(ptr: *mut bindings::device) -> ARef<Self> {
        // SAFETY: By the safety requirements ptr is valid for this call.
        unsafe { Self::as_ref(ptr) }.into()
    }

    /// Convert a raw C `struct device` pointer to a `&'a Device`.
    ///
    /// # Safety
    ///
    /// `ptr` must be valid, with a reference count that cannot drop to zero, for `'a`.
    pub unsafe fn as_ref<'a>(ptr: *mut bindings::device) -> &'a Self {
        // SAFETY: `Device` is a transparent wrapper; the caller vouches for the lifetime.
        unsafe { &*ptr.cast() }
    }
}

impl<Ctx: DeviceContext> Device<Ctx> {
    /// The raw `struct device *`.
    pub(crate) fn as_raw(&self) -> *mut bindings::device {
        self.0.get()
    }

    /// Borrows `ptr` in context `Ctx`.
    ///
    /// # Safety
    ///
    /// `ptr` must be valid for `'a`, and what `Ctx` claims must hold for `'a`: for [`Bound`],
    /// the device is bound to a driver; for [`Core`], the caller is a bus callback holding the
    /// device lock.
    pub(crate) unsafe fn from_raw<'a>(ptr: *mut bindings::device) -> &'a Self {
        // SAFETY: transparent wrapper; the caller guarantees validity and the context (type
        // invariant).
        unsafe { &*ptr.cast() }
    }
}

impl Deref for Device<Core> {
    type Target = Device<Bound>;

    fn deref(&self) -> &Device<Bound> {
        // SAFETY: a device inside a bus callback that holds its lock is bound for the callback's
        // duration, which bounds the borrow; same layout.
        unsafe { &*(self as *const Self).cast() }
    }
}

impl Deref for Device<Bound> {
    type Target = Device;

    fn deref(&self) -> &Device {
        // SAFETY: every context claims at least what `Normal` does; same layout.
        unsafe { &*(self as *const Self).cast() }
    }
}

impl<Ctx: DeviceContext> AsRef<Device> for Device<Ctx> {
    fn as_ref(&self) -> &Device {
        // SAFETY: as in `Deref for Device<Bound>`.
        unsafe { &*(self as *const Self).cast() }
    }
}

// (`Normal` has the blanket `From<&T> for ARef<T>`.)
impl From<&Device<Core>> for ARef<Device> {
    fn from(dev: &Device<Core>) -> Self {
        let d: &Device = dev;
        ARef::from(d)
    }
}

impl From<&Device<Bound>> for ARef<Device> {
    fn from(dev: &Device<Bound>) -> Self {
        let d: &Device = dev;
        ARef::from(d)
    }
}

// SAFETY: `get_device`/`put_device` manage the count of every `struct device`.
unsafe impl crate::types::AlwaysRefCounted for Device {
    fn inc_ref(&self) {
        // SAFETY: The existence of a shared reference guarantees that the refcount is non-zero.
        unsafe { bindings::get_device(self.as_raw()) };
    }

    unsafe fn dec_ref(obj: ptr::NonNull<Self>) {
        // SAFETY: The safety requirements guarantee that the refcount is non-zero.
        unsafe { bindings::put_device(obj.cast().as_ptr()) }
    }
}

// SAFETY: A `struct device` may be used and released from any thread (type invariant); only
// the `Normal` context may be owned (through `ARef`), so only it moves between threads.
unsafe impl Send for Device {}

// SAFETY: The methods taking `&self` are safe to call concurrently: they read fields fixed
// while the device exists or call C functions that do their own locking. Sharing a context
// reference with another thread does not extend its lifetime, so the context still holds.
unsafe impl<Ctx: DeviceContext> Sync for Device<Ctx> {}
