// SPDX-License-Identifier: GPL-2.0

//! NAPI: interrupt-mitigated polling of a network device.
//!
//! C header: [`include/linux/netdevice.h`](srctree/include/linux/netdevice.h)
//!
//! Each [`Registration`](super::dev::Registration) owns one NAPI context, added when the device
//! is allocated and deleted when it is freed, enabled before the driver's `open` and disabled
//! before its `stop`. Drivers never hold the context itself. They schedule it with
//! [`Device::napi_schedule`](super::dev::Device::napi_schedule), from any context; they get a
//! [`Poll`] inside their poll callback, and only there, for what only a poll may do (hand
//! frames to GRO, free transmitted buffers the NAPI way); and the abstraction completes NAPI
//! itself when a poll did less than its budget, so a poll cannot forget to. Disabling NAPI
//! outside open and stop (for a reset) takes an RTNL proof and re-enables on drop
//! ([`Device::napi_disable`](super::dev::Device::napi_disable)), so it is always paired.
//!
//! # Compared with upstream
//!
//! Upstream Rust has no NAPI abstraction as of Linux 6.18; this one is ours.

use super::skbuff::{RxFrame, SkBuff};
use crate::bindings;
use core::marker::PhantomData;

/// What a driver may do inside its NAPI poll callback.
///
/// # Examples
///
/// ```
/// use kernel::net::{
///     napi::Poll,
///     skbuff::{RxFrame, SkBuff},
/// };
///
/// // A poll routine hands at most its budget of received frames to GRO, frees what was sent,
/// // and reports the receive work done.
/// fn poll_once(
///     poll: &Poll<'_>,
///     received: impl Iterator<Item = RxFrame>,
///     sent: impl Iterator<Item = SkBuff>,
/// ) -> usize {
///     let mut work = 0;
///     for skb in received.take(poll.budget()) {
///         poll.gro_receive(skb);
///         work += 1;
///     }
///     sent.for_each(|skb| poll.consume(skb));
///     work
/// }
/// ```
///
/// # Invariants
///
/// `napi` is the NAPI context whose poll callback is running, and the value lives no longer
/// than that call (it is only made by the callback adapter and borrowed by the driver).
pub struct Poll<'a> {
    napi: *mut bindings::napi_struct,
    budget: i32,
    _p: PhantomData<&'a bindings::napi_struct>,
}

impl<'a> Poll<'a> {
    /// The poll of `napi` with `budget`.
    ///
    /// # Safety
    ///
    /// `napi` must be a NAPI context whose poll callback is running for `'a`.
    #[inline]
    pub(crate) unsafe fn new(napi: *mut bindings::napi_struct, budget: i32) -> Self {
        // INVARIANT: the caller's guarantee.
        Self {
            napi,
            budget,
            _p: PhantomData,
        }
    }

    /// How many frames this poll may receive. 0 when netpoll polls (then only transmit
    /// completions may be handled).
    #[inline]
    pub fn budget(&self) -> usize {
        usize::try_from(self.budget).unwrap_or(0)
    }

    /// Hands a received frame to the stack through GRO. Only frames the device received (an
    /// [`RxFrame`], protocol set, bound to the interface) can be. With a budget of 0 (netpoll)
    /// nothing may be received: the frame is dropped.
    #[inline]
    pub fn gro_receive(&self, frame: RxFrame) {
        // SAFETY: the NAPI context is valid during its poll (type invariant); the buffer is ours.
        let same_dev = unsafe {
            (*self.napi).dev
                == (*frame.as_raw())
                    .__bindgen_anon_1
                    .__bindgen_anon_1
                    .__bindgen_anon_1
                    .dev
        };
        if self.budget <= 0 || !same_dev {
            // netpoll's poll receives nothing; a frame made for another interface is not ours
            // to deliver (its device may be gone).
            drop(frame);
            return;
        }
        // SAFETY: inside this context's poll with a budget (type invariant); the buffer is a
        // received frame of this NAPI context's device, whose `dev` and protocol
        // `eth_type_trans` set; its ownership passes to the stack.
        unsafe { bindings::napi_gro_receive(self.napi, frame.into_raw().as_ptr()) };
    }

    /// Frees a transmitted buffer, batching the frees as NAPI does (`napi_consume_skb()`; with
    /// a budget of 0, as under netpoll, it frees it the any-context way).
    #[inline]
    pub fn consume(&self, skb: SkBuff) {
        // SAFETY: inside this context's poll (type invariant), with its budget; we own the
        // buffer and give it up.
        unsafe { bindings::napi_consume_skb(skb.into_raw().as_ptr(), self.budget) };
    }
}
