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
//! A bound device also carries its binding's class registrations (see
//! [`Devres`]'s `ClassDevres`): what the driver offers the rest of the kernel on the device's
//! behalf, withdrawn by the bus before anything else of the binding goes.
//!
//! # Compared with upstream
//!
//! Upstream gained the same contexts with the same names and meanings over Linux 6.15-6.16
//! (`Normal` and `Core` first, `Bound` after); this file replaces 6.12's `device.rs`, which had
//! none. Kept smaller: no `CoreInternal` context, no property or firmware-node accessors, and
//! printing lives in [`dev_printk`](crate::dev_printk). The class-registration list is ours:
//! upstream hands no bound device to class callbacks.
//!
//! [`Devres`]: crate::devres::Devres

use crate::{
    alloc::{flags::GFP_KERNEL, KVec},
    bindings,
    error::{code::*, Result},
    init::InPlaceInit,
    new_mutex,
    sync::{Arc, Mutex},
    types::{ARef, Opaque},
};
use core::{ffi::c_void, marker::PhantomData, ops::Deref, ptr};

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
    #[inline]
    pub unsafe fn as_ref<'a>(ptr: *mut bindings::device) -> &'a Self {
        // SAFETY: `Device` is a transparent wrapper; the caller vouches for the lifetime.
        unsafe { &*ptr.cast() }
    }
}

impl<Ctx: DeviceContext> Device<Ctx> {
    /// The raw `struct device *`.
    #[inline]
    pub(crate) fn as_raw(&self) -> *mut bindings::device {
        // `Device` is a transparent wrapper of `Opaque<bindings::device>`, itself one of the
        // C struct in an `UnsafeCell`: the same address, with the right to mutate through it
        // (as `Opaque::get`, without a call into the kernel crate for its instance).
        core::ptr::from_ref(self).cast_mut().cast()
    }

    /// Borrows `ptr` in context `Ctx`.
    ///
    /// # Safety
    ///
    /// `ptr` must be valid for `'a`, and what `Ctx` claims must hold for `'a`: for [`Bound`],
    /// the device is bound to a driver; for [`Core`], the caller is a bus callback holding the
    /// device lock.
    #[inline]
    pub(crate) unsafe fn from_raw<'a>(ptr: *mut bindings::device) -> &'a Self {
        // SAFETY: transparent wrapper; the caller guarantees validity and the context (type
        // invariant).
        unsafe { &*ptr.cast() }
    }
}

/// Wake-up: whether the device may wake the system from sleep (`include/linux/pm_wakeup.h`).
impl<Ctx: DeviceContext> Device<Ctx> {
    /// Whether the device can signal wake-up at all (its bus found the means, such as a PCI
    /// PME capability).
    pub fn can_wakeup(&self) -> bool {
        // SAFETY: the device is valid; the helper reads one flag.
        unsafe { bindings::device_can_wakeup(self.as_raw()) }
    }

    /// Whether the device is to wake the system from the next sleep: it can, and wake-up is
    /// enabled (by [`Device::set_wakeup_enable`], or by the user in sysfs).
    pub fn may_wakeup(&self) -> bool {
        // SAFETY: the device is valid; the helper reads the device's wake-up state.
        unsafe { bindings::device_may_wakeup(self.as_raw()) }
    }

    /// Enables or disables the device's wake-up from system sleep, as the user would through
    /// `power/wakeup` in sysfs. May sleep (it registers the device's wake-up source).
    /// [`EINVAL`] if the device cannot wake the system ([`Device::can_wakeup`]), [`EEXIST`] if
    /// wake-up is already enabled (compare with [`Device::may_wakeup`] first).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::device::Device;
    ///
    /// fn apply_wol(dev: &Device, magic: bool) -> Result {
    ///     if magic && !dev.can_wakeup() {
    ///         return Err(EOPNOTSUPP);
    ///     }
    ///     if dev.may_wakeup() != magic {
    ///         dev.set_wakeup_enable(magic)?;
    ///     }
    ///     Ok(())
    /// }
    /// ```
    pub fn set_wakeup_enable(&self, enable: bool) -> Result {
        // SAFETY: the device is valid; process context (the caller's, as documented). Without
        // `CONFIG_PM_SLEEP` the binding is the helper around C's inline version.
        crate::error::to_result(unsafe {
            bindings::device_set_wakeup_enable(self.as_raw(), enable)
        })
    }
}

impl Deref for Device<Core> {
    type Target = Device<Bound>;

    #[inline]
    fn deref(&self) -> &Device<Bound> {
        // SAFETY: a device inside a bus callback that holds its lock is bound for the callback's
        // duration, which bounds the borrow; same layout.
        unsafe { &*(self as *const Self).cast() }
    }
}

impl Deref for Device<Bound> {
    type Target = Device;

    #[inline]
    fn deref(&self) -> &Device {
        // SAFETY: every context claims at least what `Normal` does; same layout.
        unsafe { &*(self as *const Self).cast() }
    }
}

impl<Ctx: DeviceContext> AsRef<Device> for Device<Ctx> {
    #[inline]
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

/// Something a driver offers the rest of the kernel on behalf of a bound device (a network
/// interface, say), whose callbacks may use the binding's resources.
///
/// Bus abstractions withdraw every class registration of a binding when they start unbinding the
/// device, before the driver's remove and before any managed resource is released; so while its
/// callbacks run, the binding is whole, and they may be handed the device as [`Bound`].
pub(crate) trait ClassRegistration: Send + Sync {
    /// Withdraws it: returns once no callback of it runs, or will run. Sleeps; idempotent.
    fn revoke(&self);
}

/// The class registrations of one binding.
///
/// # Invariants
///
/// Once `closed`, no registration is added; every registration added before is revoked by
/// whoever closed it.
struct ClassList {
    closed: bool,
    regs: KVec<Arc<dyn ClassRegistration>>,
}

/// A managed-resource entry holding the binding's class list: one pointer made by
/// [`Arc::into_raw`], owned by the entry until its release.
type ClassEntry = *const Mutex<ClassList>;

/// The C callback; see the function-pointer field it is installed in.
///
/// # Safety
///
/// Called only by the C core, with arguments that are valid, as that callback's C
/// documentation promises, for the duration of the call.
unsafe extern "C" fn class_list_release(_dev: *mut bindings::device, res: *mut c_void) {
    // SAFETY: `res` is the entry `open_class_list` made, holding a pointer leaked from an `Arc`;
    // the release runs once, so the reference is reclaimed once.
    let list = unsafe { Arc::from_raw(res.cast::<ClassEntry>().read()) };
    // The bus revokes them all before the driver's remove, long before managed resources are
    // released; a registration still here would have seen resources already released (its
    // parent was claimed bound): warn, and withdraw it, the least bad thing left to do.
    let left = {
        let l = list.lock();
        !l.closed || !l.regs.is_empty()
    };
    // SAFETY: `WARN_ON` has no preconditions.
    unsafe { bindings::warn_on(left) };
    revoke_all(&list);
}

/// Closes `list` and revokes what it holds (outside the lock: revoking sleeps until callbacks
/// have stopped, and a callback may try to add a registration meanwhile, which then fails).
fn revoke_all(list: &Mutex<ClassList>) {
    let regs = {
        let mut l = list.lock();
        l.closed = true;
        core::mem::take(&mut l.regs)
    };
    // Newest first, as managed resources are released.
    for r in regs.iter().rev() {
        r.revoke();
    }
}

impl Device<Bound> {
    /// The binding's class list, if the bus opened one.
    fn class_list(&self) -> Option<&Mutex<ClassList>> {
        // SAFETY: the device is valid; `class_list_release` identifies our entries, and a null
        // match function matches any of them.
        let res = unsafe {
            bindings::devres_find(
                self.as_raw(),
                Some(class_list_release),
                None,
                ptr::null_mut(),
            )
        };
        if res.is_null() {
            return None;
        }
        // SAFETY: the entry holds a pointer to a live `Mutex<ClassList>`, owned by the entry,
        // which is released only by the unbind's resource release; the device is bound for the
        // borrow of `self`, so that has not happened.
        Some(unsafe { &*res.cast::<ClassEntry>().read() })
    }

    /// Adds `reg` to the binding's class registrations, to be revoked when the bus starts
    /// unbinding the device. [`ENODEV`] if the bus keeps no list, or the unbind has begun.
    pub(crate) fn add_class_registration(&self, reg: Arc<dyn ClassRegistration>) -> Result {
        let list = self.class_list().ok_or(ENODEV)?;
        let mut l = list.lock();
        if l.closed {
            return Err(ENODEV);
        }
        l.regs.push(reg, GFP_KERNEL)?;
        Ok(())
    }
}

impl Device<Core> {
    /// For bus abstractions, before calling a driver's probe: starts the binding's class list.
    /// A bus that calls this must call [`Device::revoke_class_registrations`] when it starts
    /// unbinding the device (before the driver's remove) and when the probe fails.
    pub(crate) fn open_class_list(&self) -> Result {
        let list = Arc::pin_init(
            new_mutex!(ClassList {
                closed: false,
                regs: KVec::new(),
            }),
            GFP_KERNEL,
        )?;
        // SAFETY: `class_list_release` has the `dr_release_t` signature; the entry holds one
        // pointer; the name is `'static`. NUMA_NO_NODE is -1.
        let node = unsafe {
            bindings::__devres_alloc_node(
                Some(class_list_release),
                core::mem::size_of::<ClassEntry>(),
                GFP_KERNEL.as_raw(),
                -1,
                crate::c_str!("rust_class_list").as_char_ptr(),
            )
        };
        if node.is_null() {
            return Err(ENOMEM);
        }
        // SAFETY: `node` is a fresh entry of one pointer's size, initialised before it is added.
        unsafe {
            node.cast::<ClassEntry>().write(Arc::into_raw(list));
            bindings::devres_add(self.as_raw(), node);
        }
        Ok(())
    }

    /// For bus abstractions: withdraws every class registration of the binding and refuses new
    /// ones. Sleeps until their callbacks have stopped.
    pub(crate) fn revoke_class_registrations(&self) {
        if let Some(list) = (**self).class_list() {
            revoke_all(list);
        }
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
