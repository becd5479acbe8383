// SPDX-License-Identifier: GPL-2.0

//! NAPI: interrupt-mitigated polling of a network device.
//!
//! C header: [`include/linux/netdevice.h`](srctree/include/linux/netdevice.h)
//!
//! Each [`Registration`](super::dev::Registration) owns one NAPI context, added when the device
//! is allocated and deleted when it is freed. It is enabled before the driver's `open` runs and
//! disabled before its `stop` runs, so a driver's interrupt handler may always call
//! [`Napi::schedule`], and its `poll` (see [`Operations::poll`](super::dev::Operations::poll))
//! only runs while the device is open.

use super::skbuff::SkBuff;
use crate::bindings;
use crate::types::Opaque;

/// A NAPI context (`struct napi_struct`).
///
/// # Invariants
///
/// The wrapped `napi_struct` has been added to its device with `netif_napi_add_weight` and is
/// not deleted while a reference to it exists.
#[repr(transparent)]
pub struct Napi(Opaque<bindings::napi_struct>);

impl Napi {
    /// Borrows a C `napi_struct`.
    ///
    /// # Safety
    ///
    /// `ptr` must be a NAPI context added to a device, valid for `'a`.
    pub(crate) unsafe fn from_raw<'a>(ptr: *mut bindings::napi_struct) -> &'a Self {
        // SAFETY: transparent wrapper; the caller vouches for validity.
        unsafe { &*ptr.cast() }
    }

    pub(crate) fn as_raw(&self) -> *mut bindings::napi_struct {
        self.0.get()
    }

    /// Schedules `poll` unless it is already scheduled or the context is disabled. Returns
    /// whether this call scheduled it. Callable from any context, typically the interrupt
    /// handler.
    pub fn schedule(&self) -> bool {
        // SAFETY: the context is valid and added (type invariant).
        unsafe { bindings::napi_schedule(self.as_raw()) }
    }

    /// Reports that `poll` did `work_done` (less than its budget) and is done; returns `false`
    /// if polling must continue anyway (the driver must then leave interrupts masked). Call
    /// only from `poll`.
    pub fn complete_done(&self, work_done: i32) -> bool {
        // SAFETY: the context is valid; called from its own poll (documented contract).
        unsafe { bindings::napi_complete_done(self.as_raw(), work_done) }
    }

    /// Enables the context after [`Napi::disable`]. Call with RTNL held while the device is
    /// open (the core enables it around `open` itself).
    pub fn enable(&self) {
        // SAFETY: the context is valid and added; the caller pairs this with `disable`.
        unsafe { bindings::napi_enable(self.as_raw()) };
    }

    /// Disables the context, waiting for a running `poll` to finish. Call with RTNL held while
    /// the device is open, and re-enable it before releasing RTNL (for a reset, say).
    pub fn disable(&self) {
        // SAFETY: the context is valid and added.
        unsafe { bindings::napi_disable(self.as_raw()) };
    }

    /// Hands a received frame to the stack through GRO. Call only from `poll`.
    pub fn gro_receive(&self, skb: SkBuff) {
        // SAFETY: the context is valid; ownership of the buffer passes to the stack.
        unsafe { bindings::napi_gro_receive(self.as_raw(), skb.into_raw().as_ptr()) };
    }
}
