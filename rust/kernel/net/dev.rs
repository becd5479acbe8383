// SPDX-License-Identifier: GPL-2.0

//! Network devices (`struct net_device`) and their operations.
//!
//! C header: [`include/linux/netdevice.h`](srctree/include/linux/netdevice.h)
//!
//! A driver implements [`Operations`] (and [`ethtool::Operations`](super::ethtool::Operations))
//! on its shared device state `T` and registers an Ethernet device for it with
//! [`Registration::register`], which allocates the `net_device`, keeps an [`Arc<T>`] in its
//! private area, registers it, and hands the registration back as a [`ClassDevres`]: it is
//! unregistered when the driver drops that or, at the latest, when the bus starts unbinding the
//! parent device, before the driver's remove and before any managed resource of the binding is
//! released (however the driver kept the registration, even leaked). Every callback therefore
//! runs while the binding is whole, and [`Device::parent`] says so in its type (what DMA
//! mappings, interrupt requests and [`Devres::access`](crate::devres::Devres::access) need).
//!
//! The registration owns what C drivers juggle by hand around `open` and `stop`: the
//! interrupt line (requested, named after the interface, just before `open`; freed just after
//! `stop`), the NAPI context (enabled and scheduled once after `open` succeeds, disabled before
//! `stop`; a poll ends with
//! [`Poll::done`](super::napi::Poll::done), which completes it when the poll did less than its
//! budget), a service work item (cancelled after `stop`) and a reset work item that runs
//! [`Operations::reset`] with RTNL (waited for after unregistering). Rules that C states in
//! comments are types here:
//!
//! - the transmit buffer is a [`TxSkb`] branded with the call, so the only buffer a driver can
//!   return as [`TxOutcome::Busy`] is the one it was given;
//! - NAPI's poll-only operations are on the [`Poll`] the poll callback gets;
//! - the multicast list can only be read through an [`AddrList`], which exists while the
//!   address-list lock is held (given to `set_rx_mode`, or taken with [`Device::lock_addrs`]);
//! - disabling NAPI for a reset needs an [`Rtnl`] proof and lasts for one closure
//!   ([`Device::with_napi_disabled`]), so it is always undone; across a suspend it stays off,
//!   with the interrupt released, from [`Device::suspend_napi`] to [`Device::resume_napi`];
//! - RTNL is taken only where sleeping is allowed: [`rtnl_lock`] wants a bus callback's `Core`
//!   device, the reset work holds it for [`Operations::reset`], and the core's own RTNL
//!   callbacks get the proof; there is no try-lock, which interrupt or softirq code could
//!   reach;
//! - what only the poll may touch while NAPI runs (a receive ring) is the driver's
//!   [`Operations::PollState`], kept by the registration: a poll with a budget borrows it from
//!   its [`Poll`] until [`Poll::done`] completes NAPI, and `open`, `stop` and the closures of
//!   [`Device::with_napi_disabled`] and [`Device::with_napi_idle`] get it while NAPI is
//!   disabled. No lock: such a poll runs only as the owner of NAPI's scheduled bit, and
//!   disabling NAPI takes that bit, waiting for the running poll.
//!
//! # Not supported yet
//!
//! One transmit and one receive queue (`alloc_etherdev_mqs(.., 1, 1)`), one NAPI context, one
//! interrupt line requested with `IRQF_SHARED` (INTx or a single MSI vector: no MSI-X vector
//! per queue), Ethernet devices only, no XDP, no page pool, no scatter-gather transmit (a
//! nonlinear frame is refused), no VLAN or checksum offload hooks beyond the feature bits.
//! A multi-queue driver would need a NAPI context and a poll state per queue; the types keep
//! those per device today.
//!
//! # Compared with upstream
//!
//! Upstream Rust has no `net_device` abstraction as of Linux 6.18 (only the PHY abstraction of
//! netdev is upstream); this one is ours, shaped after upstream's bus abstractions (a
//! `#[vtable]` trait, a registration tied to the parent's binding). Upstream class abstractions
//! hand their callbacks no bound device; this one can, because the registration is withdrawn
//! before the binding's resources are (see [`ClassDevres`]).
//!
//! [`TxSkb`]: super::skbuff::TxSkb
//! [`Poll`]: super::napi::Poll

use super::napi::{Poll, PollDone};
use super::skbuff::{SkBuff, TxSkb};
use crate::alloc::{flags::GFP_KERNEL, KBox};
use crate::device::{self, Bound};
use crate::devres::ClassDevres;
use crate::error::{code::*, from_result, to_result, Result};
use crate::init::InPlaceInit;
use crate::irq::{self, IrqRequest, IrqReturn};
use crate::str::CStr;
use crate::sync::Arc;
use crate::types::Opaque;
use crate::{bindings, macros::vtable};
use core::any::TypeId;
use core::cell::UnsafeCell;
use core::ffi::{c_int, c_void};
use core::marker::PhantomData;
use core::pin::Pin;
use core::ptr::NonNull;
use core::sync::atomic::{AtomicU8, Ordering};

/// An Ethernet hardware address.
pub type MacAddr = [u8; 6];

/// A set of net_device features (`NETIF_F_*`), as in `netdev_features_t`.
///
/// Only the features a driver may offer for the user to switch (`ethtool -K`) are named here.
///
/// # Examples
///
/// ```
/// use kernel::net::dev::Features;
///
/// let f = Features::RXFCS | Features::RXALL;
/// assert!(f.contains(Features::RXFCS));
/// assert!(!Features::RXALL.contains(f));
/// assert!(Features::NONE.is_empty());
/// assert_eq!(f & Features::RXALL, Features::RXALL);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Features(u64);

impl Features {
    /// No feature.
    pub const NONE: Features = Features(0);
    /// Keep the FCS at the end of received frames (`rx-fcs`).
    pub const RXFCS: Features = Features(1 << bindings::NETIF_F_RXFCS_BIT);
    /// Receive frames with errors too (`rx-all`).
    pub const RXALL: Features = Features(1 << bindings::NETIF_F_RXALL_BIT);
    /// The device cannot receive VLAN-tagged frames (too long for it): the stack refuses to
    /// add VLANs on it.
    pub const VLAN_CHALLENGED: Features = Features(1 << bindings::NETIF_F_VLAN_CHALLENGED_BIT);

    /// Whether every feature of `other` is in `self`.
    pub const fn contains(self, other: Features) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl core::ops::BitOr for Features {
    type Output = Features;
    fn bitor(self, o: Features) -> Features {
        Features(self.0 | o.0)
    }
}

impl core::ops::BitAnd for Features {
    type Output = Features;
    fn bitand(self, o: Features) -> Features {
        Features(self.0 & o.0)
    }
}

/// Whether `addr` is a valid unicast, non-zero Ethernet address.
///
/// # Examples
///
/// ```
/// use kernel::net::dev::is_valid_ether_addr;
///
/// assert!(is_valid_ether_addr(&[0x52, 0x54, 0x00, 0x12, 0x34, 0x56]));
/// assert!(!is_valid_ether_addr(&[0; 6]));
/// assert!(!is_valid_ether_addr(&[0x01, 0, 0x5e, 0, 0, 1])); // multicast
/// ```
pub fn is_valid_ether_addr(addr: &MacAddr) -> bool {
    // SAFETY: `addr` points to 6 readable bytes.
    unsafe { bindings::is_valid_ether_addr(addr.as_ptr()) }
}

/// A random, locally administered unicast address (for hardware without a usable one).
///
/// # Examples
///
/// ```
/// use kernel::net::dev::{is_valid_ether_addr, random_ether_addr};
///
/// let a = random_ether_addr();
/// assert!(is_valid_ether_addr(&a));
/// assert_eq!(a[0] & 0x02, 0x02); // locally administered
/// ```
pub fn random_ether_addr() -> MacAddr {
    let mut mac = [0u8; 6];
    // SAFETY: `mac` is 6 writable bytes.
    unsafe { bindings::eth_random_addr(mac.as_mut_ptr()) };
    mac
}

/// The `netif_msg` message classes a driver's message level is made of
/// (`include/linux/netdevice.h`).
pub mod msg {
    use crate::bindings;

    /// Driver messages (`NETIF_MSG_DRV`).
    pub const DRV: u32 = 1 << bindings::NETIF_MSG_DRV_BIT;
    /// Probe messages (`NETIF_MSG_PROBE`).
    pub const PROBE: u32 = 1 << bindings::NETIF_MSG_PROBE_BIT;
    /// Link state messages (`NETIF_MSG_LINK`).
    pub const LINK: u32 = 1 << bindings::NETIF_MSG_LINK_BIT;
    /// Wake-on-LAN messages (`NETIF_MSG_WOL`).
    pub const WOL: u32 = 1 << bindings::NETIF_MSG_WOL_BIT;

    /// The message level for a `debug` module parameter: its low `debug` bits, or `default`
    /// where `debug` is out of range (C's `netif_msg_init()`).
    pub fn init(debug: i32, default: u32) -> u32 {
        // SAFETY: a pure computation.
        unsafe { bindings::netif_msg_init(debug, default as crate::ffi::c_int) }
    }
}

/// Holds the RTNL lock (the networking configuration lock) until dropped: the proof some
/// operations ask for. Process context only (RTNL is a mutex).
///
/// # Invariants
///
/// The lock was taken by `rtnl_lock` when the guard was made and is released in `drop`.
pub struct RtnlGuard(Rtnl);

/// Proof that the RTNL lock is held, for as long as a reference to it lives: an [`RtnlGuard`]
/// is one, and callbacks the core makes under RTNL (such as
/// [`ethtool::Operations::set_ringparam`](super::ethtool::Operations::set_ringparam)) get one.
/// Only this crate makes them.
///
/// # Invariants
///
/// RTNL is held while any reference to a `Rtnl` exists.
pub struct Rtnl(PhantomData<*mut ()>);

impl Rtnl {
    /// A proof for a callback the core makes with RTNL held.
    ///
    /// # Safety
    ///
    /// RTNL must be held for the lifetime of the value (and so of every reference to it); the
    /// value must not outlive the callback.
    pub(crate) unsafe fn assume_held() -> Rtnl {
        // INVARIANT: the caller's guarantee.
        Rtnl(PhantomData)
    }
}

impl core::ops::Deref for RtnlGuard {
    type Target = Rtnl;

    #[inline]
    fn deref(&self) -> &Rtnl {
        &self.0
    }
}

/// Takes the RTNL lock, sleeping until it is free, in a bus callback of `dev` (its `Core`
/// context: probe, remove, suspend, resume, shutdown, error recovery), for work that must not
/// race with `open`, `stop` or ethtool. The `Core` device is the proof of a context that may
/// sleep: there is no RTNL for interrupt or softirq context (a NAPI poll), where a mutex may not
/// be taken, not even tried. Work deferred from such context asks for
/// [`Device::schedule_reset`], whose [`Operations::reset`] gets RTNL.
///
/// # Examples
///
/// ```
/// use kernel::device::{Core, Device};
/// use kernel::net::dev::rtnl_lock;
///
/// fn suspend(dev: &Device<Core>) {
///     let rtnl = rtnl_lock(dev);
///     // No interface can be opened, closed or reconfigured here.
///     drop(rtnl);
/// }
/// ```
pub fn rtnl_lock(_ctx: &device::Device<device::Core>) -> RtnlGuard {
    rtnl_lock_process()
}

/// [`rtnl_lock`] for this crate's own process-context callers (the reset work).
fn rtnl_lock_process() -> RtnlGuard {
    // SAFETY: a context that may sleep, without RTNL (a bus callback, under its device lock,
    // which RTNL holders never take; the reset work, holding nothing); balanced in
    // `RtnlGuard::drop`.
    unsafe { bindings::rtnl_lock() };
    // INVARIANT: taken just above; released only when the guard drops.
    RtnlGuard(Rtnl(PhantomData))
}

impl Drop for RtnlGuard {
    fn drop(&mut self) {
        // SAFETY: held (type invariant).
        unsafe { bindings::rtnl_unlock() };
    }
}

/// A network device registered by a [`Registration`].
///
/// # Invariants
///
/// The wrapped `net_device` was made by [`Registration::register`] (its private area starts
/// with a `PrivHeader`) and stays registered for as long as the reference lives. A registration
/// is withdrawn before its parent's binding releases anything (it is a class registration of
/// the parent), so the parent is bound, its binding whole, for as long as the reference lives.
/// References are only made by this module: in callbacks (the core keeps the device alive
/// across them) and from a live [`Registration`].
#[repr(transparent)]
pub struct Device(Opaque<bindings::net_device>);

// SAFETY: the methods taking `&self` may run on any thread at once: they call C functions that
// are safe concurrently (queue and carrier state are atomic bit operations; BQL and NAPI
// scheduling are designed for it), read a word-sized field with a volatile load, hand out the
// name buffer's address only (`name_ptr`), or copy the hardware address (`mac_addr`: the core
// changes it under RTNL, so a copy made without RTNL may mix an old and a new address; bytes
// either way, read through a raw pointer, no Rust reference to memory C writes).
unsafe impl Sync for Device {}

impl Device {
    /// Borrows a device made by [`Registration::register`].
    ///
    /// # Safety
    ///
    /// `ptr` must be a device made by [`Registration::register`] (for any `T`) that stays
    /// registered for `'a`.
    #[inline]
    pub(crate) unsafe fn from_raw<'a>(ptr: *const bindings::net_device) -> &'a Self {
        // SAFETY: `Device` is a transparent wrapper; the caller vouches for the rest (type
        // invariant).
        unsafe { &*ptr.cast() }
    }

    /// The C `net_device`.
    #[inline]
    pub(crate) fn as_raw(&self) -> *mut bindings::net_device {
        // Transparent wrapper of `Opaque<bindings::net_device>`: as `device::Device::as_raw`.
        core::ptr::from_ref(self).cast_mut().cast()
    }

    #[inline]
    fn header(&self) -> *mut PrivHeader {
        // The private area of every device made by `Registration` starts with a `PrivHeader`
        // (type invariant).
        netdev_priv(self.as_raw()).cast()
    }

    /// The raw interface name buffer (for C APIs that keep the pointer, such as the IRQ name).
    fn name_ptr(&self) -> *const crate::ffi::c_char {
        // SAFETY: the device is valid; only an address is computed.
        unsafe { (*self.as_raw()).name.as_ptr() }
    }

    /// The parent (bus) device, bound for as long as this reference lives: a registration
    /// lives only while its parent is bound (type invariant).
    #[inline]
    pub fn parent(&self) -> &device::Device<Bound> {
        // SAFETY: the parent was set at registration and outlives the registration; it is
        // bound while the registration lives (type invariant), which covers `self`'s lifetime.
        unsafe { device::Device::<Bound>::from_raw((*self.as_raw()).dev.parent) }
    }

    /// The device's current hardware address. Consistent under RTNL (or in a callback the core
    /// makes with it); without it, a concurrent address change may give a mix of both.
    pub fn mac_addr(&self) -> MacAddr {
        let mut mac = [0u8; 6];
        // SAFETY: `dev_addr` points to at least `ETH_ALEN` bytes for an Ethernet device.
        unsafe { core::ptr::copy_nonoverlapping((*self.as_raw()).dev_addr, mac.as_mut_ptr(), 6) };
        mac
    }

    /// Sets the device's hardware address; RTNL held (the `set_mac_address` adapter) or before
    /// registration.
    fn set_mac_addr(&self, addr: &MacAddr) {
        // SAFETY: the device is valid and `addr` is 6 readable bytes; callers hold RTNL.
        unsafe { bindings::eth_hw_addr_set(self.as_raw(), addr.as_ptr()) };
    }

    /// The active features: a snapshot; they change under RTNL (after
    /// [`Operations::set_features`] accepted them).
    pub fn features(&self) -> Features {
        // SAFETY: the device is valid; a volatile load of the word is C's `READ_ONCE`, the way
        // the data path reads `dev->features` without RTNL.
        Features(unsafe { core::ptr::addr_of!((*self.as_raw()).features).read_volatile() })
    }

    /// The interface flags (`IFF_*`): a snapshot; they change under RTNL.
    pub fn flags(&self) -> u32 {
        // SAFETY: the device is valid; a volatile load of a word-sized field is C's
        // `READ_ONCE`, the way lockless readers of `dev->flags` read it.
        unsafe { core::ptr::addr_of!((*self.as_raw()).flags).read_volatile() }
    }

    /// Whether the interface is up (administratively).
    #[inline]
    pub fn is_running(&self) -> bool {
        // SAFETY: the device is valid.
        unsafe { bindings::netif_running(self.as_raw()) }
    }

    /// Reports that the link is up.
    pub fn carrier_on(&self) {
        // SAFETY: the device is valid; callable in any context.
        unsafe { bindings::netif_carrier_on(self.as_raw()) };
    }

    /// Reports that the link is down.
    pub fn carrier_off(&self) {
        // SAFETY: the device is valid; callable in any context.
        unsafe { bindings::netif_carrier_off(self.as_raw()) };
    }

    /// Whether the link is reported up.
    #[inline]
    pub fn carrier_ok(&self) -> bool {
        // SAFETY: the device is valid.
        unsafe { bindings::netif_carrier_ok(self.as_raw()) }
    }

    /// Marks the device removed from the system for now (suspend): the stack stops calling
    /// `start_xmit`, and its transmit watchdog and netpoll leave the device alone, until
    /// [`Device::attach`]. The interface keeps its up or down state.
    pub fn detach(&self) {
        // SAFETY: the device is valid.
        unsafe { bindings::netif_device_detach(self.as_raw()) };
    }

    /// Marks the device present again after [`Device::detach`] (resume); if the interface is up,
    /// the transmit queue is woken and the transmit watchdog rearmed.
    pub fn attach(&self) {
        // SAFETY: the device is valid.
        unsafe { bindings::netif_device_attach(self.as_raw()) };
    }

    /// Whether the device is present (not [detached](Device::detach)).
    pub fn is_present(&self) -> bool {
        // SAFETY: the device is valid.
        unsafe { bindings::netif_device_present(self.as_raw()) }
    }

    /// Allows the stack to call `start_xmit`.
    #[inline]
    pub fn start_queue(&self) {
        // SAFETY: the device is valid.
        unsafe { bindings::netif_start_queue(self.as_raw()) };
    }

    /// Stops the stack calling `start_xmit` and waits for a `start_xmit` running on another
    /// CPU to return (`netif_tx_disable`): after it, no transmit touches the hardware. Takes the
    /// queue lock with bottom halves disabled: not from `start_xmit` or other atomic context.
    pub fn tx_disable(&self) {
        // SAFETY: the device is valid.
        unsafe { bindings::netif_tx_disable(self.as_raw()) };
    }

    /// Stops the stack calling `start_xmit`.
    #[inline]
    pub fn stop_queue(&self) {
        // SAFETY: the device is valid.
        unsafe { bindings::netif_stop_queue(self.as_raw()) };
    }

    /// Lets the stack call `start_xmit` again and kicks it.
    #[inline]
    pub fn wake_queue(&self) {
        // SAFETY: the device is valid.
        unsafe { bindings::netif_wake_queue(self.as_raw()) };
    }

    /// Whether the transmit queue is stopped.
    #[inline]
    pub fn queue_stopped(&self) -> bool {
        // SAFETY: the device is valid.
        unsafe { bindings::netif_queue_stopped(self.as_raw()) }
    }

    /// Byte Queue Limits: `bytes` were queued to the hardware.
    #[inline]
    pub fn sent_queue(&self, bytes: u32) {
        // SAFETY: the device is valid.
        unsafe { bindings::netdev_sent_queue(self.as_raw(), bytes) };
    }

    /// Byte Queue Limits: `pkts` frames of `bytes` bytes in all left the hardware.
    #[inline]
    pub fn completed_queue(&self, pkts: u32, bytes: u32) {
        // SAFETY: the device is valid.
        unsafe { bindings::netdev_completed_queue(self.as_raw(), pkts, bytes) };
    }

    /// Byte Queue Limits: forget everything in flight (after freeing the ring).
    pub fn reset_queue(&self) {
        // SAFETY: the device is valid.
        unsafe { bindings::netdev_reset_queue(self.as_raw()) };
    }

    /// Takes the address-list lock (bottom halves disabled) for reading the multicast list
    /// outside `set_rx_mode` (inside it, the core holds the lock already: taking it again
    /// deadlocks, as lockdep reports).
    pub fn lock_addrs(&self) -> AddrListGuard<'_> {
        // SAFETY: the device is valid; released in `AddrListGuard::drop`.
        unsafe { bindings::netif_addr_lock_bh(self.as_raw()) };
        // INVARIANT: locked just above, until the guard drops, on this CPU.
        AddrListGuard(AddrList { dev: self }, PhantomData)
    }

    /// Schedules the NAPI poll (unless scheduled already or disabled); returns whether this call
    /// scheduled it. Any context; typically the interrupt handler.
    #[inline]
    pub fn napi_schedule(&self) -> bool {
        // SAFETY: the NAPI context in the header was added at registration and is deleted only
        // when the device is freed.
        unsafe { bindings::napi_schedule(self.napi_ptr()) }
    }

    /// The device's NAPI context (in the header: added at registration, deleted only when the
    /// device is freed).
    #[inline]
    fn napi_ptr(&self) -> *mut bindings::napi_struct {
        // SAFETY: the header is valid (type invariant); only an address is computed.
        unsafe { core::ptr::addr_of_mut!((*self.header()).napi) }
    }

    /// The poll state of `dev` if it was registered as a `Registration<T>`.
    #[inline]
    fn poll_state<T: Operations>(&self) -> Option<*mut T::PollState> {
        let h = self.header();
        // SAFETY: the header is valid (type invariant); `owner` is written at registration and
        // never changes.
        if unsafe { (*h).owner } != TypeId::of::<T>() {
            return None;
        }
        // SAFETY: `owner` says the private area is a `Priv<T>` (written so by `register`);
        // only an address is computed.
        Some(unsafe { (*priv_of::<T>(self.as_raw())).poll_state.get() })
    }

    /// The lenders' common start: the driver's [`Operations::PollState`] and the word that says
    /// who has NAPI, if the device is a `Registration<T>`'s and the word is `expect`. The word
    /// changes only under RTNL (the proof), so what is read stays true until the caller
    /// changes it.
    fn napi_state_if<'a, T: Operations>(
        &'a self,
        _rtnl: &'a Rtnl,
        expect: u8,
    ) -> Option<(*mut T::PollState, &'a AtomicU8)> {
        let state = self.poll_state::<T>()?;
        // SAFETY: the header is valid (type invariant).
        let napi = unsafe { &(*self.header()).napi_state };
        (napi.load(Ordering::Relaxed) == expect).then_some((state, napi))
    }

    /// Runs `f` with NAPI disabled (a running poll is waited for) and the driver's
    /// [`Operations::PollState`], which the poll owns otherwise: for a reset under RTNL while
    /// the interface is up. NAPI is enabled again afterwards and scheduled once, so work whose
    /// interrupt came while it was off is not lost. `None` (and `f` not run) if the interface
    /// is not up (NAPI is not enabled: down, or inside `open` or `stop`), NAPI is already
    /// disabled this way (by an enclosing call), or `dev` is not a `Registration<T>`'s.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::net::dev::{Device, Operations, Rtnl};
    ///
    /// /// Gives `dev` a fresh receive ring (here a vector stands for it) with no poll running,
    /// /// whether the interface is up (NAPI disabled meanwhile, then enabled and scheduled) or
    /// /// down. `false` if the ring is lent already (inside `open` or `stop`).
    /// fn renew<T>(dev: &Device, rtnl: &Rtnl, len: usize) -> bool
    /// where
    ///     T: Operations<PollState = KVec<u8>>,
    /// {
    ///     let fresh = |ring: &mut KVec<u8>| {
    ///         *ring = KVec::new();
    ///         ring.extend_with(len, 0, GFP_KERNEL).is_ok()
    ///     };
    ///     dev.with_napi_disabled::<T, _>(rtnl, fresh)
    ///         .or_else(|| dev.with_napi_idle::<T, _>(rtnl, fresh))
    ///         .unwrap_or(false)
    /// }
    /// ```
    ///
    /// (Compile-checked: a doctest has no device.)
    pub fn with_napi_disabled<T: Operations, R>(
        &self,
        rtnl: &Rtnl,
        f: impl FnOnce(&mut T::PollState) -> R,
    ) -> Option<R> {
        let (state, napi) = self.napi_state_if::<T>(rtnl, NAPI_ON)?;
        let h = self.header();
        // SAFETY: `NAPI_ON`, read by `napi_state_if` under `rtnl`, held until we return: `open`
        // enabled NAPI and `stop` has not disabled it, neither can run without RTNL, and no
        // enclosing call disabled it (it would have set `NAPI_HELD`).
        // Waits for a running poll.
        unsafe { bindings::napi_disable(core::ptr::addr_of_mut!((*h).napi)) };
        napi.store(NAPI_HELD, Ordering::Relaxed);
        // SAFETY: NAPI is disabled, so no poll runs or starts before it is enabled again below;
        // `NAPI_HELD` (under RTNL) keeps every other way to the state out (`open`, `stop` and
        // these closures all need RTNL and find it held or not theirs); `f` cannot keep the
        // reference (it is bound to the call).
        let r = f(unsafe { &mut *state });
        // SAFETY: disabled above, RTNL still held: enable it again, once.
        unsafe { bindings::napi_enable(core::ptr::addr_of_mut!((*h).napi)) };
        napi.store(NAPI_ON, Ordering::Relaxed);
        // Then schedule it, which is allowed in any context.
        self.napi_schedule();
        Some(r)
    }

    /// Runs `f` with the driver's [`Operations::PollState`] while the interface is down
    /// (NAPI disabled since registration or `stop`): a self-test's bring-up, or freeing what a
    /// suspend left. `None` (and `f` not run) if NAPI is enabled (the interface is up), the
    /// state is already lent (by `open`, `stop` or an enclosing call), or `dev` is not a
    /// `Registration<T>`'s.
    pub fn with_napi_idle<T: Operations, R>(
        &self,
        rtnl: &Rtnl,
        f: impl FnOnce(&mut T::PollState) -> R,
    ) -> Option<R> {
        let (state, napi) = self.napi_state_if::<T>(rtnl, NAPI_OFF)?;
        napi.store(NAPI_HELD, Ordering::Relaxed);
        // SAFETY: `NAPI_OFF`, read by `napi_state_if` under `rtnl`, held until we return: NAPI
        // is disabled (as added, or by `stop`), so no poll runs; no other holder exists (see
        // `with_napi_disabled`).
        let r = f(unsafe { &mut *state });
        napi.store(NAPI_OFF, Ordering::Relaxed);
        Some(r)
    }

    /// Runs `f` with NAPI disabled and the driver's [`Operations::PollState`], for a suspend
    /// or PCI error recovery with the interface up: NAPI stays disabled afterwards and the
    /// interrupt given at registration is released (its handler waited for), until
    /// [`Device::resume_napi`]. `None` (and `f` not run) where [`Device::with_napi_disabled`]
    /// would not run it, or if NAPI is suspended already.
    pub fn suspend_napi<T: Operations, R>(
        &self,
        rtnl: &Rtnl,
        f: impl FnOnce(&mut T::PollState) -> R,
    ) -> Option<R> {
        let (state, napi) = self.napi_state_if::<T>(rtnl, NAPI_ON)?;
        // SAFETY: `NAPI_ON` under `rtnl`: enabled, as in `with_napi_disabled`; waits for a
        // running poll.
        unsafe { bindings::napi_disable(self.napi_ptr()) };
        napi.store(NAPI_HELD, Ordering::Relaxed);
        // SAFETY: NAPI is disabled and `NAPI_HELD` keeps every other holder out, as in
        // `with_napi_disabled`.
        let r = f(unsafe { &mut *state });
        // SAFETY: the device is a `Registration<T>`'s (`napi_state_if` checked its owner) and
        // RTNL is held, which the interrupt slot needs; the registration's drop waits for the
        // handler and frees the line.
        unsafe { *irq_slot::<T>(self.as_raw()) = None };
        napi.store(NAPI_SUSPENDED, Ordering::Relaxed);
        Some(r)
    }

    /// Ends [`Device::suspend_napi`]: requests the interrupt again, runs `f` with the poll
    /// state, then enables NAPI and schedules it once (work whose interrupt came before is not
    /// lost). `None` (and `f` not run) if NAPI is not suspended; an error if the interrupt
    /// cannot be requested, and NAPI then stays suspended (a later call may try again, and
    /// `stop` brings the interface down as usual).
    pub fn resume_napi<T: Operations, R>(
        &self,
        rtnl: &Rtnl,
        f: impl FnOnce(&mut T::PollState) -> R,
    ) -> Option<Result<R>> {
        let (state, napi) = self.napi_state_if::<T>(rtnl, NAPI_SUSPENDED)?;
        // SAFETY: the device is a `Registration<T>`'s, RTNL is held (as above).
        if let Err(e) = unsafe { request_irq::<T>(self.as_raw()) } {
            return Some(Err(e));
        }
        napi.store(NAPI_HELD, Ordering::Relaxed);
        // SAFETY: NAPI is disabled (`NAPI_SUSPENDED`) and `NAPI_HELD` keeps every other holder
        // out, as in `with_napi_disabled`.
        let r = f(unsafe { &mut *state });
        // SAFETY: disabled by `suspend_napi`, RTNL held: enabled again, once.
        unsafe { bindings::napi_enable(self.napi_ptr()) };
        napi.store(NAPI_ON, Ordering::Relaxed);
        self.napi_schedule();
        Some(Ok(r))
    }

    /// Runs the driver's [`Operations::reset`] in process context, with RTNL, soon (once, however
    /// often it is asked before it runs). Callable from any context (a transmit timeout, the
    /// service work).
    pub fn schedule_reset(&self) {
        // SAFETY: the work item is initialised in `Registration::register` and disabled before
        // the device is freed.
        unsafe {
            bindings::queue_work_on(
                bindings::wq_misc_consts_WORK_CPU_UNBOUND as c_int,
                bindings::system_wq,
                core::ptr::addr_of_mut!((*self.header()).reset_work),
            )
        };
    }

    /// Runs the driver's [`Operations::service`] in process context after `delay_ms`
    /// milliseconds (or moves an already pending run to then). Callable from any context.
    pub fn schedule_service(&self, delay_ms: u32) {
        // SAFETY: the work item is initialised in `Registration::register` and disabled before
        // the device is freed.
        unsafe {
            bindings::mod_delayed_work(
                bindings::system_wq,
                core::ptr::addr_of_mut!((*self.header()).work),
                crate::time::msecs_to_jiffies(delay_ms),
            )
        };
    }
}

/// The device's address lists, while the address-list lock is held.
///
/// # Invariants
///
/// The address-list lock of `dev` is held for `'a`.
pub struct AddrList<'a> {
    dev: &'a Device,
}

impl AddrList<'_> {
    /// The number of multicast addresses subscribed.
    pub fn mc_count(&self) -> usize {
        // SAFETY: the device is valid and the list stable (type invariant).
        unsafe { bindings::netdev_mc_count(self.dev.as_raw()) as usize }
    }

    /// Calls `f` with each subscribed multicast address.
    pub fn for_each_mc(&self, mut f: impl FnMut(&MacAddr)) {
        // SAFETY: the device is valid and the lock held (type invariant), so the list and its
        // entries stay as they are for the walk; each entry's `addr` holds at least `ETH_ALEN`
        // bytes for an Ethernet device.
        unsafe {
            let head = core::ptr::addr_of_mut!((*self.dev.as_raw()).mc.list);
            let mut pos = (*head).next;
            while pos != head {
                let ha = crate::container_of!(pos, bindings::netdev_hw_addr, list);
                let mut mac = [0u8; 6];
                core::ptr::copy_nonoverlapping((*ha).addr.as_ptr(), mac.as_mut_ptr(), 6);
                f(&mac);
                pos = (*pos).next;
            }
        }
    }
}

/// Holds the address-list lock (taken with [`Device::lock_addrs`]) until dropped. Not
/// [`Send`]: it is released on the CPU that took it (the lock disables bottom halves there).
///
/// # Invariants
///
/// The lock was taken with `netif_addr_lock_bh` on this CPU and is released in `drop`.
pub struct AddrListGuard<'a>(AddrList<'a>, PhantomData<*mut ()>);

impl<'a> core::ops::Deref for AddrListGuard<'a> {
    type Target = AddrList<'a>;

    #[inline]
    fn deref(&self) -> &AddrList<'a> {
        &self.0
    }
}

impl Drop for AddrListGuard<'_> {
    fn drop(&mut self) {
        // SAFETY: taken in `Device::lock_addrs` (type invariant of `AddrList`).
        unsafe { bindings::netif_addr_unlock_bh(self.0.dev.as_raw()) };
    }
}

impl Device {
    /// Prints `args` at `level` with the driver, bus address and interface name as prefix, as
    /// C's `netdev_printk()` does. Prefer the [`netdev_info!`](crate::netdev_info) family.
    pub fn printk(&self, level: &CStr, args: core::fmt::Arguments<'_>) {
        // SAFETY: the device is valid; the format string is NUL-terminated and its single `%pA`
        // consumes exactly one `fmt::Arguments` pointer, which lives across the call.
        unsafe {
            bindings::netdev_printk(
                level.as_char_ptr(),
                self.as_raw(),
                crate::c_str!("%pA").as_char_ptr(),
                &args as *const _ as *const c_void,
            )
        };
    }
}

/// Prints an error message prefixed like C's `netdev_err()`: `netdev_err!(dev, "fmt", args...)`.
#[macro_export]
macro_rules! netdev_err {
    ($dev:expr, $($arg:tt)*) => {
        $crate::net::dev::Device::printk($dev, $crate::dev_printk::level::ERR,
            ::core::format_args!($($arg)*))
    };
}

/// Prints a warning prefixed like C's `netdev_warn()`.
#[macro_export]
macro_rules! netdev_warn {
    ($dev:expr, $($arg:tt)*) => {
        $crate::net::dev::Device::printk($dev, $crate::dev_printk::level::WARNING,
            ::core::format_args!($($arg)*))
    };
}

/// Prints an informational message prefixed like C's `netdev_info()`.
#[macro_export]
macro_rules! netdev_info {
    ($dev:expr, $($arg:tt)*) => {
        $crate::net::dev::Device::printk($dev, $crate::dev_printk::level::INFO,
            ::core::format_args!($($arg)*))
    };
}

/// The start of the private area of a device made by [`Registration`]; the driver state pointer
/// follows in `Priv<T>`.
///
/// # Invariants
///
/// `napi` is added to the device (until it is freed); `work` and `reset_work` are initialised;
/// `napi_state` is changed only under RTNL and, as seen by any RTNL holder, is [`NAPI_ON`]
/// exactly while NAPI is enabled (from the end of a successful `open` or `resume_napi` to the
/// start of `stop`, `suspend_napi` or a `with_napi_disabled` closure), [`NAPI_HELD`] while
/// NAPI is disabled and the poll state lent out (to `open`, `stop`, or a closure of
/// [`Device::with_napi_disabled`], [`Device::with_napi_idle`], [`Device::suspend_napi`] or
/// [`Device::resume_napi`]), [`NAPI_SUSPENDED`] while the interface is up with NAPI disabled
/// and the interrupt released (between `suspend_napi` and `resume_napi` or `stop`), and
/// [`NAPI_OFF`] otherwise (the holder that changes it does so right after `napi_disable` or
/// `napi_enable`). `owner` is
/// the [`TypeId`] of the `T` whose `Registration<T>` made the device (the private area is a
/// `Priv<T>`).
#[repr(C)]
struct PrivHeader {
    napi: bindings::napi_struct,
    work: bindings::delayed_work,
    reset_work: bindings::work_struct,
    napi_state: AtomicU8,
    owner: TypeId,
}

/// NAPI is disabled and the poll state free.
const NAPI_OFF: u8 = 0;
/// NAPI is enabled: the poll state is the poll's.
const NAPI_ON: u8 = 1;
/// NAPI is disabled and the poll state lent out.
const NAPI_HELD: u8 = 2;
/// The interface is up, but NAPI is disabled and the interrupt released until
/// [`Device::resume_napi`] ([`Device::suspend_napi`]); the poll state is free.
const NAPI_SUSPENDED: u8 = 3;

/// The private area of a device made by `Registration<T>`.
///
/// # Invariants
///
/// `dev` is the device; `data` is an `Arc<T>` leaked with [`Arc::into_raw`], reclaimed only after
/// the device is unregistered; `irq` is touched only with RTNL held (open, stop, suspend_napi,
/// resume_napi) or with the device exclusively owned (registration failure, drop); `irq_line` came
/// from an [`IrqRequest`] for the parent and never changes; `poll_state` is reached, while NAPI is
/// enabled, only by a poll with a budget until it calls [`Poll::done`] (see [`Poll`]'s invariant)
/// and, while NAPI is disabled, only by the one holder `napi_state` says it is lent to.
#[repr(C)]
struct Priv<T: Operations> {
    header: PrivHeader,
    dev: *mut bindings::net_device,
    data: *const T,
    /// The interrupt while the device is open; touched only under RTNL (the open/stop adapters,
    /// which the core serialises under it, `suspend_napi`, `resume_napi`) and by
    /// `Registration::drop`.
    irq: UnsafeCell<Option<IrqBox<T>>>,
    /// The interrupt line to request at `open`, from the registration's [`IrqRequest`].
    irq_line: Option<u32>,
    /// The driver's poll state ([`Operations::PollState`]).
    poll_state: UnsafeCell<T::PollState>,
}

/// The interrupt registration of an open device.
type IrqBox<T> = Pin<KBox<irq::Registration<NetdevIrq<T>>>>;

/// The interrupt handler of an open device.
///
/// # Invariants
///
/// `dev` is a device registered by `Registration<T>`; the handler is registered only while
/// the device is open, and freed before the device is.
struct NetdevIrq<T: Operations> {
    dev: *mut bindings::net_device,
    _p: PhantomData<T>,
}

// SAFETY: the pointer is only used to reach the device and its `Sync` driver state, which any
// CPU may do while the handler is registered (type invariant).
unsafe impl<T: Operations> Send for NetdevIrq<T> {}
// SAFETY: see above.
unsafe impl<T: Operations> Sync for NetdevIrq<T> {}

impl<T: Operations> irq::Handler for NetdevIrq<T> {
    fn handle(&self) -> IrqReturn {
        // SAFETY: the device is registered and valid while the handler is (type invariant).
        let (d, t) = unsafe { (Device::from_raw(self.dev), state::<T>(self.dev)) };
        t.interrupt(d)
    }
}

/// The interrupt slot of `dev`.
///
/// # Safety
///
/// `dev` is a device registered by `Registration<T>` and not yet freed, and the caller holds RTNL
/// (or owns the device exclusively).
unsafe fn irq_slot<'a, T: Operations>(
    dev: *const bindings::net_device,
) -> &'a mut Option<IrqBox<T>> {
    // SAFETY: the caller guarantees validity and exclusive access under RTNL.
    unsafe { &mut *(*priv_of::<T>(dev)).irq.get() }
}

/// Requests the interrupt line given at registration (if any) for `dev`, into its slot.
///
/// # Safety
///
/// `dev` is a device registered by `Registration<T>`, with RTNL held and no interrupt in
/// its slot (down, or NAPI suspended).
unsafe fn request_irq<T: Operations>(dev: *mut bindings::net_device) -> Result {
    // SAFETY: `irq_line` is written at registration and never changes.
    let Some(line) = (unsafe { (*priv_of::<T>(dev)).irq_line }) else {
        return Ok(());
    };
    // SAFETY: a registered device (the caller's guarantee).
    let d = unsafe { Device::from_raw(dev) };
    // SAFETY: `line` came from an `IrqRequest` for this parent at registration.
    let req = unsafe { IrqRequest::new(d.parent(), line) };
    let handler = NetdevIrq::<T> {
        dev,
        _p: PhantomData,
    };
    // SAFETY: the name is the interface's, inside the `net_device`, which outlives the
    // interrupt (freed in `stop_callback`, `suspend_napi` or `Registration::drop`, before
    // the device is).
    let init =
        unsafe { irq::Registration::new_named(req, irq::flags::SHARED, d.name_ptr(), handler) };
    let irq = KBox::pin_init(init, GFP_KERNEL)?;
    // SAFETY: RTNL held (the caller's guarantee).
    unsafe { *irq_slot::<T>(dev) = Some(irq) };
    Ok(())
}

fn priv_of<T: Operations>(dev: *const bindings::net_device) -> *mut Priv<T> {
    netdev_priv(dev).cast()
}

/// The address of `dev`'s private area: C's `netdev_priv()`, through its helper.
#[inline]
fn netdev_priv(dev: *const bindings::net_device) -> *mut crate::ffi::c_void {
    // SAFETY: the C function only computes an address from the pointer (no dereference).
    unsafe { bindings::netdev_priv(dev) }
}

/// The driver state of `dev`.
///
/// # Safety
///
/// `dev` must be a device created by `Registration::<T>::register` and not yet freed.
unsafe fn state<'a, T: Operations>(dev: *const bindings::net_device) -> &'a T {
    // SAFETY: by the caller's guarantee the private area is our `Priv<T>` holding a leaked
    // `Arc<T>`, which is reclaimed only after the device is unregistered and no callback can run.
    unsafe { &*(*priv_of::<T>(dev)).data }
}

/// What `start_xmit` did with its buffer.
pub enum TxOutcome<'a> {
    /// The driver took the buffer: queued to the hardware, or dropped.
    Ok,
    /// No room: the queue is stopped, and the stack is to retry this buffer later.
    Busy(TxSkb<'a>),
}

/// A network device's operations (`struct net_device_ops`), implemented on the driver's shared
/// per-device state.
///
/// Callbacks run in the contexts the C core documents: `open`, `stop`, `set_mac_address` and
/// the MII calls in process context under RTNL; `start_xmit` with the TX queue lock held,
/// softirqs off (or, under netpoll, interrupts off); `set_rx_mode` with the address-list lock
/// held (atomic); `tx_timeout` from the TX watchdog timer (atomic); `get_stats64` from any
/// context; `interrupt` in hard-IRQ context; `poll` in softirq context, or in process context
/// with bottom halves disabled (the NAPI thread, `/sys/class/net/<interface>/threaded`, or busy
/// polling), or netpoll's.
#[vtable]
pub trait Operations: Send + Sync + Sized + 'static {
    /// What the NAPI poll owns while NAPI runs (typically the receive ring), made with
    /// `Default` at registration and dropped with the device. A poll with a budget borrows it
    /// from its [`Poll`] ([`Poll::receiver_and_state`]) until [`Poll::done`]; while NAPI is
    /// disabled, `open` and `stop` get it as `&mut`, and so do the closures of
    /// [`Device::with_napi_disabled`] (a reset while up) and [`Device::with_napi_idle`]
    /// (while down). A poll with a budget runs only as the owner of NAPI's scheduled bit,
    /// which it gives up in `done`, and disabling NAPI takes that bit (waiting for the running
    /// poll), so no lock is needed (none would be contended). netpoll's poll (budget 0) never
    /// gets it.
    type PollState: Default + Send;

    /// Brings the interface up (`ip link set up`), with NAPI disabled: it is enabled, and
    /// scheduled once, when this returns `Ok` (so an interrupt that came meanwhile, and was
    /// masked by its handler, gets its poll).
    fn open(&self, dev: &Device, state: &mut Self::PollState) -> Result;

    /// Brings the interface down (NAPI disabled, a running poll waited for).
    fn stop(&self, dev: &Device, state: &mut Self::PollState) -> Result;

    /// Transmits `skb`: map it and queue it, or drop it, and return [`TxOutcome::Ok`]; or, with
    /// no room, stop the queue and return it as [`TxOutcome::Busy`].
    fn start_xmit<'a>(&self, dev: &Device, skb: TxSkb<'a>) -> TxOutcome<'a>;

    /// Fills the interface statistics.
    fn get_stats64(&self, _dev: &Device, _stats: &mut bindings::rtnl_link_stats64) {}

    /// Applies the unicast/multicast/promiscuous filter state of `dev`; `addrs` is the list the
    /// core holds locked.
    fn set_rx_mode(&self, _dev: &Device, _addrs: &AddrList<'_>) {}

    /// Changes the hardware address to `addr` (already checked to be a valid unicast address).
    fn set_mac_address(&self, _dev: &Device, _addr: &MacAddr) -> Result {
        Err(EOPNOTSUPP)
    }

    /// Recovers from a transmit hang on queue `txqueue`.
    fn tx_timeout(&self, _dev: &Device, _txqueue: u32) {}

    /// Applies `features` (of those in [`Config::hw_features`], the user asked for a change).
    /// Called under RTNL; the core makes them the active ones ([`Device::features`]) only
    /// after this returns `Ok`, so `features` is what the hardware must now do.
    fn set_features(&self, _dev: &Device, _features: Features) -> Result {
        Ok(())
    }

    /// Polls the device without interrupts (netconsole, netpoll).
    fn poll_controller(&self, _dev: &Device) {}

    /// The MDI address of the PHY in use, for `SIOCGMIIPHY` (as `mii-tool` asks). Implementing
    /// [`Operations::mii_read`] installs `ndo_eth_ioctl` for the three MII ioctls.
    fn mii_phy_id(&self, _dev: &Device) -> u16 {
        0
    }

    /// Reads register `reg` of the PHY at `phy` (`SIOCGMIIREG`), both already masked to 5 bits.
    fn mii_read(&self, _dev: &Device, _phy: u16, _reg: u16) -> Result<u16> {
        Err(EOPNOTSUPP)
    }

    /// Writes `val` to register `reg` of the PHY at `phy` (`SIOCSMIIREG`; the core has checked
    /// `CAP_NET_ADMIN`).
    fn mii_write(&self, _dev: &Device, _phy: u16, _reg: u16, _val: u16) -> Result {
        Err(EOPNOTSUPP)
    }

    /// Handles an interrupt (hard-IRQ context). The line given at registration is requested
    /// just before `open` and freed just after `stop`.
    fn interrupt(&self, _dev: &Device) -> IrqReturn {
        IrqReturn::None
    }

    /// NAPI poll: does at most `poll.budget()` units of receive work and ends the poll with
    /// [`Poll::done`], which completes NAPI when that is less than the budget and re-arms the
    /// device's interrupt as the driver asks (softirq context, or the NAPI thread or a
    /// busy-polling socket with bottom halves disabled; netpoll's poll, budget 0, from any
    /// context).
    fn poll<'a>(&self, dev: &Device, poll: Poll<'a, Self::PollState>) -> PollDone<'a>;

    /// Deferred work in process context, run after [`Device::schedule_service`]. Cancelled (and
    /// waited for) after `stop`, and disabled before the device is freed. It cannot take RTNL
    /// (`stop` waits for it with RTNL held): what needs RTNL goes to [`Operations::reset`].
    fn service(&self, _dev: &Device) {}

    /// Brings the hardware back after a hang, in process context with RTNL held, run after
    /// [`Device::schedule_reset`] if the interface is still up then (as a C driver's reset task
    /// takes `rtnl_lock()` and checks `netif_running()`). Not cancelled by `stop` (it waits for
    /// RTNL, which `stop` holds); disabled, and waited for, before the device is unregistered.
    fn reset(&self, _dev: &Device, _rtnl: &Rtnl) {}
}

/// A registered network device; unregistered and freed when dropped.
///
/// # Invariants
///
/// `dev` was allocated by `alloc_etherdev_mqs` with a `Priv<T>` as its private area, whose
/// `data` is an `Arc<T>` leaked with [`Arc::into_raw`], whose NAPI context is added and whose
/// work items are initialised; the device is registered until `drop`. The registration is only
/// ever handed out inside a [`ClassDevres`] of its parent, so it is dropped before the parent's
/// binding releases anything.
pub struct Registration<T: Operations + super::ethtool::Operations> {
    dev: NonNull<bindings::net_device>,
    _p: PhantomData<Arc<T>>,
}

// SAFETY: a registration hands out only `&Device` (which is `Sync`) and may be dropped on any
// thread in process context (unregistration takes RTNL and sleeps, which `Devres` and driver
// removal allow).
unsafe impl<T: Operations + super::ethtool::Operations> Send for Registration<T> {}
// SAFETY: `&Registration` hands out only `&Device`, which is `Sync`.
unsafe impl<T: Operations + super::ethtool::Operations> Sync for Registration<T> {}

/// Settings applied to a device before it is registered.
pub struct Config<'a> {
    /// The initial hardware address.
    pub mac: MacAddr,
    /// How long a stopped, non-empty TX queue may stay so before `tx_timeout`, in jiffies.
    pub watchdog_timeo: i32,
    /// Minimum and maximum MTU.
    pub mtu_range: (u32, u32),
    /// The (shared) interrupt line, requested while the device is open and named after the
    /// interface in `/proc/interrupts`.
    pub irq: Option<IrqRequest<'a>>,
    /// The NAPI weight (the budget handed to `poll`), 1 to 64.
    pub napi_weight: i32,
    /// The features the user may switch (`ethtool -K`); all start off.
    pub hw_features: Features,
    /// Features that are always on and cannot be switched ([`Features::VLAN_CHALLENGED`]).
    pub fixed_features: Features,
    /// The driver can send a frame with the FCS its sender put at its end, not the device's
    /// (`IFF_SUPP_NOFCS`: a packet socket's `SO_NOFCS`; see [`TxSkb::no_fcs`]).
    ///
    /// [`TxSkb::no_fcs`]: super::skbuff::TxSkb::no_fcs
    pub supp_nofcs: bool,
}

impl<T: Operations + super::ethtool::Operations> Registration<T> {
    const NETDEV_OPS: bindings::net_device_ops = bindings::net_device_ops {
        ndo_open: Some(Self::open_callback),
        ndo_stop: Some(Self::stop_callback),
        ndo_start_xmit: Some(Self::start_xmit_callback),
        ndo_validate_addr: Some(bindings::eth_validate_addr),
        ndo_get_stats64: if T::HAS_GET_STATS64 {
            Some(Self::get_stats64_callback)
        } else {
            None
        },
        ndo_set_rx_mode: if T::HAS_SET_RX_MODE {
            Some(Self::set_rx_mode_callback)
        } else {
            None
        },
        ndo_set_features: if T::HAS_SET_FEATURES {
            Some(Self::set_features_callback)
        } else {
            None
        },
        ndo_set_mac_address: if T::HAS_SET_MAC_ADDRESS {
            Some(Self::set_mac_address_callback)
        } else {
            None
        },
        ndo_tx_timeout: if T::HAS_TX_TIMEOUT {
            Some(Self::tx_timeout_callback)
        } else {
            None
        },
        ndo_eth_ioctl: if T::HAS_MII_READ {
            Some(Self::eth_ioctl_callback)
        } else {
            None
        },
        #[cfg(CONFIG_NET_POLL_CONTROLLER)]
        ndo_poll_controller: if T::HAS_POLL_CONTROLLER {
            Some(Self::poll_controller_callback)
        } else {
            None
        },
        // SAFETY: all-zero is a valid `net_device_ops`: every other callback is `None`.
        ..unsafe { core::mem::zeroed() }
    };

    /// Allocates an Ethernet device with `data` as its driver state and `parent` as its parent,
    /// configures it and registers it (it gets an `eth%d` name). The registration comes back as
    /// a [`ClassDevres`] of `parent`: dropping that unregisters the device, and so does the
    /// start of the parent's unbind, at the latest. [`EINVAL`] for a NAPI weight out of range;
    /// [`ENODEV`] if the parent's bus does not withdraw class registrations (only PCI here).
    pub fn register(
        parent: &device::Device<Bound>,
        cfg: Config<'_>,
        data: Arc<T>,
    ) -> Result<ClassDevres<Self>> {
        if !(1..=64).contains(&cfg.napi_weight) {
            return Err(EINVAL);
        }
        // The private area holds a `Priv<T>`; netdev private areas are `NETDEV_ALIGN` (32-byte)
        // aligned, which covers its alignment (checked at compile time).
        const { assert!(core::mem::align_of::<Priv<T>>() <= bindings::NETDEV_ALIGN as usize) };
        // SAFETY: no preconditions; a `Priv<T>`-sized private area, one TX and one RX queue.
        let raw =
            unsafe { bindings::alloc_etherdev_mqs(core::mem::size_of::<Priv<T>>() as c_int, 1, 1) };
        let dev = NonNull::new(raw).ok_or(ENOMEM)?;
        let leaked = Arc::into_raw(data);
        let p = priv_of::<T>(raw);
        // SAFETY: `raw` is a freshly allocated, unregistered device that only we reference; its
        // private area is a zeroed, suitably aligned `Priv<T>` (allocated above), whose fields
        // are each written here before any use; the ops tables are `'static`.
        unsafe {
            core::ptr::addr_of_mut!((*p).dev).write(raw);
            core::ptr::addr_of_mut!((*p).data).write(leaked);
            core::ptr::addr_of_mut!((*p).irq).write(UnsafeCell::new(None));
            core::ptr::addr_of_mut!((*p).irq_line).write(cfg.irq.as_ref().map(|r| r.irq()));
            core::ptr::addr_of_mut!((*p).header.napi_state).write(AtomicU8::new(NAPI_OFF));
            core::ptr::addr_of_mut!((*p).header.owner).write(TypeId::of::<T>());
            core::ptr::addr_of_mut!((*p).poll_state).write(UnsafeCell::new(Default::default()));
            bindings::init_delayed_work(
                core::ptr::addr_of_mut!((*p).header.work),
                Some(Self::service_callback),
            );
            bindings::init_work_with_key(
                core::ptr::addr_of_mut!((*p).header.reset_work),
                Some(Self::reset_callback),
                false,
                crate::c_str!("net_device reset").as_char_ptr(),
                crate::static_lock_class!().as_ptr(),
            );
            bindings::netif_napi_add_weight(
                raw,
                core::ptr::addr_of_mut!((*p).header.napi),
                Some(Self::poll_callback),
                cfg.napi_weight,
            );
            (*raw).netdev_ops = &Self::NETDEV_OPS;
            (*raw).ethtool_ops = super::ethtool::Adapter::<T>::build();
            (*raw).dev.parent = parent.as_raw();
            (*raw).watchdog_timeo = cfg.watchdog_timeo;
            (*raw).hw_features |= cfg.hw_features.0;
            (*raw).features |= cfg.fixed_features.0;
            if cfg.supp_nofcs {
                let pf = &mut (*raw).__bindgen_anon_1.__bindgen_anon_1;
                pf.set_priv_flags(
                    pf.priv_flags() | bindings::netdev_priv_flags_IFF_SUPP_NOFCS as ffi::c_ulong,
                );
            }
            (*raw).min_mtu = cfg.mtu_range.0;
            (*raw).max_mtu = cfg.mtu_range.1;
            bindings::eth_hw_addr_set(raw, cfg.mac.as_ptr());
            // No link until the driver says so: the first `carrier_on` then raises the link
            // event that moves the operational state to UP.
            bindings::netif_carrier_off(raw);
        }
        // SAFETY: the device is fully set up; its ops are `'static` and the state they borrow
        // lives in the private area until `drop`.
        if let Err(e) = to_result(unsafe { bindings::register_netdev(raw) }) {
            // SAFETY: registration failed, so no callback can run: drop the poll state (in the
            // private area), free the device, then drop the driver state.
            unsafe {
                core::ptr::drop_in_place((*p).poll_state.get());
                bindings::free_netdev(raw);
                drop(Arc::from_raw(leaked));
            }
            return Err(e);
        }
        // INVARIANT: allocated, set up and registered above; handed out only inside a
        // `ClassDevres` of `parent` (if that fails, the registration is dropped: unregistered).
        ClassDevres::new(
            parent,
            Self {
                dev,
                _p: PhantomData,
            },
            GFP_KERNEL,
        )
    }

    /// The registered device.
    pub fn device(&self) -> &Device {
        // SAFETY: made by `register` and registered until `drop` (type invariant).
        unsafe { Device::from_raw(self.dev.as_ptr()) }
    }

    /// The driver state the device was registered with: for the parent's bus callbacks
    /// (suspend, resume, shutdown), which reach the device through its registration.
    #[inline]
    pub fn data(&self) -> &T {
        // SAFETY: made by `register` and registered until `drop` (type invariant), so the
        // private area holds the state, which lives until the device is freed after `drop`.
        unsafe { state::<T>(self.dev.as_ptr()) }
    }

    /// The driver state of `dev`.
    ///
    /// # Safety
    ///
    /// `dev` must be a device created by `Registration::<T>::register` and not yet freed.
    pub(crate) unsafe fn data_of<'a>(dev: *const bindings::net_device) -> &'a T {
        // SAFETY: the caller's guarantee.
        unsafe { state::<T>(dev) }
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn poll_callback(napi: *mut bindings::napi_struct, budget: c_int) -> c_int {
        // SAFETY: `napi` is the context embedded in one of our devices; `napi->dev` is it,
        // valid while its NAPI context runs.
        let dev = unsafe { (*napi).dev };
        // SAFETY: see above.
        let (d, t) = unsafe { (Device::from_raw(dev), Self::data_of(dev)) };
        // Only the address: the `Poll` lends the state, with a budget, until `done`. Reached
        // from `napi`, the start of our `Priv<T>` (its header's first field), not from `dev`:
        // the receive loop then addresses the state off the pointer its `Receiver` holds.
        const {
            assert!(core::mem::offset_of!(Priv<T>, header) == 0);
            assert!(core::mem::offset_of!(PrivHeader, napi) == 0);
        }
        // SAFETY: `napi` is the `napi` field of the header at the start of our `Priv<T>`
        // (checked above: both at offset 0); only an address is computed, no reference made.
        let state = unsafe {
            UnsafeCell::raw_get(core::ptr::addr_of!((*napi.cast::<Priv<T>>()).poll_state))
        };
        // SAFETY: this is `napi`'s poll callback, running for the lifetime of `poll`. With a
        // budget, this call owns NAPI's scheduled bit (only its owner polls with one) until
        // `napi_complete_done()` in `Poll::done`, so no other poll with a budget runs; every
        // other holder of the state has it while NAPI is disabled, which holds that bit (type
        // invariant of `Priv`). netpoll's poll (budget 0) may not be serialised with ours:
        // `Poll` gives it no state.
        let poll = unsafe { Poll::new(napi, budget, state) };
        // `done` completed NAPI if the poll did less than its budget (the only way to end it).
        t.poll(d, poll).work()
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn service_callback(work: *mut bindings::work_struct) {
        // SAFETY: `work` is the `work` member of a `delayed_work` in the `PrivHeader` at the
        // start of one of our devices' `Priv<T>`; the work is disabled before the device is
        // freed, so the device is valid while this runs.
        let p = unsafe {
            let dw = crate::container_of!(work, bindings::delayed_work, work);
            crate::container_of!(dw, PrivHeader, work) as *mut Priv<T>
        };
        // SAFETY: see above.
        let dev = unsafe { (*p).dev };
        // SAFETY: see above.
        let (d, t) = unsafe { (Device::from_raw(dev), Self::data_of(dev)) };
        t.service(d);
    }

    /// The C callback of the reset work (see [`Device::schedule_reset`]).
    ///
    /// # Safety
    ///
    /// Called only by the workqueue, for the `reset_work` initialised in `register`.
    unsafe extern "C" fn reset_callback(work: *mut bindings::work_struct) {
        // SAFETY: `work` is the `reset_work` member of the `PrivHeader` at the start of one of
        // our devices' `Priv<T>`; the work is disabled before the device is freed, so the device
        // is valid while this runs.
        let p = unsafe { crate::container_of!(work, PrivHeader, reset_work) as *mut Priv<T> };
        // SAFETY: see above.
        let dev = unsafe { (*p).dev };
        // SAFETY: see above.
        let (d, t) = unsafe { (Device::from_raw(dev), Self::data_of(dev)) };
        // Process context, holding nothing: RTNL may be waited for.
        let rtnl = rtnl_lock_process();
        if d.is_running() {
            t.reset(d, &rtnl);
        }
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn open_callback(dev: *mut bindings::net_device) -> c_int {
        // SAFETY: the core passes one of our devices, valid across the call, with RTNL held.
        let (d, t) = unsafe { (Device::from_raw(dev), Self::data_of(dev)) };
        let napi = d.header();
        from_result(|| {
            // SAFETY: one of our devices, RTNL held (the core's `ndo_open` contract).
            unsafe { request_irq::<T>(dev) }?;
            // SAFETY: the header is valid (type invariant of `Device`).
            let st = unsafe { &(*napi).napi_state };
            // `open` is called only for a device that is down: NAPI is disabled (as added, or
            // by `stop`) and the state free (`NAPI_OFF`; `with_napi_idle` cannot be running: it
            // needs RTNL, which we hold).
            st.store(NAPI_HELD, Ordering::Relaxed);
            // SAFETY: NAPI is disabled, so no poll runs; `NAPI_HELD` keeps the other holders
            // out (type invariant of `Priv`).
            let state = unsafe { &mut *(*priv_of::<T>(dev)).poll_state.get() };
            if let Err(e) = t.open(d, state) {
                st.store(NAPI_OFF, Ordering::Relaxed);
                // SAFETY: RTNL held; the interrupt requested above goes.
                unsafe { *irq_slot::<T>(dev) = None };
                return Err(e);
            }
            // SAFETY: the NAPI context is added and disabled (see above).
            unsafe { bindings::napi_enable(core::ptr::addr_of_mut!((*napi).napi)) };
            st.store(NAPI_ON, Ordering::Relaxed);
            // A poll once NAPI is on: an interrupt that came while it was off was masked by its
            // handler, whose scheduling NAPI refused.
            d.napi_schedule();
            Ok(0)
        })
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn stop_callback(dev: *mut bindings::net_device) -> c_int {
        // SAFETY: as in `open_callback`.
        let (d, t, slot) = unsafe {
            (
                Device::from_raw(dev),
                Self::data_of(dev),
                irq_slot::<T>(dev),
            )
        };
        let h = d.header();
        // SAFETY: the header is valid (type invariant of `Device`).
        let st = unsafe { &(*h).napi_state };
        // `stop` is called only for a device that `open` brought up (`NAPI_ON`, or
        // `NAPI_SUSPENDED` where a PCI error's recovery gave up or a resume could not request
        // the interrupt: the closures that lend the state cannot be running, they need RTNL,
        // which we hold).
        if st.load(Ordering::Relaxed) != NAPI_SUSPENDED {
            // SAFETY: enabled in `open_callback` (or `resume_napi`); waits for a running poll.
            unsafe { bindings::napi_disable(core::ptr::addr_of_mut!((*h).napi)) };
        }
        st.store(NAPI_HELD, Ordering::Relaxed);
        // SAFETY: NAPI is disabled, so no poll runs; `NAPI_HELD` keeps the other holders out
        // (type invariant of `Priv`).
        let state = unsafe { &mut *(*priv_of::<T>(dev)).poll_state.get() };
        let r = t.stop(d, state);
        st.store(NAPI_OFF, Ordering::Relaxed);
        // The interrupt first: its handler may schedule the service work.
        *slot = None;
        // SAFETY: the work item is initialised; waits for a running service call.
        unsafe { bindings::cancel_delayed_work_sync(core::ptr::addr_of_mut!((*h).work)) };
        from_result(|| r.map(|()| 0))
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn start_xmit_callback(
        skb: *mut bindings::sk_buff,
        dev: *mut bindings::net_device,
    ) -> bindings::netdev_tx_t {
        // SAFETY: as in `open_callback`.
        let (d, t) = unsafe { (Device::from_raw(dev), Self::data_of(dev)) };
        let Some(skb) = NonNull::new(skb) else {
            return bindings::netdev_tx_NETDEV_TX_OK;
        };
        // SAFETY: the stack hands the buffer's ownership to `ndo_start_xmit`.
        let skb = unsafe { SkBuff::from_raw(skb) };
        Self::xmit(d, t, skb)
    }

    /// The transmit itself, in a function of its own so that the [`TxSkb`] brand is this
    /// call's lifetime and nothing else's.
    fn xmit(d: &Device, t: &T, skb: SkBuff) -> bindings::netdev_tx_t {
        fn call<'a, T: Operations>(d: &Device, t: &T, skb: TxSkb<'a>) -> TxOutcome<'a> {
            t.start_xmit(d, skb)
        }
        // SAFETY: `skb` is this call's buffer and `call`'s lifetime parameter is local to it;
        // no other `TxSkb` of that lifetime is made.
        match call(d, t, unsafe { TxSkb::new(skb) }) {
            TxOutcome::Ok => bindings::netdev_tx_NETDEV_TX_OK,
            TxOutcome::Busy(skb) => {
                // The stack keeps ownership of a buffer it gets NETDEV_TX_BUSY for; the brand
                // makes it the buffer it gave.
                let _ = skb.into_raw();
                bindings::netdev_tx_NETDEV_TX_BUSY
            }
        }
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn get_stats64_callback(
        dev: *mut bindings::net_device,
        stats: *mut bindings::rtnl_link_stats64,
    ) {
        // SAFETY: as in `open_callback`; `stats` is a valid, exclusive out-parameter.
        let (d, t, s) = unsafe { (Device::from_raw(dev), Self::data_of(dev), &mut *stats) };
        t.get_stats64(d, s);
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn set_rx_mode_callback(dev: *mut bindings::net_device) {
        // SAFETY: as in `open_callback`.
        let (d, t) = unsafe { (Device::from_raw(dev), Self::data_of(dev)) };
        // INVARIANT: the core calls `ndo_set_rx_mode` with the address-list lock held.
        let addrs = AddrList { dev: d };
        t.set_rx_mode(d, &addrs);
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn set_mac_address_callback(
        dev: *mut bindings::net_device,
        p: *mut c_void,
    ) -> c_int {
        // SAFETY: as in `open_callback`; `p` is a `struct sockaddr` from the core.
        let (d, t, sa) = unsafe {
            (
                Device::from_raw(dev),
                Self::data_of(dev),
                &*p.cast::<bindings::sockaddr>(),
            )
        };
        from_result(|| {
            let mut mac = [0u8; 6];
            // The address bytes start right after `sa_family`; the union's plain byte view
            // holds the first 14 of them.
            mac.copy_from_slice(&sa.__bindgen_anon_1.bindgen_union_field[..6]);
            if !is_valid_ether_addr(&mac) {
                return Err(EADDRNOTAVAIL);
            }
            t.set_mac_address(d, &mac)?;
            d.set_mac_addr(&mac);
            Ok(0)
        })
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn eth_ioctl_callback(
        dev: *mut bindings::net_device,
        ifr: *mut bindings::ifreq,
        cmd: c_int,
    ) -> c_int {
        // SAFETY: the core passes one of our devices and a kernel copy of the request, valid
        // and exclusively ours for the call; the MII view of it is `if_mii`.
        let (d, t, mii) = unsafe {
            (
                Device::from_raw(dev),
                Self::data_of(dev),
                &mut *bindings::if_mii(ifr),
            )
        };
        from_result(|| {
            match cmd as u32 {
                bindings::SIOCGMIIPHY => {
                    mii.phy_id = t.mii_phy_id(d);
                    mii.val_out = t.mii_read(d, mii.phy_id & 0x1f, mii.reg_num & 0x1f)?;
                }
                bindings::SIOCGMIIREG => {
                    mii.val_out = t.mii_read(d, mii.phy_id & 0x1f, mii.reg_num & 0x1f)?;
                }
                bindings::SIOCSMIIREG => {
                    t.mii_write(d, mii.phy_id & 0x1f, mii.reg_num & 0x1f, mii.val_in)?;
                }
                _ => return Err(EOPNOTSUPP),
            }
            Ok(0)
        })
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn tx_timeout_callback(dev: *mut bindings::net_device, txqueue: u32) {
        // SAFETY: as in `open_callback`.
        let (d, t) = unsafe { (Device::from_raw(dev), Self::data_of(dev)) };
        t.tx_timeout(d, txqueue);
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn set_features_callback(
        dev: *mut bindings::net_device,
        features: bindings::netdev_features_t,
    ) -> c_int {
        // SAFETY: as in `open_callback`.
        let (d, t) = unsafe { (Device::from_raw(dev), Self::data_of(dev)) };
        from_result(|| {
            t.set_features(d, Features(features))?;
            Ok(0)
        })
    }

    #[cfg(CONFIG_NET_POLL_CONTROLLER)]
    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn poll_controller_callback(dev: *mut bindings::net_device) {
        // SAFETY: as in `open_callback`.
        let (d, t) = unsafe { (Device::from_raw(dev), Self::data_of(dev)) };
        t.poll_controller(d);
    }
}

impl<T: Operations + super::ethtool::Operations> Drop for Registration<T> {
    fn drop(&mut self) {
        let raw = self.dev.as_ptr();
        let p = priv_of::<T>(raw);
        // SAFETY: registered (type invariant). Disabling the work waits for a running service
        // call and keeps it from being queued again. `unregister_netdev` stops the device if it
        // is up (freeing its interrupt) and returns once no callback can run. Then nothing else
        // references the device: free any interrupt left, free the device (which deletes the
        // NAPI context) and only then release the driver state, which no callback can reach.
        unsafe {
            // The work first: it may have been queued while the device was down (which
            // unregistering does not stop), and must not run on an unregistered device.
            bindings::disable_delayed_work_sync(core::ptr::addr_of_mut!((*p).header.work));
            // The reset work too, while the device is still registered (a reset running waits
            // for RTNL, which nobody holds here): queued again, it does nothing.
            bindings::disable_work_sync(core::ptr::addr_of_mut!((*p).header.reset_work));
            bindings::unregister_netdev(raw);
            *irq_slot::<T>(raw) = None;
            let leaked = (*p).data;
            // In the private area: dropped before the device is freed (unregistered: no
            // callback, and so no holder, is left).
            core::ptr::drop_in_place((*p).poll_state.get());
            bindings::free_netdev(raw);
            drop(Arc::from_raw(leaked));
        }
    }
}
