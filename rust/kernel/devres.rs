// SPDX-License-Identifier: GPL-2.0

//! Resources that live exactly as long as a device is bound to its driver.
//!
//! C header: [`include/linux/device.h`](srctree/include/linux/device.h)
//!
//! A [`Devres`] registers a device-managed action when it is made. Whichever comes first, the
//! device being unbound or the [`Devres`] being dropped, revokes the resource and drops it; the
//! other one then finds it gone. A driver that keeps a `Devres<Bar>` can therefore never touch a
//! BAR after its device has been unbound: [`Revocable::try_access`] returns `None` instead.

use crate::alloc::Flags;
use crate::device::Device;
use crate::error::{to_result, Result};
use crate::revocable::Revocable;
use crate::sync::Arc;
use crate::{bindings, c_str};
use core::ffi::c_void;
use core::ops::Deref;

/// A resource bound to a device's bound lifetime.
///
/// # Invariants
///
/// While the device-managed action registered in [`Devres::new`] has not run, it owns one
/// reference to `self.0`, leaked with [`Arc::into_raw`] and reclaimed by [`Devres::callback`].
pub struct Devres<T>(Arc<Revocable<T>>);

impl<T: Send + Sync + 'static> Devres<T> {
    /// Binds `data` to `dev`'s bound lifetime. On failure `data` is dropped.
    pub fn new(dev: &Device, data: T, flags: Flags) -> Result<Self> {
        let inner = Arc::new(Revocable::new(data), flags)?;
        let raw = inner.clone().into_raw();
        // SAFETY: `dev` is a valid, bound device (we hold a reference to it); `callback` matches
        // the action signature and accepts exactly the pointer we pass.
        let ret = unsafe {
            bindings::__devm_add_action(
                dev.as_raw(),
                Some(Self::callback),
                raw as *mut c_void,
                c_str!("rust_devres").as_char_ptr(),
            )
        };
        if let Err(e) = to_result(ret) {
            // SAFETY: the action was not registered, so the reference leaked above is ours again.
            drop(unsafe { Arc::from_raw(raw) });
            return Err(e);
        }
        // INVARIANT: the action now owns the leaked reference.
        Ok(Self(inner))
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn callback(ptr: *mut c_void) {
        // SAFETY: `ptr` came from `Arc::into_raw` in `new` and the devres core runs the action
        // exactly once, so we reclaim that reference exactly once.
        let inner = unsafe { Arc::<Revocable<T>>::from_raw(ptr.cast()) };
        inner.revoke();
    }
}

impl<T> Deref for Devres<T> {
    type Target = Revocable<T>;

    fn deref(&self) -> &Revocable<T> {
        &self.0
    }
}

impl<T> Drop for Devres<T> {
    fn drop(&mut self) {
        // Drop the resource now rather than at unbind; the action will find it revoked.
        self.0.revoke();
    }
}
