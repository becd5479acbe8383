// SPDX-License-Identifier: GPL-2.0

//! NAPI: interrupt-mitigated polling of a network device.
//!
//! C header: [`include/linux/netdevice.h`](srctree/include/linux/netdevice.h)
//!
//! Each [`Registration`](super::dev::Registration) owns one NAPI context, added when the device is
//! allocated and deleted when it is freed, enabled (and scheduled once) after the driver's `open`
//! succeeds and disabled before its `stop`. Drivers never hold the context itself. They schedule it
//! with [`Device::napi_schedule`](super::dev::Device::napi_schedule), from any context; they get a
//! [`Poll`] inside their poll callback, and only there, for what only a poll may do (hand frames to
//! the stack, free transmitted buffers the NAPI way). A poll ends only through [`Poll::done`],
//! which calls `napi_complete_done()` when the poll did less than its budget and then runs the
//! driver's re-arming (its interrupt unmasked) if NAPI agrees the poll is over: a poll that reports
//! less than its budget cannot leave NAPI uncompleted, nor complete it twice, and the re-arming
//! passed to `done` runs only once NAPI has completed. Disabling NAPI outside open and stop (for a
//! reset) takes an RTNL proof and lasts for one closure
//! ([`Device::with_napi_disabled`](super::dev::Device::with_napi_disabled)), so it is always
//! undone; across a suspend it stays disabled from
//! [`Device::suspend_napi`](super::dev::Device::suspend_napi) to
//! [`Device::resume_napi`](super::dev::Device::resume_napi). What the poll owns (a receive ring) is
//! the driver's [`Operations::PollState`](super::dev::Operations::PollState): a poll with a budget
//! borrows it from its `Poll` ([`Poll::receiver_and_state`]) until `done`, and open, stop and the
//! closures of `with_napi_disabled` and `with_napi_idle` get it while NAPI is disabled, so it needs
//! no lock; netpoll's poll (budget 0) never gets it.
//!
//! # Compared with upstream
//!
//! Upstream Rust has no NAPI abstraction as of Linux 6.18; this one is ours.

use super::skbuff::{RxBuf, RxFrame, SkBuff};
use crate::bindings;
use crate::error::Result;
use core::marker::PhantomData;

/// What a driver may do inside its NAPI poll callback.
///
/// # Examples
///
/// ```
/// use core::sync::atomic::{AtomicBool, Ordering};
/// use kernel::net::{
///     napi::{Poll, PollDone},
///     skbuff::{RxFrame, SkBuff},
/// };
///
/// // A poll routine hands at most its budget of received frames to GRO, frees what was sent,
/// // and ends the poll with the receive work done; if that completes NAPI, the device may
/// // interrupt again (here, a flag stands for its mask register).
/// fn poll_once<'a>(
///     poll: Poll<'a>,
///     received: impl Iterator<Item = RxFrame>,
///     sent: impl Iterator<Item = SkBuff>,
///     masked: &AtomicBool,
/// ) -> PollDone<'a> {
///     let mut work = 0;
///     for skb in received.take(poll.budget()) {
///         poll.gro_receive(skb);
///         work += 1;
///     }
///     sent.for_each(|skb| poll.consume(skb));
///     poll.done(work, || masked.store(false, Ordering::Relaxed))
/// }
/// ```
///
/// # Invariants
///
/// `napi` is the NAPI context whose poll callback is running, and the value lives no longer
/// than that call (it is only made by the callback adapter, one a call, and handed to the
/// driver, which gives it up to [`Poll::done`]). `'a` is that call's: no other call's `Poll`
/// or [`PollDone`] has it. `state` is the device's poll state
/// ([`Operations::PollState`](super::dev::Operations::PollState)), valid for the call, and
/// this poll's alone for as long as the value lives if `budget` is not 0: a poll with a
/// budget runs only as the owner of NAPI's scheduled bit (`net_rx_action`, the NAPI thread,
/// busy polling), which `napi_complete_done()` in [`Poll::done`] gives up, and every other
/// holder of the state has NAPI disabled, which holds that bit. (netpoll's poll, budget 0, is
/// not serialised with the others while netpoll is being set up or torn down: it never gets
/// the state.)
pub struct Poll<'a, S = ()> {
    napi: *mut bindings::napi_struct,
    budget: i32,
    state: *mut S,
    _p: PhantomData<Invariant<'a>>,
}

/// A lifetime that neither shortens nor lengthens: a [`PollDone`] can stand only for the poll
/// that made it.
type Invariant<'a> = fn(&'a ()) -> &'a ();

/// How a poll ended, made only by [`Poll::done`]: the work reported to NAPI.
///
/// # Invariants
///
/// `work` is in `0..=budget` of the poll that made it (`'a`'s), and [`Poll::done`] called
/// `napi_complete_done()` when it is less than a nonzero budget.
pub struct PollDone<'a> {
    work: i32,
    _p: PhantomData<Invariant<'a>>,
}

impl PollDone<'_> {
    /// The work reported.
    #[inline]
    pub(crate) fn work(&self) -> i32 {
        self.work
    }
}

impl<'a, S> Poll<'a, S> {
    /// The poll of `napi` with `budget`, and the poll state `state`.
    ///
    /// # Safety
    ///
    /// `napi` must be a NAPI context whose poll callback is running for `'a`; `state` must be
    /// its device's poll state, which no one but this poll uses for `'a` if `budget` is not 0
    /// (see the type invariant).
    #[inline]
    pub(crate) unsafe fn new(napi: *mut bindings::napi_struct, budget: i32, state: *mut S) -> Self {
        // INVARIANT: the caller's guarantee.
        Self {
            napi,
            budget,
            state,
            _p: PhantomData,
        }
    }

    /// What receives in this poll and the poll state
    /// ([`Operations::PollState`](super::dev::Operations::PollState), typically the receive
    /// ring), both borrowed from the poll, so both are gone before [`Poll::done`] lets another
    /// poll start. `None` for netpoll's poll (budget 0), which gets neither.
    #[inline]
    pub fn receiver_and_state(&mut self) -> Option<(Receiver<'_>, &mut S)> {
        let rx = self.receiver()?;
        let state = self.state;
        // SAFETY: the budget is not 0 (`receiver` said so), so the state is this poll's alone
        // while it lives (type invariant); the reference lives as long as the poll's mutable
        // borrow, so it is the only one, and ends before `done` can be called.
        Some((rx, unsafe { &mut *state }))
    }

    /// What receives in this poll: `None` for netpoll's (budget 0), which may not receive (it
    /// may run in any context). The checks that take are made once, here, not for every frame.
    #[inline]
    pub fn receiver(&self) -> Option<Receiver<'_>> {
        let budget = usize::try_from(self.budget).ok().filter(|b| *b > 0)?;
        // INVARIANT: this poll's context, borrowed from it; its budget, at least 1, so the
        // poll is not netpoll's: every poller that gives a budget disables bottom halves.
        Some(Receiver {
            napi: self.napi,
            budget,
            _p: PhantomData,
        })
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

    /// Ends the poll having done `work` units of receive work (more is taken as the budget).
    /// With less than a nonzero budget, completes NAPI (`napi_complete_done()`) and, if NAPI
    /// agrees the poll is over, runs `rearm`, which lets the device interrupt again: from then
    /// on another poll may be scheduled. With the budget used NAPI polls again and `rearm` is
    /// not run; nor with a budget of 0 (netpoll's poll, which has nothing to complete).
    #[inline(always)]
    pub fn done(self, work: usize, rearm: impl FnOnce()) -> PollDone<'a> {
        // (`self` is taken: a `Receiver` or state borrowed from it has ended.)
        let budget = self.budget.max(0);
        // `work < budget <= i32::MAX` when converted.
        let work = if work < budget as usize {
            work as i32
        } else {
            budget
        };
        // SAFETY: completing from the context's own poll (type invariant), once (`self` is
        // given up), with less work than the budget, as NAPI requires.
        if work < budget && unsafe { bindings::napi_complete_done(self.napi, work) } {
            rearm();
        }
        // INVARIANT: `0 <= work <= budget`, NAPI completed above when `work < budget`.
        PollDone {
            work,
            _p: PhantomData,
        }
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

/// A poll that may receive (from [`Poll::receiver`]): its budget is not 0, so it is not
/// netpoll's, and runs with bottom halves disabled (every poller that gives a budget does:
/// `net_rx_action`, a NAPI thread, busy polling). Received frames go up through it, and
/// receive buffers come from the per-CPU cache NAPI keeps for such polls
/// ([`RxBuf::alloc_rx_napi`](super::skbuff::RxBuf::alloc_rx_napi)). It borrows the poll, so it
/// is gone before [`Poll::done`] ends it.
///
/// # Examples
///
/// ```
/// use kernel::device::{Bound, Device};
/// use kernel::net::{
///     napi::Poll,
///     skbuff::{RxBuf, RxMapping},
/// };
///
/// /// `slot` holds a frame of `len` bytes the device received after a 16-byte descriptor
/// /// header: a fresh buffer of NAPI's takes its place, and the frame goes up. Returns
/// /// whether it was delivered (if not, the slot keeps its buffer, or the frame is dropped).
/// fn pass_up(poll: &Poll<'_>, dev: &Device<Bound>, slot: &mut RxMapping, len: u32) -> bool {
///     let Some(rx) = poll.receiver() else {
///         return false; // netpoll's poll
///     };
///     let Some(fresh) = RxBuf::alloc_rx_napi(rx, 16 + 1518) else {
///         return false;
///     };
///     match slot.replace(dev, fresh) {
///         Ok(frame) => rx.receive(frame, 16, len).is_ok(),
///         Err(_) => false,
///     }
/// }
/// ```
///
/// (Compile-checked: a doctest runs in no poll.)
///
/// # Invariants
///
/// `napi` is the NAPI context of a poll that is running for `'p` at least, with bottom halves
/// disabled, whose budget, `budget`, is at least 1.
#[derive(Clone, Copy)]
pub struct Receiver<'p> {
    napi: *mut bindings::napi_struct,
    budget: usize,
    _p: PhantomData<&'p ()>,
}

impl Receiver<'_> {
    /// How many frames the poll may receive: at least 1.
    #[inline]
    pub fn budget(self) -> usize {
        self.budget
    }

    /// The NAPI context, polling with a budget.
    #[inline]
    pub(crate) fn raw(self) -> *mut bindings::napi_struct {
        self.napi
    }

    /// Makes the frame of `len` bytes the device received at `offset` in `buf` the buffer's
    /// data for the polling device, as [`RxBuf::into_frame`] does, and hands it to the stack.
    /// Returns whether it was sent to a group (multicast or broadcast) address;
    /// [`EINVAL`](crate::error::code::EINVAL) (the buffer dropped) where `into_frame` fails.
    ///
    /// The frame goes up with `netif_receive_skb()`, as e100.c hands up its frames (a driver
    /// that wants GRO makes the frame with [`RxBuf::into_frame`] and hands it to
    /// [`Poll::gro_receive`]).
    ///
    /// One step where [`RxBuf::into_frame`] and a hand-over are two: the frame is made for the
    /// device whose poll this is, so it needs no check that it is that device's.
    #[inline(always)]
    pub fn receive(self, buf: RxBuf, offset: u32, len: u32) -> Result<bool> {
        // SAFETY: the NAPI context is valid during its poll (type invariant), and so is its
        // device, valid while its NAPI context runs.
        let (frame, group) = unsafe { buf.into_frame_for(offset, len, (*self.napi).dev) }?;
        // SAFETY: inside this context's poll with a budget (type invariant), with bottom halves
        // disabled; the buffer is a received frame of this NAPI context's device (made for it
        // just above), whose `dev` and protocol `eth_type_trans` set. Its ownership passes to
        // the stack.
        unsafe { bindings::netif_receive_skb(frame.into_raw().as_ptr()) };
        Ok(group)
    }
}
