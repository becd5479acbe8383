// SPDX-License-Identifier: GPL-2.0

//! Socket buffers (`struct sk_buff`).
//!
//! C header: [`include/linux/skbuff.h`](srctree/include/linux/skbuff.h)

use super::dev::Device as NetDevice;
use crate::bindings;
use crate::device::Device;
use crate::dma::DmaAddr;
use crate::error::{code::*, Result};
use crate::types::ARef;
use core::ptr::NonNull;

/// An owned socket buffer.
///
/// Dropping it frees it as a drop (`dev_kfree_skb_any`, counted by drop monitors); a buffer that
/// was delivered should be released with [`SkBuff::consume`] instead. Both are safe in any
/// context.
///
/// # Invariants
///
/// `self.0` points to a valid `sk_buff` that this value owns exclusively.
pub struct SkBuff(NonNull<bindings::sk_buff>);

// SAFETY: an exclusively owned `sk_buff` may be handed to and freed on any CPU.
unsafe impl Send for SkBuff {}

impl SkBuff {
    /// Takes ownership of `ptr`.
    ///
    /// # Safety
    ///
    /// `ptr` must be a valid `sk_buff` whose ownership the caller gives up.
    pub unsafe fn from_raw(ptr: NonNull<bindings::sk_buff>) -> Self {
        // INVARIANT: the caller hands over exclusive ownership.
        Self(ptr)
    }

    /// Gives up ownership; the caller must free or pass on the buffer.
    pub fn into_raw(self) -> NonNull<bindings::sk_buff> {
        let p = self.0;
        core::mem::forget(self);
        p
    }

    /// The length of the data, in bytes.
    pub fn len(&self) -> u32 {
        // SAFETY: the buffer is valid (type invariant).
        unsafe { (*self.0.as_ptr()).len }
    }

    /// Whether the buffer holds no data.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Allocates an empty buffer with room for `len` bytes of data (`alloc_skb()` with
    /// `GFP_ATOMIC`, so callable in any context). `None` if memory is short.
    pub fn alloc(len: u32) -> Option<Self> {
        // SAFETY: no preconditions; the function returns null or a new, owned buffer.
        // `NUMA_NO_NODE` is -1.
        let skb = unsafe { bindings::__alloc_skb(len, bindings::GFP_ATOMIC, 0, -1) };
        // INVARIANT: a fresh buffer we own.
        NonNull::new(skb).map(Self)
    }

    /// Allocates a receive buffer with at least `len` bytes of room, its data aligned so that
    /// the IP header after a 14-byte Ethernet header is 4-byte aligned. Atomic-context safe.
    pub fn alloc_rx(dev: &NetDevice, len: u32) -> Option<Self> {
        // SAFETY: the device is valid; the function returns null or a new, owned buffer.
        let skb = unsafe { bindings::netdev_alloc_skb_ip_align(dev.as_raw(), len) };
        // INVARIANT: a fresh buffer we own.
        NonNull::new(skb).map(Self)
    }

    fn raw(&self) -> *mut bindings::sk_buff {
        self.0.as_ptr()
    }

    /// Bytes of room after the data.
    pub fn tailroom(&self) -> u32 {
        // SAFETY: the buffer is valid.
        unsafe { bindings::skb_tailroom(self.raw()) }
    }

    /// Bytes in the linear (head) part of the data.
    pub fn headlen(&self) -> u32 {
        // SAFETY: the buffer is valid.
        unsafe { bindings::skb_headlen(self.raw()) }
    }

    /// Moves the (empty) data start `len` bytes further, as `skb_reserve()`. [`EINVAL`] if the
    /// buffer holds data or lacks the room.
    pub fn reserve(&mut self, len: u32) -> Result {
        if !self.is_empty() || len > self.tailroom() {
            return Err(EINVAL);
        }
        // SAFETY: the buffer is valid, empty, and has `len` bytes of room (checked above).
        unsafe { bindings::skb_reserve(self.raw(), len as i32) };
        Ok(())
    }

    /// Extends the data by `len` bytes of the room after it, as `skb_put()`. [`EINVAL`] instead
    /// of C's panic if there is not that much room.
    pub fn put(&mut self, len: u32) -> Result {
        if len > self.tailroom() {
            return Err(EINVAL);
        }
        // SAFETY: the buffer is valid and has `len` bytes of tailroom (checked above).
        unsafe { bindings::skb_put(self.raw(), len) };
        Ok(())
    }

    /// Pads the data with zeroes to at least `len` bytes, as `skb_put_padto()`: a frame shorter
    /// than the Ethernet minimum leaves the wire padded whatever the device does. A shared
    /// (cloned) buffer is copied first, so nobody else's data changes. On failure the buffer is
    /// gone (freed, as C's function does) and [`ENOMEM`] is returned.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::error::{code::ENOMEM, Error};
    /// use kernel::net::skbuff::SkBuff;
    ///
    /// let mut skb = SkBuff::alloc(128).ok_or(ENOMEM)?;
    /// skb.write_head(0, &[0xab; 42])?; // an ARP frame's length
    /// skb.put(42)?;
    /// let skb = skb.pad_to(60)?;
    /// assert_eq!(skb.len(), 60);
    /// assert!(skb.data()[..42].iter().all(|b| *b == 0xab));
    /// assert!(skb.data()[42..].iter().all(|b| *b == 0));
    /// // Already long enough: unchanged.
    /// let skb = skb.pad_to(60)?;
    /// assert_eq!(skb.len(), 60);
    /// # Ok::<(), Error>(())
    /// ```
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
        // INVARIANT: on success the buffer is still ours, valid and exclusively owned.
        Ok(Self(raw))
    }

    /// Copies `src` to `offset` bytes past the data start, into the room after the data, without
    /// changing the length: for a device header written before the buffer is mapped (as an
    /// RFD). [`EINVAL`] if it does not fit in the data and tailroom.
    pub fn write_head(&mut self, offset: usize, src: &[u8]) -> Result {
        let room = (self.headlen() + self.tailroom()) as usize;
        match offset.checked_add(src.len()) {
            Some(end) if end <= room => {}
            _ => return Err(EINVAL),
        }
        // SAFETY: `data + offset .. + src.len()` lies within the buffer's data and tailroom
        // (checked above), which we own exclusively and which is not mapped for DMA.
        unsafe {
            core::ptr::copy_nonoverlapping(src.as_ptr(), (*self.raw()).data.add(offset), src.len())
        };
        Ok(())
    }

    /// The linear data.
    pub fn data(&self) -> &[u8] {
        // SAFETY: `data` points to `headlen` initialised bytes of a valid buffer we own.
        unsafe { core::slice::from_raw_parts((*self.raw()).data, self.headlen() as usize) }
    }

    /// Sets the protocol from the Ethernet header and pulls the header, as `eth_type_trans()`.
    /// [`EINVAL`] if the data is shorter than an Ethernet header.
    pub fn eth_type_trans(&mut self, dev: &NetDevice) -> Result {
        if self.headlen() < bindings::ETH_HLEN {
            return Err(EINVAL);
        }
        // SAFETY: the buffer is valid and holds an Ethernet header; the device is valid.
        unsafe { bindings::skb_eth_type_trans(self.raw(), dev.as_raw()) };
        Ok(())
    }

    /// Frees a buffer that was transmitted, from NAPI poll: `budget` 0 means "not from NAPI"
    /// (netpoll), as for `napi_consume_skb()`.
    pub fn napi_consume(self, budget: i32) {
        // SAFETY: we own the buffer and give it up here.
        unsafe { bindings::napi_consume_skb(self.into_raw().as_ptr(), budget) };
    }

    /// Frees a buffer that was used successfully. Safe in any context.
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

/// The direction of a streaming DMA mapping.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    /// The device reads the buffer (transmit).
    ToDevice,
    /// The device writes, and the CPU also writes descriptors in, the buffer (receive with an
    /// in-buffer descriptor, as the 8255x's RFD).
    Bidirectional,
}

impl Direction {
    fn raw(self) -> bindings::dma_data_direction {
        match self {
            Direction::ToDevice => bindings::dma_data_direction_DMA_TO_DEVICE,
            Direction::Bidirectional => bindings::dma_data_direction_DMA_BIDIRECTIONAL,
        }
    }
}

/// A socket buffer whose first `len` data bytes are mapped for DMA by a device.
///
/// The CPU may touch the mapped bytes only through [`MappedSkb::read_at`] and
/// [`MappedSkb::write_at`], which do the `dma_sync_*` calls that make that safe, and gets the
/// buffer back with [`MappedSkb::unmap`]. Dropping it unmaps and frees the buffer.
///
/// # Invariants
///
/// `addr` is a live streaming mapping, for `dev` and in direction `dir`, of `len` bytes starting
/// at the buffer's `data`, which stays there (nobody moves `data` of a buffer we own exclusively).
pub struct MappedSkb {
    skb: SkBuff,
    dev: ARef<Device>,
    addr: DmaAddr,
    len: u32,
    dir: Direction,
}

impl MappedSkb {
    /// Maps the `len` bytes at the buffer's data start (they must lie in its data and tailroom).
    /// On failure the buffer is handed back with the error.
    pub fn map(
        skb: SkBuff,
        dev: &Device,
        len: u32,
        dir: Direction,
    ) -> core::result::Result<Self, (SkBuff, crate::error::Error)> {
        if len == 0 || len > skb.headlen() + skb.tailroom() {
            return Err((skb, EINVAL));
        }
        // SAFETY: `data .. data + len` lies inside the buffer's allocation (checked above).
        let addr = unsafe {
            bindings::dma_map_single(
                dev.as_raw(),
                (*skb.raw()).data.cast(),
                len as usize,
                dir.raw(),
            )
        };
        // SAFETY: `addr` was just returned for `dev`.
        if unsafe { bindings::dma_mapping_error(dev.as_raw(), addr) } != 0 {
            return Err((skb, ENOMEM));
        }
        // INVARIANT: mapped just above.
        Ok(Self {
            skb,
            dev: dev.into(),
            addr,
            len,
            dir,
        })
    }

    /// The bus address of the data start.
    pub fn dma_addr(&self) -> DmaAddr {
        self.addr
    }

    /// The number of bytes mapped.
    pub fn len(&self) -> u32 {
        self.len
    }

    /// Whether no bytes are mapped (never true: mapping requires `len > 0`).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The buffer, for reading its metadata (`len`, ...), not its mapped bytes.
    pub fn skb(&self) -> &SkBuff {
        &self.skb
    }

    fn check(&self, offset: usize, n: usize) -> Result {
        match offset.checked_add(n) {
            Some(end) if end <= self.len as usize => Ok(()),
            _ => Err(EINVAL),
        }
    }

    /// Copies `out.len()` mapped bytes at `offset` out, synced for the CPU for the copy (see
    /// [`MappedSkb::read_with`]).
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
    pub fn read_with<R>(
        &self,
        offset: usize,
        len: usize,
        f: impl FnOnce(&CpuView<'_>) -> R,
    ) -> Result<R> {
        self.check(offset, len)?;
        let a = self.addr + offset as DmaAddr;
        // SAFETY: `offset..offset + len` is inside the live mapping (invariant and check above).
        unsafe { bindings::dma_sync_single_for_cpu(self.dev.as_raw(), a, len, self.dir.raw()) };
        let view = CpuView {
            // SAFETY: as above; the pointer stays in the buffer we own.
            base: unsafe { (*self.skb.raw()).data.add(offset) },
            len,
            _p: core::marker::PhantomData,
        };
        let r = f(&view);
        // SAFETY: as above; hands the bytes back to the device.
        unsafe { bindings::dma_sync_single_for_device(self.dev.as_raw(), a, len, self.dir.raw()) };
        Ok(r)
    }

    /// Writes `src` into the mapped bytes at `offset` and syncs them for the device.
    /// Only for [`Direction::Bidirectional`] mappings ([`EINVAL`] otherwise).
    pub fn write_at(&mut self, offset: usize, src: &[u8]) -> Result {
        if self.dir != Direction::Bidirectional {
            return Err(EINVAL);
        }
        self.check(offset, src.len())?;
        let a = self.addr + offset as DmaAddr;
        let n = src.len();
        // SAFETY: as in `read_at`; CPU writes between the two syncs reach the device.
        unsafe {
            bindings::dma_sync_single_for_cpu(self.dev.as_raw(), a, n, self.dir.raw());
            core::ptr::copy_nonoverlapping(src.as_ptr(), (*self.skb.raw()).data.add(offset), n);
            bindings::dma_sync_single_for_device(self.dev.as_raw(), a, n, self.dir.raw());
        }
        Ok(())
    }

    /// Ends the mapping and returns the buffer; the device must be done with it.
    pub fn unmap(self) -> SkBuff {
        let this = core::mem::ManuallyDrop::new(self);
        // SAFETY: the mapping is live (invariant) and ended exactly once, here.
        unsafe {
            bindings::dma_unmap_single(
                this.dev.as_raw(),
                this.addr,
                this.len as usize,
                this.dir.raw(),
            )
        };
        // SAFETY: `this` is never used or dropped again; we move its fields out exactly once.
        let (skb, dev) = unsafe { (core::ptr::read(&this.skb), core::ptr::read(&this.dev)) };
        drop(dev);
        skb
    }
}

/// Mapped bytes synced for the CPU, inside [`MappedSkb::read_with`].
///
/// # Invariants
///
/// `base .. base + len` are mapped bytes of a live mapping, synced for the CPU for `'a`.
pub struct CpuView<'a> {
    base: *const u8,
    len: usize,
    _p: core::marker::PhantomData<&'a ()>,
}

impl CpuView<'_> {
    /// Byte `i`, or 0 past the end.
    pub fn u8(&self, i: usize) -> u8 {
        if i >= self.len {
            return 0;
        }
        // SAFETY: `i < len`, inside the synced range (type invariant).
        unsafe { self.base.add(i).read_volatile() }
    }

    /// The little-endian 16-bit value at `i`, or 0 past the end.
    pub fn le16(&self, i: usize) -> u16 {
        u16::from_le_bytes([self.u8(i), self.u8(i + 1)])
    }
}

impl Drop for MappedSkb {
    fn drop(&mut self) {
        // SAFETY: the mapping is live (invariant); the buffer is freed right after by the field
        // drop.
        unsafe {
            bindings::dma_unmap_single(
                self.dev.as_raw(),
                self.addr,
                self.len as usize,
                self.dir.raw(),
            )
        };
    }
}
