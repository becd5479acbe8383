// SPDX-License-Identifier: GPL-2.0

//! Socket buffers (`struct sk_buff`), and their streaming DMA mappings.
//!
//! C header: [`include/linux/skbuff.h`](srctree/include/linux/skbuff.h)
//!
//! Which buffers a driver may write into, and when, is in the types:
//!
//! - [`SkBuff`]: an owned buffer of any provenance. Its data may be shared with clones (TCP
//!   keeps a clone of every segment it sends), so it can be read, padded (which un-shares it
//!   first) and passed on, never written.
//! - [`TxSkb`]: the buffer `start_xmit` was given, branded with that call's lifetime: the
//!   driver maps it into a ring's slot ([`TxSlots::map`]) or drops it, or returns it, and only
//!   it, as busy ([`TxOutcome::Busy`](super::dev::TxOutcome::Busy)).
//! - [`RxBuf`]: a buffer the driver allocated itself: unshared and linear, the only kind it may
//!   write device headers into and map for the device to write ([`RxBuf::map`]).
//! - [`RxFrame`]: a frame made of a received buffer ([`RxBuf::into_frame`]): the only kind NAPI
//!   hands to the stack.
//! - [`TxSlots`] and [`RxMapping`]: buffers mapped for the device, a descriptor ring's transmit
//!   frames in numbered slots under one device reference, and one receive buffer, which its
//!   ring slot refills in place ([`RxMapping::replace`]: the frame's buffer comes back
//!   unmapped). The CPU touches the mapped bytes of a receive mapping only through
//!   [`RxMapping::read_with`] and [`RxMapping::write_at`], or, for a descriptor header at the
//!   buffer's start, [`RxMapping::read_head`] and [`RxMapping::update_head`] (fields at offsets
//!   checked at compile time), which do the `dma_sync_*` calls that make that safe, and those of
//!   a transmit frame not at all; unmapping gives the buffer back.
//!
//! A driver's receive buffers are not cleared when allocated (e100.c does not clear its own,
//! and on a 1.5 KB buffer the memset was the largest single cost of receiving a frame). Rust
//! code reads only their initialised bytes: each [`RxBuf`] knows how far from its data start
//! the CPU has written (a descriptor header, [`RxBuf::clear_to`] where a self-test wants to
//! read a frame), and its mapping reads ([`RxMapping::read_with`]) stop there. The device's
//! writes keep those bytes initialised; bytes past them may or may not have been written by
//! the device, and go to the stack as a frame ([`RxFrame`]) that the driver cannot read. One
//! model holds for every buffer's bytes: they are memory the kernel's allocators handed out,
//! which the compiler never saw as uninitialised, so reading them is defined and gives values
//! nobody vouches for. A frame forwarded back out ([`SkBuff::data`] of a transmit) holds what
//! its device wrote. The driver reads back only what it wrote itself.
//!
//! # What the types do not enforce
//!
//! That the device is done with a buffer. Ending a mapping ([`RxMapping::replace`], dropping an
//! [`RxMapping`], [`TxSlots::unmap`], dropping a [`TxSlots`]) hands the memory back to the CPU,
//! and so to the stack or the allocator, on the driver's word that the device has finished
//! with it: a receive descriptor it completed, a transmit command it completed, or its units
//! stopped (a chip reset) before a ring is torn down. Only the device's status words know, and
//! reading them is the driver's business; a device that writes after that corrupts memory that
//! is no longer the buffer's (an IOMMU, where there is one, turns it into a fault).
//!
//! # Compared with upstream
//!
//! Upstream Rust has no socket-buffer abstraction as of Linux 6.18 (only the PHY abstraction
//! of netdev is upstream); this one is ours.

use super::dev::Device as NetDevice;
use super::napi::Receiver;
use crate::alloc::{flags::GFP_KERNEL, KVec};
use crate::bindings;
use crate::device::{Bound, Device};
use crate::dma::DmaAddr;
use crate::error::{code::*, Error, Result};
use crate::types::ARef;
use core::marker::PhantomData;
use core::mem::MaybeUninit;
use core::ptr::NonNull;

/// An owned socket buffer.
///
/// Dropping it frees it as a drop (`dev_kfree_skb_any`, counted by drop monitors); a buffer that
/// was delivered should be released with [`SkBuff::consume`] instead. Both are safe in any
/// context.
///
/// # Invariants
///
/// `self.0` points to a valid `sk_buff` that this value owns: no one else frees it or moves
/// its data. Its data may be shared with clones, so it is never written through this type.
///
/// Its bytes are memory the kernel allocated, but not all were written by a CPU: a frame a
/// device received and the stack forwards back out (routing, a bridge) holds what that device
/// wrote, up to the length its descriptor claimed, and a faulty device that claimed more than
/// it wrote leaves stale heap bytes there. [`SkBuff::data`] reads them as C does: to the
/// compiler they are initialised (it never saw the allocation), their values are not known.
pub struct SkBuff(NonNull<bindings::sk_buff>);

// SAFETY: an owned `sk_buff` may be handed to and freed on any CPU.
unsafe impl Send for SkBuff {}

impl SkBuff {
    /// Takes ownership of `ptr`.
    ///
    /// # Safety
    ///
    /// `ptr` must be a valid `sk_buff` whose ownership the caller gives up.
    #[inline]
    pub(crate) unsafe fn from_raw(ptr: NonNull<bindings::sk_buff>) -> Self {
        // INVARIANT: the caller hands over ownership.
        Self(ptr)
    }

    /// Gives up ownership; the caller must free or pass on the buffer.
    #[inline]
    pub(crate) fn into_raw(self) -> NonNull<bindings::sk_buff> {
        let p = self.0;
        core::mem::forget(self);
        p
    }

    #[inline]
    fn raw(&self) -> *mut bindings::sk_buff {
        self.0.as_ptr()
    }

    /// The length of the data, in bytes.
    #[inline]
    pub fn len(&self) -> u32 {
        // SAFETY: the buffer is valid (type invariant).
        unsafe { (*self.raw()).len }
    }

    /// Whether the buffer holds no data.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes in the linear (head) part of the data.
    #[inline]
    pub fn headlen(&self) -> u32 {
        // SAFETY: the buffer is valid (type invariant).
        unsafe { bindings::skb_headlen(self.raw()) }
    }

    /// Bytes of room after the data of a linear buffer (none for one with fragments), C's
    /// `skb_tailroom()`.
    #[inline]
    fn tailroom(&self) -> u32 {
        // SAFETY: the buffer is valid (type invariant).
        unsafe { bindings::skb_tailroom(self.raw()) }
    }

    /// The linear data.
    #[inline]
    pub fn data(&self) -> &[u8] {
        // SAFETY: `data` points to `headlen` bytes of a valid buffer we own; nobody writes them
        // while we hold it (clones only read shared data).
        unsafe { core::slice::from_raw_parts((*self.raw()).data, self.headlen() as usize) }
    }

    /// Pads the data with zeroes to at least `len` bytes, as `skb_put_padto()`: a frame shorter
    /// than the Ethernet minimum leaves the wire padded whatever the device does. A shared
    /// (cloned) buffer is copied first, so nobody else's data changes. On failure the buffer is
    /// gone (freed, as C's function does) and [`ENOMEM`] is returned.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::net::skbuff::RxBuf;
    ///
    /// let mut buf = RxBuf::alloc(128).ok_or(ENOMEM)?;
    /// buf.put_data(&[0xab; 42])?; // an ARP frame's length
    /// let skb = buf.into_skb().pad_to(60)?;
    /// assert_eq!(skb.len(), 60);
    /// assert!(skb.data()[..42].iter().all(|b| *b == 0xab));
    /// assert!(skb.data()[42..].iter().all(|b| *b == 0));
    /// // Already long enough: unchanged.
    /// let skb = skb.pad_to(60)?;
    /// assert_eq!(skb.len(), 60);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn pad_to(self, len: u32) -> Result<Self> {
        if self.len() >= len {
            return Ok(self);
        }
        let raw = self.into_raw();
        // SAFETY: we owned the buffer and hand it to `skb_put_padto`, which either pads it
        // (copying a shared head first) and returns 0, or frees it and returns an error.
        if unsafe { bindings::skb_put_padto(raw.as_ptr(), len) } != 0 {
            return Err(ENOMEM);
        }
        // INVARIANT: on success the buffer is still ours and valid.
        Ok(Self(raw))
    }

    /// Frees a buffer that was used successfully. Safe in any context.
    #[inline]
    pub fn consume(self) {
        // SAFETY: we own the buffer and give it up here.
        unsafe { bindings::dev_consume_skb_any(self.into_raw().as_ptr()) };
    }
}

impl Drop for SkBuff {
    fn drop(&mut self) {
        // SAFETY: we own the buffer (type invariant) and it is not used after this.
        unsafe { bindings::dev_kfree_skb_any(self.0.as_ptr()) };
    }
}

/// Up to `N` buffers gathered to be released together later, such as a transmit clean's,
/// freed once a lock that keeps interrupts disabled is dropped. An empty batch costs nothing to
/// make (its slots are not initialised), so one can be made for every poll. Dropping a batch
/// drops the buffers still in it.
///
/// # Examples
///
/// ```
/// use kernel::net::skbuff::{RxBuf, SkbBatch};
///
/// let mut batch = SkbBatch::<2>::new();
/// for _ in 0..2 {
///     let mut buf = RxBuf::alloc(64).ok_or(ENOMEM)?;
///     buf.put_data(&[0; 60])?;
///     assert!(batch.push(buf.into_skb()).is_ok());
/// }
/// assert!(batch.is_full());
/// // Full: the buffer comes back.
/// let extra = batch.push(RxBuf::alloc(64).ok_or(ENOMEM)?.into_skb());
/// assert!(extra.is_err());
/// let mut bytes = 0;
/// batch.drain(|skb| {
///     bytes += skb.len();
///     skb.consume();
/// });
/// assert_eq!(bytes, 120);
/// assert!(!batch.is_full());
/// # Ok::<(), Error>(())
/// ```
///
/// # Invariants
///
/// `n <= N`, and `bufs[..n]` hold owned buffers; the slots past them hold none.
pub struct SkbBatch<const N: usize> {
    bufs: [MaybeUninit<SkBuff>; N],
    n: usize,
}

impl<const N: usize> SkbBatch<N> {
    /// An empty batch.
    #[inline(always)]
    pub const fn new() -> Self {
        // INVARIANT: no slot is in use.
        Self {
            bufs: [const { MaybeUninit::uninit() }; N],
            n: 0,
        }
    }

    /// Whether the batch has no room left.
    #[inline(always)]
    pub fn is_full(&self) -> bool {
        self.n >= N
    }

    /// Adds `skb` to the batch; a full batch hands it back.
    #[inline(always)]
    pub fn push(&mut self, skb: SkBuff) -> core::result::Result<(), SkBuff> {
        match self.bufs.get_mut(self.n) {
            Some(slot) => {
                // INVARIANT: the slot past the `n` in use (it holds none) takes the buffer and
                // is counted in.
                slot.write(skb);
                self.n += 1;
                Ok(())
            }
            None => Err(skb),
        }
    }

    /// Hands every buffer in the batch to `f`, in the order they were added, and leaves the
    /// batch empty.
    #[inline(always)]
    pub fn drain(&mut self, mut f: impl FnMut(SkBuff)) {
        let n = core::mem::replace(&mut self.n, 0);
        // INVARIANT: the count is zeroed first, so each buffer is taken out exactly once even
        // if `f` panics part way (those not reached yet leak, never freed twice).
        for slot in self.bufs.iter().take(n) {
            // SAFETY: the first `n` slots held owned buffers (type invariant); each is read
            // out once, and no longer counted as in the batch.
            f(unsafe { slot.assume_init_read() });
        }
    }
}

impl<const N: usize> Default for SkbBatch<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> Drop for SkbBatch<N> {
    fn drop(&mut self) {
        self.drain(drop);
    }
}

/// The buffer a `start_xmit` call was given, for the duration of that call.
///
/// `'a` brands it with the call: it cannot be kept past the call (store it, and the borrow
/// checker refuses), and no other `TxSkb<'a>` exists, so the one a driver hands back as busy is
/// the one it was given. To keep the frame, map it ([`TxSlots::map`]); to drop it, drop it.
///
/// # Examples
///
/// ```
/// use kernel::net::dev::TxOutcome;
/// use kernel::net::skbuff::TxSkb;
///
/// // A transmit routine out of ring space hands the same buffer back.
/// fn out_of_room<'a>(skb: TxSkb<'a>) -> TxOutcome<'a> {
///     TxOutcome::Busy(skb)
/// }
/// ```
///
/// # Invariants
///
/// `skb` is the buffer the stack passed to the running `ndo_start_xmit` call that `'a` spans.
pub struct TxSkb<'a> {
    skb: SkBuff,
    _brand: PhantomData<fn(&'a ()) -> &'a ()>,
}

impl<'a> TxSkb<'a> {
    /// Wraps the buffer of a `start_xmit` call.
    ///
    /// # Safety
    ///
    /// `skb` must be the buffer passed to a running `ndo_start_xmit`, which `'a` must not
    /// outlast, and no other `TxSkb<'a>` may be made.
    #[inline]
    pub(crate) unsafe fn new(skb: SkBuff) -> Self {
        // INVARIANT: the caller's guarantee.
        Self {
            skb,
            _brand: PhantomData,
        }
    }

    /// Gives the buffer back to the stack (for `NETDEV_TX_BUSY`).
    #[inline]
    pub(crate) fn into_raw(self) -> NonNull<bindings::sk_buff> {
        self.skb.into_raw()
    }

    /// The length of the frame, in bytes.
    #[inline]
    pub fn len(&self) -> u32 {
        self.skb.len()
    }

    /// Whether the frame is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.skb.is_empty()
    }

    /// Whether the frame ends with its FCS, which the device must not add (`skb->no_fcs`, set
    /// for a packet socket's `SO_NOFCS`; the stack sends such a frame only to a device that
    /// registered with `IFF_SUPP_NOFCS`, [`Config::supp_nofcs`]).
    ///
    /// [`Config::supp_nofcs`]: super::dev::Config::supp_nofcs
    #[inline]
    pub fn no_fcs(&self) -> bool {
        // SAFETY: the buffer is valid for the call (type invariant: `ndo_start_xmit`'s); its
        // header fields are a union of two views of the same bytes (`struct_group`), either
        // of which may be read, and nobody writes them while the driver transmits it.
        unsafe {
            (*self.skb.raw())
                .__bindgen_anon_4
                .__bindgen_anon_1
                .as_ref()
                .no_fcs()
                != 0
        }
    }

    /// Pads the frame to `len` bytes ([`SkBuff::pad_to`]); on failure it is gone.
    #[inline]
    pub fn pad_to(self, len: u32) -> Result<Self> {
        Ok(Self {
            skb: self.skb.pad_to(len)?,
            _brand: PhantomData,
        })
    }

    /// Maps the linear frame for `dev` to read (`DMA_TO_DEVICE`); returns the bus address and
    /// the length. The caller owns the mapping and must end it before the buffer goes. A
    /// nonlinear frame is refused with [`EINVAL`] (drivers that map one piece do not advertise
    /// scatter-gather, so the stack sends none).
    #[inline]
    fn dma_map(&self, dev: &Device<Bound>) -> Result<(DmaAddr, u32)> {
        let len = self.skb.len();
        if len == 0 || len != self.skb.headlen() {
            return Err(EINVAL);
        }
        // SAFETY: `data .. data + len` is the buffer's linear data (checked above), which stays
        // in place while we own it.
        let addr = unsafe {
            bindings::dma_map_single(
                dev.as_raw(),
                (*self.skb.raw()).data.cast(),
                len as usize,
                bindings::dma_data_direction_DMA_TO_DEVICE,
            )
        };
        if mapping_failed(dev, addr) {
            return Err(ENOMEM);
        }
        Ok((addr, len))
    }
}

/// C's `dma_mapping_error()` on `addr`, just returned by a map call for `dev`.
#[inline]
fn mapping_failed(dev: &Device<Bound>, addr: DmaAddr) -> bool {
    // SAFETY: `dev` is a live device; any address may be checked.
    unsafe { bindings::dma_mapping_error(dev.as_raw(), addr) != 0 }
}

/// The device a mapping was made for: a reference held for the mapping's life, and its address
/// kept beside it, so the data path's DMA calls do not go through the reference (a call into
/// the kernel crate's shared `ARef<Device>::deref` each).
///
/// # Invariants
///
/// `raw` is `_dev`'s `struct device`.
struct DevRef {
    /// Held only to keep the device alive: released when the mapping goes.
    _dev: ARef<Device>,
    raw: *mut bindings::device,
}

// SAFETY: `ARef<Device>` may be sent to another thread; `raw` is only its address, passed to C
// functions that take a device from any thread while `_dev` keeps it alive.
unsafe impl Send for DevRef {}

impl DevRef {
    #[inline]
    fn new(dev: &Device<Bound>) -> Self {
        // INVARIANT: the address of the device the reference is taken on.
        Self {
            raw: dev.as_raw(),
            _dev: ARef::from(&**dev),
        }
    }

    /// The device's `struct device *`, valid while `self` is.
    #[inline]
    fn raw(&self) -> *mut bindings::device {
        self.raw
    }

    /// Whether the streaming mapping at `addr`, just made for this device, needs syncing
    /// around CPU accesses: C's `dma_need_sync()`, the answer a driver may keep for the
    /// mapping's life.
    #[inline]
    fn need_sync(&self, addr: DmaAddr) -> bool {
        // With the DMA-API debugging on, every mapping is synced, so that the debugging checks
        // the syncs (on a coherent machine `dma_need_sync()` says none is needed).
        // SAFETY: `raw` is a live device (invariant); any address may be asked about.
        cfg!(CONFIG_DMA_API_DEBUG) || unsafe { bindings::dma_need_sync(self.raw, addr) }
    }

    /// `dma_sync_single_for_cpu()`, for a mapping that needs syncing (the caller has seen
    /// [`Self::need_sync`] true for it).
    ///
    /// # Safety
    ///
    /// `addr..addr + len` must lie in a live streaming mapping of this device made with `dir`.
    #[inline]
    unsafe fn sync_for_cpu_always(
        &self,
        addr: DmaAddr,
        len: usize,
        dir: bindings::dma_data_direction,
    ) {
        // SAFETY: the caller's guarantee.
        unsafe { bindings::dma_sync_single_for_cpu(self.raw, addr, len, dir) };
    }

    /// `dma_sync_single_for_device()`, for a mapping that needs syncing (as for
    /// [`Self::sync_for_cpu_always`]).
    ///
    /// # Safety
    ///
    /// As for [`Self::sync_for_cpu_always`].
    #[inline]
    unsafe fn sync_for_device_always(
        &self,
        addr: DmaAddr,
        len: usize,
        dir: bindings::dma_data_direction,
    ) {
        // SAFETY: the caller's guarantee.
        unsafe { bindings::dma_sync_single_for_device(self.raw, addr, len, dir) };
    }

    /// `dma_unmap_single()`.
    ///
    /// # Safety
    ///
    /// `addr`, `len` and `dir` must be those of a live streaming mapping of this device, which
    /// this ends: it must not be used, or ended, again.
    #[inline]
    unsafe fn unmap(&self, addr: DmaAddr, len: u32, dir: bindings::dma_data_direction) {
        // SAFETY: the caller's guarantee.
        unsafe { bindings::dma_unmap_single(self.raw, addr, len as usize, dir) };
    }
}

/// Transmit frames mapped for one device to read, in the numbered slots of a descriptor ring,
/// with one device reference for all its slots instead of one taken and dropped with every
/// frame. A slot is filled from a `start_xmit` buffer
/// ([`TxSlots::map`]) and emptied when the device is done with it ([`TxSlots::unmap`]);
/// dropping the set ends every mapping still live and frees those buffers.
///
/// # Examples
///
/// ```
/// use kernel::device::{Bound, Device};
/// use kernel::dma::DmaAddr;
/// use kernel::net::skbuff::{TxSkb, TxSlots};
///
/// /// Queues a frame in slot `i` (free: the caller keeps count of the ring's space, and
/// /// stops the queue before it runs out); a frame that cannot be mapped is dropped.
/// fn queue(dev: &Device<Bound>, s: &mut TxSlots, i: usize, skb: TxSkb<'_>) -> Option<DmaAddr> {
///     // The frame's timestamp is taken: describe the address to the device, then start it.
///     s.map(dev, i, skb).ok()
/// }
///
/// /// Once the device reports slot `i` sent: the frame is unmapped and freed as sent.
/// fn complete(slots: &mut TxSlots, i: usize) -> u32 {
///     slots.unmap(i).map_or(0, |skb| {
///         let len = skb.len();
///         skb.consume();
///         len
///     })
/// }
/// ```
///
/// (Compile-checked: a doctest has no bound device to map for.)
///
/// # Invariants
///
/// Every `Some` slot holds a live `DMA_TO_DEVICE` mapping, for `dev`, of the `len` bytes of
/// its buffer's (linear) data.
pub struct TxSlots {
    dev: DevRef,
    slots: KVec<Option<TxSlot>>,
}

/// A mapped frame in a [`TxSlots`].
struct TxSlot {
    skb: SkBuff,
    addr: DmaAddr,
    len: u32,
}

impl TxSlots {
    /// `count` empty slots for frames mapped for `dev`.
    pub fn new(dev: &Device<Bound>, count: usize) -> Result<Self> {
        let mut slots = KVec::with_capacity(count, GFP_KERNEL)?;
        for _ in 0..count {
            slots.push(None, GFP_KERNEL)?;
        }
        // INVARIANT: no slot is filled.
        Ok(Self {
            dev: DevRef::new(dev),
            slots,
        })
    }

    /// The number of slots.
    #[inline]
    pub fn count(&self) -> usize {
        self.slots.len()
    }

    /// Whether slot `i` holds a frame (false past the last slot).
    #[inline]
    pub fn is_used(&self, i: usize) -> bool {
        matches!(self.slots.get(i), Some(Some(_)))
    }

    /// Maps `skb` for `dev` (the slots' device, bound, as a new mapping requires) into empty
    /// slot `i`, takes its software transmit timestamp and hands it to PHY timestamping if its
    /// socket asked for either (`skb_tx_timestamp()`), and returns its bus address: the
    /// timestamp is taken before the device can have the frame (it needs the address), and no
    /// frame that goes to the device lacks it. (A frame mapped and then unmapped unsent has had
    /// it taken too. A driver that takes hardware timestamps marks the frame for them before
    /// mapping it, as `skb_tx_timestamp()` requires.) On failure the buffer is handed back with
    /// [`EINVAL`] (no such slot, a slot in use, another device, an empty or nonlinear frame)
    /// or [`ENOMEM`] (no mapping).
    #[inline]
    pub fn map<'a>(
        &mut self,
        dev: &Device<Bound>,
        i: usize,
        skb: TxSkb<'a>,
    ) -> core::result::Result<DmaAddr, (TxSkb<'a>, Error)> {
        let same = dev.as_raw() == self.dev.raw();
        let Some(slot) = self.slots.get_mut(i).filter(|s| same && s.is_none()) else {
            return Err((skb, EINVAL));
        };
        match skb.dma_map(dev) {
            Ok((addr, len)) => {
                // SAFETY: the buffer is valid and ours, in `ndo_start_xmit` (a `TxSkb` exists
                // only there), the context `skb_tx_timestamp()` is made for; timestamping reads
                // it and may clone it (the clone shares the data, which the device only reads)
                // and writes its shared info, outside the mapped bytes.
                unsafe { bindings::skb_tx_timestamp(skb.skb.raw()) };
                // INVARIANT: mapped for reading by the slots' device.
                *slot = Some(TxSlot {
                    skb: skb.skb,
                    addr,
                    len,
                });
                Ok(addr)
            }
            Err(e) => Err((skb, e)),
        }
    }

    /// Ends slot `i`'s mapping and returns its frame (`None` for an empty slot or none at
    /// all). The device must be done with it: the caller's word, not checked (see the
    /// [module documentation](self)).
    #[inline]
    pub fn unmap(&mut self, i: usize) -> Option<SkBuff> {
        let s = self.slots.get_mut(i)?.take()?;
        // SAFETY: the slot's mapping is live (invariant) and ended exactly once, here, as the
        // slot is emptied.
        unsafe {
            self.dev
                .unmap(s.addr, s.len, bindings::dma_data_direction_DMA_TO_DEVICE)
        };
        Some(s.skb)
    }
}

impl Drop for TxSlots {
    fn drop(&mut self) {
        for i in 0..self.slots.len() {
            // Freed as drops: they were never known to be sent.
            drop(self.unmap(i));
        }
    }
}

/// `pkt_type` of a frame sent to the broadcast address (`<uapi/linux/if_packet.h>`).
const PACKET_BROADCAST: u8 = 1;
/// `pkt_type` of a frame sent to a multicast address.
const PACKET_MULTICAST: u8 = 2;

/// A buffer the driver allocated: unshared and linear, so the driver may write into it.
///
/// # Invariants
///
/// `skb` was allocated by this type and is linear and not cloned: its data and tailroom belong
/// to it alone. The first `room` bytes from its data start lie in its data and tailroom (the
/// room asked for at allocation, which the data start never moves from while this type holds
/// the buffer). The first `init` bytes from its data start are initialised: written by the
/// CPU, or since by the device while mapped; its data (up to its length) is among them. What
/// lies past `init` is whatever the allocator left there.
pub struct RxBuf {
    skb: SkBuff,
    init: u32,
    room: u32,
}

/// A frame the device received, ready for the stack (made by [`RxBuf::into_frame`]).
///
/// # Invariants
///
/// `self.0` points to a valid `sk_buff` that this value owns, linear and not cloned, whose data
/// is the received frame after its Ethernet header, which `eth_type_trans` pulled, setting its
/// protocol and `dev`. The frame's bytes are the device's (a device may report more than it
/// wrote): the driver hands it on and does not read it.
pub struct RxFrame(NonNull<bindings::sk_buff>);

// SAFETY: an owned `sk_buff` may be handed to and freed on any CPU.
unsafe impl Send for RxFrame {}

impl Drop for RxFrame {
    fn drop(&mut self) {
        // SAFETY: we own the buffer (type invariant) and it is not used after this.
        unsafe { bindings::dev_kfree_skb_any(self.0.as_ptr()) };
    }
}

impl RxFrame {
    /// The frame's length (after the Ethernet header).
    #[inline]
    pub fn len(&self) -> u32 {
        // SAFETY: the buffer is valid (type invariant).
        unsafe { (*self.0.as_ptr()).len }
    }

    /// Whether the frame is empty after its Ethernet header.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The C buffer (valid while `self` is).
    #[inline]
    pub(crate) fn as_raw(&self) -> *mut bindings::sk_buff {
        self.0.as_ptr()
    }

    /// Gives up the buffer, for the NAPI adapter to hand to the stack (never to be read as
    /// an [`SkBuff`]: the frame's bytes are the device's, not known to be initialised).
    #[inline]
    pub(crate) fn into_raw(self) -> NonNull<bindings::sk_buff> {
        let p = self.0;
        core::mem::forget(self);
        p
    }
}

/// The most room an [`RxBuf`] may ask for. The C allocators add their padding and alignment to
/// the length in 32-bit arithmetic (`SKB_HEAD_ALIGN`, `NET_SKB_PAD`, `NET_IP_ALIGN`: well under
/// a kilobyte), which wraps for a length near `u32::MAX` and then allocates a small buffer: a
/// length at most this never wraps, so the room asked for is the room there is.
const MAX_ROOM: u32 = 1 << 30;

impl RxBuf {
    /// An empty buffer with room for `len` bytes (`alloc_skb(GFP_ATOMIC)`). `None` if memory
    /// is short, or `len` is more than a gigabyte. Any context.
    pub fn alloc(len: u32) -> Option<Self> {
        if len > MAX_ROOM {
            return None;
        }
        // SAFETY: no preconditions; the function returns null or a new, owned buffer.
        let skb = unsafe { bindings::alloc_skb(len, bindings::GFP_ATOMIC) };
        NonNull::new(skb).map(|p| Self::fresh(p, len))
    }

    /// Takes a fresh buffer (empty, not cleared) allocated with room for `room` bytes, at most
    /// [`MAX_ROOM`].
    #[inline]
    fn fresh(p: NonNull<bindings::sk_buff>, room: u32) -> Self {
        // INVARIANT: a buffer just allocated is linear, unshared and empty, with at least the
        // room it was allocated with after its (empty) data (a length the C allocator's
        // arithmetic does not wrap): no byte is known to be initialised, and its data (none)
        // is among them.
        Self {
            skb: SkBuff(p),
            init: 0,
            room,
        }
    }

    /// A receive buffer for `dev` with room for `len` bytes, its data aligned so that the IP
    /// header after a 14-byte Ethernet header is 4-byte aligned. `None` if memory is short, or
    /// `len` is more than a gigabyte. Any context.
    #[inline]
    pub fn alloc_rx(dev: &NetDevice, len: u32) -> Option<Self> {
        if len > MAX_ROOM {
            return None;
        }
        // SAFETY: the device is valid; the function returns null or a new, owned buffer.
        let skb = unsafe { bindings::netdev_alloc_skb_ip_align(dev.as_raw(), len) };
        // `netdev_alloc_skb_ip_align` reserves its padding and alignment bytes out of extra
        // room it asks for (with no wrap, `len` being at most `MAX_ROOM`): `len` bytes are
        // left after the data start.
        NonNull::new(skb).map(|p| Self::fresh(p, len))
    }

    /// A receive buffer as [`RxBuf::alloc_rx`] makes, for the device whose NAPI poll `rx`
    /// receives for, from the per-CPU cache NAPI keeps for its polls (`napi_alloc_skb()`: no
    /// bottom halves to disable, as the any-context allocator must). `None` if memory is
    /// short, or `len` is more than a gigabyte. (An example is with [`Receiver`].)
    #[inline]
    pub fn alloc_rx_napi(rx: Receiver<'_>, len: u32) -> Option<Self> {
        if len > MAX_ROOM {
            return None;
        }
        // SAFETY: the NAPI context is valid during its poll, which runs with bottom halves
        // disabled, as the function requires (`Receiver`'s invariant); it returns null or a
        // new, owned buffer.
        let skb = unsafe { bindings::napi_alloc_skb(rx.raw(), len) };
        // `napi_alloc_skb` reserves its padding and alignment bytes (`NET_SKB_PAD +
        // NET_IP_ALIGN`, as `netdev_alloc_skb_ip_align`) out of extra room it asks for (with
        // no wrap, `len` being at most `MAX_ROOM`): `len` bytes are left after the data start.
        NonNull::new(skb).map(|p| Self::fresh(p, len))
    }

    #[inline]
    fn raw(&self) -> *mut bindings::sk_buff {
        self.skb.raw()
    }

    /// Bytes of room after the data.
    #[inline]
    pub fn tailroom(&self) -> u32 {
        self.skb.tailroom()
    }

    /// The length of the data.
    #[inline]
    pub fn len(&self) -> u32 {
        self.skb.len()
    }

    /// Whether the buffer holds no data.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.skb.is_empty()
    }

    /// Copies `src` to the end of the data, extending it (`skb_put_data()`). [`EINVAL`] if
    /// there is not that much room.
    #[inline]
    pub fn put_data(&mut self, src: &[u8]) -> Result {
        let n = u32::try_from(src.len()).map_err(|_| EINVAL)?;
        if n > self.tailroom() {
            return Err(EINVAL);
        }
        // SAFETY: the buffer is ours alone and linear (type invariant), with `n` bytes of
        // tailroom (checked above), which `skb_put_data` fills from `src`.
        unsafe { bindings::skb_put_data(self.raw(), src.as_ptr().cast(), n) };
        // INVARIANT: the data, written by the CPU up to its new length, stays initialised.
        self.init = self.init.max(self.skb.len());
        Ok(())
    }

    /// Zeroes the bytes from the data start to `len` not yet initialised, so that all of them
    /// can be read once mapped ([`RxMapping::read_with`] reads initialised bytes only): for a
    /// buffer whose frame the CPU will look at, as a self-test's. [`EINVAL`] past the room the
    /// buffer was allocated with.
    pub fn clear_to(&mut self, len: u32) -> Result {
        if len > self.room {
            return Err(EINVAL);
        }
        if len > self.init {
            // SAFETY: `data + init .. data + len` lies within the buffer's data and tailroom
            // (checked above), which belong to it alone (type invariant) and are not mapped.
            unsafe {
                core::ptr::write_bytes(
                    (*self.raw()).data.add(self.init as usize),
                    0,
                    (len - self.init) as usize,
                )
            };
            // INVARIANT: the bytes up to `len` are initialised now.
            self.init = len;
        }
        Ok(())
    }

    /// Copies `src` to `offset` bytes past the data start, into the room after the data, without
    /// changing the length: for a device header written before the buffer is mapped (as an
    /// RFD). Bytes skipped before `offset` that were not yet initialised are zeroed. [`EINVAL`]
    /// if it does not fit in the room the buffer was allocated with.
    #[inline]
    pub fn write_head(&mut self, offset: usize, src: &[u8]) -> Result {
        let room = self.room as usize;
        let end = match offset.checked_add(src.len()) {
            Some(end) if end <= room => end,
            _ => return Err(EINVAL),
        };
        // `end <= room`, a `u32`.
        let (offset32, end32) = (offset as u32, end as u32);
        if offset32 > self.init {
            self.clear_to(offset32)?;
        }
        // SAFETY: `data + offset .. + src.len()` lies within the buffer's data and tailroom
        // (checked above), which belong to it alone (type invariant) and are not mapped.
        unsafe {
            core::ptr::copy_nonoverlapping(src.as_ptr(), (*self.raw()).data.add(offset), src.len())
        };
        // INVARIANT: the bytes up to `offset` were initialised (or zeroed just above), and
        // those up to `end` written now.
        self.init = self.init.max(end32);
        Ok(())
    }

    /// Maps the first `len` bytes of data and tailroom for `dev` to read and write (the CPU
    /// writes descriptors into them, the device writes frames). Of them, the CPU may read
    /// those initialised before ([`RxBuf::write_head`], [`RxBuf::clear_to`]) through the
    /// mapping. `H` comes from the result's type (annotate it `RxMapping` for none: a function
    /// has no default). On failure the buffer is handed back with the error: [`EINVAL`] for no
    /// length, more than the room the buffer was allocated with, data not aligned as a receive
    /// buffer's always is ([`RxBuf::alloc_rx`], [`RxBuf::alloc`]: 4 bytes on x86), or fewer
    /// than `H` bytes both mapped and initialised (what an [`RxMapping<H>`] always holds);
    /// [`ENOMEM`] if it cannot be mapped.
    #[inline]
    pub fn map<const H: usize>(
        self,
        dev: &Device<Bound>,
        len: u32,
    ) -> core::result::Result<RxMapping<H>, (Self, Error)> {
        let ready = len.min(self.init);
        if len == 0 || len > self.room || !rx_data_aligned(&self) || (ready as usize) < H {
            return Err((self, EINVAL));
        }
        // SAFETY: `data .. data + len` lies inside the buffer's allocation (checked above).
        let addr = unsafe {
            bindings::dma_map_single(
                dev.as_raw(),
                rx_data(&self).cast(),
                len as usize,
                bindings::dma_data_direction_DMA_BIDIRECTIONAL,
            )
        };
        if mapping_failed(dev, addr) {
            return Err((self, ENOMEM));
        }
        let dev = DevRef::new(dev);
        // INVARIANT: mapped just above; the data's alignment and `min(len, init) >= H` were
        // checked before; the need for syncing is the DMA API's answer for this mapping.
        Ok(RxMapping {
            data: rx_data(&self),
            sync: dev.need_sync(addr),
            buf: self,
            dev,
            addr,
            len,
        })
    }

    /// Makes the received frame of `len` bytes at `offset` the buffer's data, sets its protocol
    /// and pulls its Ethernet header (`skb_reserve`, `skb_put`, `eth_type_trans`). Returns the
    /// frame, ready for the stack, and whether it was sent to a group (multicast or broadcast)
    /// address, as `eth_type_trans` found (the frame's bytes are the device's: Rust code does
    /// not read them). [`EINVAL`] if the buffer already holds data, or the frame does not fit
    /// in it or is shorter than an Ethernet header (the buffer is then dropped).
    #[inline(always)]
    pub fn into_frame(self, offset: u32, len: u32, dev: &NetDevice) -> Result<(RxFrame, bool)> {
        // SAFETY: `dev` is a valid device (a reference to it).
        unsafe { self.into_frame_for(offset, len, dev.as_raw()) }
    }

    /// [`RxBuf::into_frame`] for the device `dev` points to.
    ///
    /// # Safety
    ///
    /// `dev` must point to a valid `net_device`.
    #[inline(always)]
    pub(crate) unsafe fn into_frame_for(
        self,
        offset: u32,
        len: u32,
        dev: *mut bindings::net_device,
    ) -> Result<(RxFrame, bool)> {
        // Taken apart first: only the two fields used are carried on.
        let Self { skb, room, .. } = self;
        if !skb.is_empty()
            || len < bindings::ETH_HLEN
            || offset.checked_add(len).map_or(true, |end| end > room)
        {
            return Err(EINVAL);
        }
        // SAFETY: the buffer is empty, linear and ours (type invariant), with `offset + len`
        // bytes of tailroom (within `room`, type invariant, checked above): moving the data
        // start and extending the data stay inside it. The device wrote the frame there; it
        // holds at least an Ethernet header (checked above), which `eth_type_trans` pulls; the
        // device is valid.
        let pkt_type = unsafe { rx_frame(skb.raw(), offset, len, dev) };
        let group = matches!(pkt_type, PACKET_BROADCAST | PACKET_MULTICAST);
        // INVARIANT: `eth_type_trans` just ran on the received frame; ownership passes on.
        Ok((RxFrame(skb.into_raw()), group))
    }

    /// The buffer as a plain [`SkBuff`] (no longer writable).
    #[inline]
    pub fn into_skb(self) -> SkBuff {
        // INVARIANT: a valid buffer we own (this type's invariant), written no more through it.
        self.skb
    }
}

/// Makes the frame of `len` bytes at `offset` in the empty, linear buffer `skb` its data and
/// sets it up for `dev`'s stack: C's `skb_reserve()`, `skb_put()` and `eth_type_trans()`;
/// returns its `pkt_type`.
///
/// # Safety
///
/// `skb` must be a valid, empty, linear buffer the caller owns, with at least `offset + len`
/// bytes from its data start to its end, of which the `len` from `offset` hold a frame of at
/// least an Ethernet header; `dev` must point to a valid `net_device`.
#[inline(always)]
unsafe fn rx_frame(
    skb: *mut bindings::sk_buff,
    offset: u32,
    len: u32,
    dev: *mut bindings::net_device,
) -> u8 {
    // SAFETY: by the caller's guarantees the reserve and the put stay within the buffer (and
    // `offset`, at most its room, fits an `int`); `eth_type_trans` then pulls the Ethernet
    // header the frame holds. The header fields are read and written as C's
    // `skb->protocol = eth_type_trans(...)` and `skb->pkt_type` are.
    unsafe {
        bindings::skb_reserve(skb, offset as crate::ffi::c_int);
        bindings::skb_put(skb, len);
        let protocol = bindings::eth_type_trans(skb, dev);
        // The headers group through a raw pointer (bindgen's union-field accessors would make
        // a reference wider than the field they borrow).
        let h = core::ptr::addr_of_mut!((*skb).__bindgen_anon_4)
            .cast::<bindings::sk_buff__bindgen_ty_4__bindgen_ty_1>();
        (*h).protocol = protocol;
        (*h).pkt_type()
    }
}

/// The alignment of a mapped receive buffer's data ([`RxMapping`]'s invariant, checked when
/// it is mapped): 4 bytes where `NET_IP_ALIGN` is a multiple of 4 (x86, whose receive buffers
/// start at `NET_SKB_PAD` into a cache-aligned allocation), else that of `NET_IP_ALIGN`, which
/// the allocator adds to such a start. A [`Head`]'s accesses take their width from it when the
/// driver is compiled, not from an address test on every access.
const RX_DATA_ALIGN: usize = {
    let ip = bindings::NET_IP_ALIGN as usize;
    if ip % 4 == 0 {
        4
    } else if ip % 2 == 0 {
        2
    } else {
        1
    }
};

/// `buf`'s data start.
#[inline]
fn rx_data(buf: &RxBuf) -> *mut u8 {
    // SAFETY: the buffer is valid (`RxBuf`'s invariant); only the pointer is read.
    unsafe { (*buf.raw()).data }
}

/// Whether `buf`'s data may be mapped as an [`RxMapping`]'s: aligned to [`RX_DATA_ALIGN`].
/// (Read where it is used, not once for the check, the map call and the mapping: kept across
/// the map call, the value cost e100_rs's receive path more, 2026-12-06.)
#[inline]
fn rx_data_aligned(buf: &RxBuf) -> bool {
    (rx_data(buf) as usize) % RX_DATA_ALIGN == 0
}

/// A driver's buffer mapped for the device to read and write.
///
/// Its first `H` bytes are always mapped and initialised (a ring's descriptor header, written
/// before the buffer is mapped; [`RxBuf::map`] and [`RxMapping::replace`] refuse a buffer
/// without them): the views of [`RxMapping::read_head`] and [`RxMapping::update_head`] of up
/// to `H` bytes need no run-time check. `0`, the default, promises nothing.
///
/// # Invariants
///
/// `addr` is a live `DMA_BIDIRECTIONAL` mapping, for `dev`, of `len` bytes starting at the
/// buffer's data, `data`, which stays there (nobody moves the data of a buffer we own), at an
/// address that is a multiple of [`RX_DATA_ALIGN`]. The smaller of `len` and the buffer's
/// initialised bytes (`ready()`: the bytes the CPU may read through the mapping) is at least
/// `H`. `sync` is false only if the mapping never needs syncing ([`DevRef::need_sync`], asked
/// when it was made).
/// The buffer, the device reference and so the mapping may be sent to another thread.
pub struct RxMapping<const H: usize = 0> {
    buf: RxBuf,
    dev: DevRef,
    addr: DmaAddr,
    /// The buffer's data start, the CPU's address of the mapped bytes: kept beside the buffer
    /// so that a descriptor view costs one load, not two, on the receive path.
    data: *mut u8,
    len: u32,
    /// Whether the mapping's bytes are synced around CPU accesses: `dma_need_sync()`'s answer
    /// when it was made, which holds for the mapping's life.
    sync: bool,
}

// SAFETY: `data` is only the address of the bytes of the buffer the mapping owns, whose
// ownership moves with it; the buffer and the device reference may be sent to another thread
// (checked below; the type's invariant says so).
unsafe impl<const H: usize> Send for RxMapping<H> {}

const _: () = {
    const fn is_send<T: Send>() {}
    // `RxMapping`'s other fields: plain values.
    is_send::<RxBuf>();
    is_send::<DevRef>();
};

impl<const H: usize> RxMapping<H> {
    /// The bus address of the data start.
    #[inline]
    pub fn dma_addr(&self) -> DmaAddr {
        self.addr
    }

    /// The number of bytes mapped.
    #[inline]
    pub fn len(&self) -> u32 {
        self.len
    }

    /// Whether no bytes are mapped (never true: mapping requires `len > 0`).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The bytes the CPU may read through the mapping: mapped and initialised. Worked out when
    /// asked (the paths that need it are not the data path's), not stored by every refill.
    #[inline]
    fn ready(&self) -> u32 {
        self.len.min(self.buf.init)
    }

    #[inline]
    fn check(&self, offset: usize, n: usize) -> Result {
        match offset.checked_add(n) {
            Some(end) if end <= self.len as usize => Ok(()),
            _ => Err(EINVAL),
        }
    }

    /// Checks that `offset .. offset + n` is mapped and initialised, the bytes the CPU may read.
    #[inline]
    fn check_init(&self, offset: usize, n: usize) -> Result {
        match offset.checked_add(n) {
            Some(end) if end <= self.ready() as usize => Ok(()),
            _ => Err(EINVAL),
        }
    }

    /// Copies `out.len()` mapped bytes at `offset` out, synced for the CPU for the copy (see
    /// [`RxMapping::read_with`], and its [`EINVAL`]).
    #[inline]
    pub fn read_at(&self, offset: usize, out: &mut [u8]) -> Result {
        self.read_with(offset, out.len(), |v| {
            for (i, b) in out.iter_mut().enumerate() {
                *b = v.u8(i);
            }
        })
    }

    /// Syncs `len` mapped bytes at `offset` for the CPU, runs `f` on a view of them, and syncs
    /// them back for the device: several reads for the cost of one sync pair. The view reads
    /// with volatile loads, since a device may write a descriptor it still owns meanwhile.
    /// [`EINVAL`] unless the bytes are mapped and were initialised before the buffer was
    /// mapped or since through the mapping ([`RxBuf::write_head`], [`RxBuf::clear_to`],
    /// [`RxMapping::write_at`]): a device's writes keep initialised bytes so, but bytes it may
    /// or may not have written are not known to be, and are not read.
    #[inline(always)]
    pub fn read_with<R>(
        &self,
        offset: usize,
        len: usize,
        f: impl FnOnce(&CpuView<'_>) -> R,
    ) -> Result<R> {
        self.check_init(offset, len)?;
        let a = self.addr.wrapping_add(offset as DmaAddr);
        let dir = bindings::dma_data_direction_DMA_BIDIRECTIONAL;
        if self.sync {
            // SAFETY: `offset..offset + len` is inside the live mapping (invariant and check
            // above), and initialised (`RxBuf`'s invariant, check above).
            unsafe { self.dev.sync_for_cpu_always(a, len, dir) };
        }
        // INVARIANT: synced for the CPU (where the mapping needs it) until the sync back below,
        // after `f` has returned.
        let view = CpuView {
            // SAFETY: `offset..offset + len` is inside the mapping (checked above), so inside
            // the buffer we own.
            base: unsafe { self.data.add(offset) },
            len,
            _p: PhantomData,
        };
        let r = f(&view);
        if self.sync {
            // SAFETY: as for the sync for the CPU above; hands the bytes back to the device.
            unsafe { self.dev.sync_for_device_always(a, len, dir) };
        }
        Ok(r)
    }

    /// Writes `src` into the mapped bytes at `offset` and syncs them for the device. Only
    /// where initialised bytes end or before ([`EINVAL`] past that, or past the mapping), so
    /// that the initialised bytes stay one run from the start.
    #[inline]
    pub fn write_at(&mut self, offset: usize, src: &[u8]) -> Result {
        self.check(offset, src.len())?;
        if offset > self.buf.init as usize {
            return Err(EINVAL);
        }
        let a = self.addr.wrapping_add(offset as DmaAddr);
        let n = src.len();
        let dir = bindings::dma_data_direction_DMA_BIDIRECTIONAL;
        // SAFETY: `offset..offset + n` is inside the live mapping (invariant and check above);
        // the buffer is ours alone (an `RxBuf`), and CPU writes between the two syncs reach the
        // device.
        unsafe {
            if self.sync {
                self.dev.sync_for_cpu_always(a, n, dir);
            }
            core::ptr::copy_nonoverlapping(src.as_ptr(), self.data.add(offset), n);
            if self.sync {
                self.dev.sync_for_device_always(a, n, dir);
            }
        }
        // INVARIANT: the bytes before `offset` were initialised (checked above), those up to
        // `offset + n` (within the mapping, so within the buffer, a `u32`) are written now.
        // `init` only grows: the header invariant still holds.
        self.buf.init = self.buf.init.max((offset + n) as u32);
        Ok(())
    }

    /// Syncs the first `N` mapped bytes (a descriptor header the buffer starts with) for the
    /// CPU, runs `f` on a [`Head`] view of them, and syncs them back for the device. The view's
    /// fields sit at offsets checked when the driver is compiled, so a descriptor costs one
    /// run-time check however many of its fields are read, and none when `N` is at most the
    /// header `H` the mapping holds: the data path's alternative to [`RxMapping::read_with`].
    /// [`EINVAL`] unless `N` bytes are mapped and initialised (never, for `N <= H`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::net::skbuff::RxMapping;
    ///
    /// /// A descriptor's 16-bit status at offset 0, and its count at offset 12 once the status
    /// /// says the device is done with it (read after a barrier: the device writes the status
    /// /// last, and the count must not be read before the status was).
    /// fn count(rfd: &RxMapping) -> Option<u16> {
    ///     rfd.read_head::<16, _>(|h| {
    ///         let done = h.le16::<0>() & 0x8000 != 0;
    ///         kernel::dma::rmb();
    ///         done.then(|| h.le16::<12>())
    ///     })
    ///     .ok()
    ///     .flatten()
    /// }
    ///
    /// /// The same from a mapping that always holds its 16-byte descriptor: nothing is checked
    /// /// at run time, and the error never comes.
    /// fn count_of_rfd(rfd: &RxMapping<16>) -> Option<u16> {
    ///     rfd.read_head::<16, _>(|h| {
    ///         let done = h.le16::<0>() & 0x8000 != 0;
    ///         kernel::dma::rmb();
    ///         done.then(|| h.le16::<12>())
    ///     })
    ///     .ok()
    ///     .flatten()
    /// }
    /// ```
    ///
    /// (Compile-checked: a doctest has no device to map for. An offset past `N`, such as
    /// `h.le16::<15>()`, fails the build wherever the code using it is compiled: a checked
    /// constant, evaluated when the function is instantiated, so not in a private function
    /// nothing calls.)
    #[inline(always)]
    pub fn read_head<const N: usize, R>(&self, f: impl FnOnce(&Head<'_, N>) -> R) -> Result<R> {
        // SAFETY: `f` is handed the view shared: nothing is written through it.
        unsafe { self.with_head(|h| f(h)) }
    }

    /// As [`RxMapping::read_head`], with a view that writes the header's fields too (each
    /// write a volatile store, in program order; a device that must see one before another
    /// needs a [`Head::publish`] between them).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::net::skbuff::RxMapping;
    ///
    /// /// Points a descriptor's 32-bit link, at offset 4, at `next`.
    /// fn link(rfd: &mut RxMapping, next: u32) -> kernel::error::Result {
    ///     rfd.update_head::<16, _>(|h| h.set_le32::<4>(next))
    /// }
    ///
    /// /// Gives a descriptor back to the device: its link first, then, once the device can
    /// /// see the link, its status word cleared.
    /// fn give_back(rfd: &mut RxMapping, next: u32) -> kernel::error::Result {
    ///     rfd.update_head::<16, _>(|h| {
    ///         h.set_le32::<4>(next);
    ///         h.publish();
    ///         h.set_le16::<0>(0);
    ///     })
    /// }
    /// ```
    #[inline(always)]
    pub fn update_head<const N: usize, R>(
        &mut self,
        f: impl FnOnce(&mut Head<'_, N>) -> R,
    ) -> Result<R> {
        // SAFETY: the mapping is borrowed uniquely for the call: the view is the only CPU
        // access to the bytes.
        unsafe { self.with_head(f) }
    }

    /// The body of [`RxMapping::read_head`] and [`RxMapping::update_head`]: checks, unless
    /// `N <= H` (then the type's invariant holds it), that the first `N` bytes are mapped and
    /// initialised ([`EINVAL`] if not), syncs them for the CPU, runs `f` on a [`Head`] view of
    /// them, and syncs them back for the device.
    ///
    /// # Safety
    ///
    /// `f` writes through the view only if the caller holds the mapping uniquely (`&mut`) for
    /// the call.
    #[inline(always)]
    unsafe fn with_head<const N: usize, R>(
        &self,
        f: impl FnOnce(&mut Head<'_, N>) -> R,
    ) -> Result<R> {
        // A constant condition: nothing is checked at run time for a header the mapping always
        // holds (`N <= H <= ready()`, invariant).
        if N > H {
            self.check_init(0, N)?;
        }
        if !self.sync {
            // INVARIANT: the first `N` bytes are mapped and initialised (as below), and the
            // mapping needs no syncing (`sync`, invariant): the CPU may access them at any time
            // (`publish` only orders the writes). The data's alignment is the mapping's
            // (invariant). The caller's guarantee: a view written through is the only CPU
            // access to the bytes; writes inside the first `init` bytes keep them initialised.
            // The view without syncs is made on its own, `f` inlined into both arms: one test
            // of the flag a view, not one before `f` and one after.
            let mut head = Head {
                base: self.data,
                sync: None,
                _p: PhantomData,
            };
            return Ok(f(&mut head));
        }
        let dir = bindings::dma_data_direction_DMA_BIDIRECTIONAL;
        // SAFETY: the first `N` bytes are inside the live mapping (invariant, and the check
        // above or `N <= H`) and initialised (`RxBuf`'s invariant, likewise).
        unsafe { self.dev.sync_for_cpu_always(self.addr, N, dir) };
        // INVARIANT: the first `N` bytes are mapped and initialised (as above) and synced for
        // the CPU (`publish` syncs them back for the CPU after each sync for the device) until
        // the sync back below, after `f` has returned; the data's alignment is the mapping's
        // (invariant). The caller's guarantee: a view written through is the only CPU access to
        // the bytes. Writes inside the first `init` bytes keep them initialised (`RxBuf`'s
        // invariant holds unchanged).
        let mut head = Head {
            base: self.data,
            sync: Some((&self.dev, self.addr)),
            _p: PhantomData,
        };
        let r = f(&mut head);
        // SAFETY: as above; hands the bytes back to the device (CPU writes between the two
        // syncs reach it).
        unsafe { self.dev.sync_for_device_always(self.addr, N, dir) };
        Ok(r)
    }

    /// Maps `buf` in place of the mapped buffer, for the same device and length, and returns
    /// the old buffer, unmapped: a ring slot's refill, with the device reference kept rather
    /// than dropped and taken again for every frame. `dev` must be the device the mapping was
    /// made for (bound, as a new mapping requires). The device must be done with the old
    /// buffer. On failure the mapping is unchanged and `buf` is handed back: [`EINVAL`] for
    /// another device, a buffer with less room than the mapping's length, data not aligned as
    /// [`RxBuf::map`] requires, or fewer than `H` bytes of it initialised (what the mapping
    /// always holds); [`ENOMEM`] if it cannot be mapped.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::device::{Bound, Device};
    /// use kernel::net::skbuff::{RxBuf, RxMapping};
    ///
    /// /// Refills a receive slot: the frame's buffer comes back, the slot maps a fresh one.
    /// fn refill(dev: &Device<Bound>, slot: &mut RxMapping, fresh: RxBuf) -> Result<RxBuf> {
    ///     // On failure the slot keeps its buffer (and `fresh` is dropped with the error).
    ///     slot.replace(dev, fresh).map_err(|(_fresh, e)| e)
    /// }
    /// ```
    ///
    /// (Compile-checked: a doctest has no bound device to map for.) That the device is done
    /// with the old buffer is the caller's word: a ring hands back only buffers whose
    /// descriptors the device has completed.
    #[inline(always)]
    pub fn replace(
        &mut self,
        dev: &Device<Bound>,
        buf: RxBuf,
    ) -> core::result::Result<RxBuf, (RxBuf, Error)> {
        let len = self.len;
        // `len >= ready() >= H` (invariant): the new buffer's initialised bytes decide whether
        // the mapping still holds the header (a check that can fold away where the compiler
        // sees the caller write the header, as a ring's refill does).
        if dev.as_raw() != self.dev.raw()
            || len > buf.room
            || !rx_data_aligned(&buf)
            || (buf.init as usize) < H
        {
            return Err((buf, EINVAL));
        }
        let dir = bindings::dma_data_direction_DMA_BIDIRECTIONAL;
        // SAFETY: `data .. data + len` lies inside `buf`'s allocation (checked above); `dev`
        // is bound.
        let addr = unsafe {
            bindings::dma_map_single(dev.as_raw(), rx_data(&buf).cast(), len as usize, dir)
        };
        if mapping_failed(dev, addr) {
            return Err((buf, ENOMEM));
        }
        // SAFETY: the old mapping is live (invariant) and ended exactly once, here; it is
        // replaced by the new one right after.
        unsafe { self.dev.unmap(self.addr, len, dir) };
        // INVARIANT: `addr` maps `len` bytes of the new buffer's data, `data`, whose alignment
        // was checked above, for the same device; `ready()` is the new buffer's, at least `H`:
        // `len` is at least the old `ready()` (invariant), and the new buffer's `init` was
        // checked. The need for syncing is the DMA API's answer for the new mapping.
        self.addr = addr;
        self.data = rx_data(&buf);
        self.sync = self.dev.need_sync(addr);
        Ok(core::mem::replace(&mut self.buf, buf))
    }
}

impl<const H: usize> Drop for RxMapping<H> {
    fn drop(&mut self) {
        // SAFETY: the mapping is live (invariant); the buffer is freed right after by the
        // field's drop.
        unsafe {
            self.dev.unmap(
                self.addr,
                self.len,
                bindings::dma_data_direction_DMA_BIDIRECTIONAL,
            )
        };
    }
}

/// Mapped bytes synced for the CPU, inside [`RxMapping::read_with`].
///
/// # Invariants
///
/// `base .. base + len` are mapped, initialised bytes of a live mapping, synced for the CPU for
/// `'a` (or of one that needs no syncing).
pub struct CpuView<'a> {
    base: *const u8,
    len: usize,
    _p: PhantomData<&'a ()>,
}

impl CpuView<'_> {
    /// Byte `i`, or 0 past the end.
    #[inline]
    pub fn u8(&self, i: usize) -> u8 {
        if i >= self.len {
            return 0;
        }
        // SAFETY: `i < len`, inside the synced range (type invariant).
        unsafe { self.base.add(i).read_volatile() }
    }

    /// The little-endian 16-bit value at `i`, or 0 if either byte is past the end.
    #[inline]
    pub fn le16(&self, i: usize) -> u16 {
        match i.checked_add(2) {
            Some(end) if end <= self.len => {
                // SAFETY: `i..i + 2` is inside the synced range (type invariant, check above).
                let p = unsafe { self.base.add(i) };
                if (p as usize) & 1 == 0 {
                    // One 16-bit access where the address allows it, as C's `le16_to_cpu` of
                    // a descriptor field. SAFETY: as above, aligned, any bits are a `u16`.
                    u16::from_le(unsafe { p.cast::<u16>().read_volatile() })
                } else {
                    // SAFETY: as above; bytes have alignment 1.
                    u16::from_le_bytes(unsafe { p.cast::<[u8; 2]>().read_volatile() })
                }
            }
            _ => 0,
        }
    }

    /// The `N` bytes at `i`, read with one volatile read of `[u8; N]` (a descriptor's fields
    /// at once, not byte by byte; not a single access: read a status word first, then the
    /// rest after a read barrier), or `None` past the end.
    pub fn bytes<const N: usize>(&self, i: usize) -> Option<[u8; N]> {
        match i.checked_add(N) {
            Some(end) if end <= self.len => {
                // SAFETY: `i..i + N` is inside the synced range (type invariant, check above);
                // `[u8; N]` has alignment 1 and every bit pattern is valid.
                Some(unsafe { self.base.add(i).cast::<[u8; N]>().read_volatile() })
            }
            _ => None,
        }
    }
}

/// The first `N` mapped bytes of a receive buffer, synced for the CPU, inside
/// [`RxMapping::read_head`] and [`RxMapping::update_head`]: a descriptor header whose fields
/// are read and written with volatile accesses (a device may write a descriptor it still owns
/// meanwhile) at offsets checked at compile time.
///
/// # Invariants
///
/// `base .. base + N` are mapped, initialised bytes of a live mapping, synced for the CPU for
/// `'a` (or of one that needs no syncing), and `base` is a multiple of [`RX_DATA_ALIGN`]. A view
/// reached through `&mut` is the only CPU access to them for `'a`. `sync`, when the mapping
/// needs syncing (`None` when not), is the device and the bus address of `base`, the start of
/// a live `DMA_BIDIRECTIONAL` mapping of at least `N` bytes made for it.
pub struct Head<'a, const N: usize> {
    base: *mut u8,
    sync: Option<(&'a DevRef, DmaAddr)>,
    _p: PhantomData<&'a mut [u8; N]>,
}

/// How a `K`-byte field at `OFF` of a [`Head`] is accessed: 4 for 32-bit accesses, 2 for
/// 16-bit ones, 1 for bytes; the widest the field's length and its address's alignment
/// ([`RX_DATA_ALIGN`] and `OFF`) allow, so a 32-bit field at a 2-byte aligned address is two
/// 16-bit halves, never bytes. Known when the driver is compiled.
const fn head_width(off: usize, k: usize) -> usize {
    if k % 4 == 0 && off % 4 == 0 && RX_DATA_ALIGN % 4 == 0 {
        4
    } else if k % 2 == 0 && off % 2 == 0 && RX_DATA_ALIGN % 2 == 0 {
        2
    } else {
        1
    }
}

impl<const N: usize> Head<'_, N> {
    /// The `K` bytes at `OFF`, read with volatile loads of the widest of 32, 16 or 8 bits the
    /// address allows (a 32-bit field at a 2-byte aligned address as two 16-bit halves, never
    /// bytes), in ascending order: a status word a device writes last is read on its own
    /// first, then the rest after a read barrier.
    #[inline(always)]
    pub fn get<const OFF: usize, const K: usize>(&self) -> [u8; K] {
        const { assert!(OFF + K <= N, "field past the end of the header") };
        let width = const { head_width(OFF, K) };
        // SAFETY: `OFF..OFF + K` lies in the `N` synced, initialised bytes (type invariant,
        // the assertion above).
        let p = unsafe { self.base.add(OFF) };
        let mut v = [0u8; K];
        // `base` is aligned to `RX_DATA_ALIGN` (type invariant), so `p` to `width`.
        if width == 4 {
            for (k, w) in v.chunks_exact_mut(4).enumerate() {
                // SAFETY: as above, 4-byte aligned; any bits are a `u32`.
                let x = unsafe { p.add(4 * k).cast::<u32>().read_volatile() };
                if let Ok(w) = <&mut [u8; 4]>::try_from(w) {
                    *w = x.to_ne_bytes();
                }
            }
        } else if width == 2 {
            for (k, w) in v.chunks_exact_mut(2).enumerate() {
                // SAFETY: as above, 2-byte aligned; any bits are a `u16`.
                let x = unsafe { p.add(2 * k).cast::<u16>().read_volatile() };
                if let Ok(w) = <&mut [u8; 2]>::try_from(w) {
                    *w = x.to_ne_bytes();
                }
            }
        } else {
            for (k, b) in v.iter_mut().enumerate() {
                // SAFETY: as above.
                *b = unsafe { p.add(k).read_volatile() };
            }
        }
        v
    }

    /// The little-endian 16-bit field at `OFF`.
    #[inline(always)]
    pub fn le16<const OFF: usize>(&self) -> u16 {
        u16::from_le_bytes(self.get::<OFF, 2>())
    }

    /// The little-endian 32-bit field at `OFF`.
    #[inline(always)]
    pub fn le32<const OFF: usize>(&self) -> u32 {
        u32::from_le_bytes(self.get::<OFF, 4>())
    }

    /// Writes `v` at `OFF`, with volatile stores of the widest of 32, 16 or 8 bits the address
    /// allows (a 32-bit field at a 2-byte aligned address as two 16-bit halves, never bytes),
    /// in ascending order. Several writes reach memory in program order on a CPU that keeps
    /// store order; a device that must see them in order needs a [`Head::publish`] between
    /// them (a write barrier, and a sync where its mappings need syncing: not coherent, or
    /// bounced).
    #[inline(always)]
    pub fn set<const OFF: usize, const K: usize>(&mut self, v: [u8; K]) {
        const { assert!(OFF + K <= N, "field past the end of the header") };
        let width = const { head_width(OFF, K) };
        // SAFETY: as in `get`; the view is the only CPU access to the bytes (type invariant:
        // it is reached through `&mut`).
        let p = unsafe { self.base.add(OFF) };
        if width == 4 {
            for (k, w) in v.chunks_exact(4).enumerate() {
                if let Ok(w) = <[u8; 4]>::try_from(w) {
                    // SAFETY: as above, 4-byte aligned.
                    unsafe {
                        p.add(4 * k)
                            .cast::<u32>()
                            .write_volatile(u32::from_ne_bytes(w))
                    };
                }
            }
        } else if width == 2 {
            for (k, w) in v.chunks_exact(2).enumerate() {
                if let Ok(w) = <[u8; 2]>::try_from(w) {
                    // SAFETY: as above, 2-byte aligned.
                    unsafe {
                        p.add(2 * k)
                            .cast::<u16>()
                            .write_volatile(u16::from_ne_bytes(w))
                    };
                }
            }
        } else {
            for (k, b) in v.iter().enumerate() {
                // SAFETY: as above.
                unsafe { p.add(k).write_volatile(*b) };
            }
        }
    }

    /// Writes the little-endian 16-bit field at `OFF`.
    #[inline(always)]
    pub fn set_le16<const OFF: usize>(&mut self, v: u16) {
        self.set::<OFF, 2>(v.to_le_bytes())
    }

    /// Writes the little-endian 32-bit field at `OFF`.
    #[inline(always)]
    pub fn set_le32<const OFF: usize>(&mut self, v: u32) {
        self.set::<OFF, 4>(v.to_le_bytes())
    }

    /// Makes the writes so far reach the device before any made after: for a device whose
    /// mappings need syncing (not coherent, or bounced), the header synced for the device,
    /// then a write barrier, then the header synced back for the CPU; for one that does not,
    /// the barrier alone. The barrier comes after the sync because a bounced mapping's sync is
    /// a plain copy: the next sync's copy (another `publish`'s, or the view's closing one) must
    /// not reach the device before this one's. So the device sees each step on its own rather
    /// than all of them, in no order, when the view ends; one header check and one look at
    /// whether to sync for the whole sequence.
    #[inline(always)]
    pub fn publish(&mut self) {
        let dir = bindings::dma_data_direction_DMA_BIDIRECTIONAL;
        if let Some((dev, addr)) = self.sync {
            // SAFETY: the first `N` bytes of the live mapping at `addr`, made for `dev` with
            // `dir` (type invariant), synced for the CPU until now; synced back for the CPU
            // below, before this returns, so the view's invariant holds again.
            unsafe { dev.sync_for_device_always(addr, N, dir) };
        }
        crate::dma::wmb();
        if let Some((dev, addr)) = self.sync {
            // SAFETY: as above; the bytes were handed to the device just above.
            unsafe { dev.sync_for_cpu_always(addr, N, dir) };
        }
    }
}
