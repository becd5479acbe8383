// SPDX-License-Identifier: GPL-2.0

//! Direct memory access: DMA masks, coherent allocations and streaming mappings.
//!
//! C header: [`include/linux/dma-mapping.h`](srctree/include/linux/dma-mapping.h)
//!
//! [`CoherentAllocation`] holds descriptor memory shared with a device for a long time. Its
//! elements are typed (they must be [`FromBytes`] and [`AsBytes`], see
//! [`dma_struct!`](crate::dma_struct)) and are only accessed with volatile reads and writes of
//! single fields ([`dma_read!`](crate::dma_read), [`dma_write!`](crate::dma_write)), bounds
//! checked, so a driver never does pointer arithmetic. [`wmb`] and [`rmb`] order those accesses
//! against the device. Allocating needs a [`Bound`] device: DMA memory is made for a binding
//! (dropping it after the unbind is a driver bug DMA-API debugging reports, not a memory-safety
//! one: the allocation keeps a reference to its device).
//!
//! Streaming mappings of packet buffers are in [`crate::net::skbuff`].
//!
//! # Compared with upstream
//!
//! As Linux 6.15-6.18: `CoherentAllocation<T: AsBytes + FromBytes>` allocated for a
//! `Device<Bound>`, `dma_read!`/`dma_write!` field projections, an `unsafe` mask setter taking
//! a [`DmaMask`]. Differences: the accessors return `Result` for an out-of-range index instead
//! of using `build_assert!`-style indexing, and also take an array element (`field[i]`),
//! bounds checked; the caller's expressions (allocation, index, value) are evaluated outside the
//! macros' `unsafe` blocks; the mask setter is a function, not a trait method on bus devices,
//! and PCI drivers declare their mask instead of calling it (see
//! [`pci::Driver::DMA_MASK`](crate::pci::Driver::DMA_MASK)). The barriers ([`wmb`], [`rmb`],
//! [`mb`]) call C's through helpers, as upstream's `kernel::sync::barrier` does.

use crate::alloc::Flags;
use crate::bindings;
use crate::device::{Bound, Device};
use crate::error::{code::*, to_result, Result};
use crate::transmute::{AsBytes, FromBytes};
use crate::types::ARef;

/// A bus address, as the device sees memory.
pub type DmaAddr = bindings::dma_addr_t;

/// A DMA mask: how many low address bits the device can drive.
///
/// # Examples
///
/// ```
/// use kernel::dma::DmaMask;
///
/// assert_eq!(DmaMask::new::<32>().value(), 0xffff_ffff);
/// assert_eq!(DmaMask::new::<64>().value(), u64::MAX);
/// assert!(DmaMask::try_new(65).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DmaMask(u64);

impl DmaMask {
    /// A mask of `N` bits (1 to 64, checked at build time).
    pub const fn new<const N: u32>() -> Self {
        const {
            assert!(N >= 1 && N <= 64, "a DMA mask has 1 to 64 bits");
        }
        Self(if N == 64 { u64::MAX } else { (1u64 << N) - 1 })
    }

    /// A mask of `n` bits; [`EINVAL`] unless `n` is 1 to 64.
    pub const fn try_new(n: u32) -> Result<Self> {
        if n == 0 || n > 64 {
            return Err(EINVAL);
        }
        Ok(Self(if n == 64 { u64::MAX } else { (1u64 << n) - 1 }))
    }

    /// The mask.
    pub const fn value(&self) -> u64 {
        self.0
    }
}

/// Sets the streaming and coherent DMA masks of `dev`.
///
/// # Safety
///
/// No DMA allocation or mapping may be made for `dev` concurrently, and none may exist that the
/// new mask does not cover (the DMA API does not re-check them). Calling it in a driver's bind
/// path before anything is allocated, as [`pci::Driver::DMA_MASK`](crate::pci::Driver::DMA_MASK)
/// does, meets this.
pub unsafe fn set_mask_and_coherent(dev: &Device<Bound>, mask: DmaMask) -> Result {
    // SAFETY: `dev` is a valid device; the caller rules out races with allocations.
    to_result(unsafe { bindings::dma_set_mask_and_coherent(dev.as_raw(), mask.value()) })
}

/// Orders CPU writes to DMA memory before later writes (such as a doorbell or a descriptor's
/// ownership bit) are seen by the device: C's `dma_wmb()`, through its helper.
#[inline]
pub fn wmb() {
    // SAFETY: a barrier has no preconditions.
    unsafe { bindings::dma_wmb() };
}

/// Orders every earlier CPU access to memory, stores included, before every later one, MMIO
/// reads included: C's `mb()`, through its helper. For a store to DMA memory that the device
/// must see before the driver reads a register that depends on it (`dma_wmb()` orders stores
/// only, and a register read is not ordered after earlier stores).
#[inline]
pub fn mb() {
    // SAFETY: a barrier has no preconditions.
    unsafe { bindings::mb() };
}

/// Orders CPU reads of DMA memory: reads after this see data at least as new as a status word
/// read before it: C's `dma_rmb()`, through its helper.
#[inline]
pub fn rmb() {
    // SAFETY: a barrier has no preconditions.
    unsafe { bindings::dma_rmb() };
}

/// `count` elements of `T` in memory coherent between the CPU and `dev`.
///
/// What the types do not enforce: dropping it hands the memory back on the driver's word that
/// the device no longer reads or writes it (its units stopped, or the chip reset, before the
/// drop); a device still writing then corrupts freed memory (an IOMMU, where there is one,
/// faults it instead). And CPU accesses from several threads to one field must be serialised
/// by the driver (a lock): the accessors are volatile, which orders nothing between CPUs.
///
/// # Invariants
///
/// `cpu_addr` points to `count` elements of `T` (`count * size_of::<T>()` bytes, non-zero)
/// returned by `dma_alloc_coherent` for `dev`, at bus address `dma_handle`, freed in `drop`.
///
/// # Examples
///
/// ```
/// use kernel::{dma::CoherentAllocation, dma_read, dma_write};
///
/// kernel::dma_struct! {
///     struct Desc { status: u16, size: u16, addr: u32, words: [u32; 2] }
/// }
///
/// # fn test(dev: &kernel::device::Device<kernel::device::Bound>) -> Result {
/// let ring = CoherentAllocation::<Desc>::alloc_coherent(dev, 4, GFP_KERNEL)?;
/// dma_write!(ring, 2, size = 1522)?;
/// assert_eq!(dma_read!(ring, 2, size)?, 1522);
/// assert!(dma_read!(ring, 4, size).is_err()); // out of bounds
/// dma_write!(ring, 1, words[1] = 7)?;
/// assert_eq!(dma_read!(ring, 1, words[1])?, 7);
/// assert!(dma_read!(ring, 1, words[2]).is_err()); // out of the array
/// assert_eq!(ring.dma_handle_at(1)?, ring.dma_handle() + 16);
/// // Several fields of one element: one bounds check, the stores in the order written.
/// dma_write!(ring, 3, { addr = 0x1000, size = 64, status = 0x8000 })?;
/// assert_eq!(dma_read!(ring, 3, addr)?, 0x1000);
/// assert!(dma_write!(ring, 4, { size = 1, status = 1 }).is_err()); // nothing written
/// # Ok(()) }
/// ```
pub struct CoherentAllocation<T: AsBytes + FromBytes> {
    dev: ARef<Device>,
    dma_handle: DmaAddr,
    count: usize,
    cpu_addr: *mut T,
}

// SAFETY: the allocation is plain memory owned by this value; access is by volatile reads and
// writes of `FromBytes + AsBytes` data, which any thread may do.
unsafe impl<T: AsBytes + FromBytes + Send> Send for CoherentAllocation<T> {}
// SAFETY: shared access only does volatile reads and writes of single `FromBytes + AsBytes`
// fields (any bit pattern is valid, so a torn or stale value is never an invalid one) and hands
// out no reference into the memory. What the types do not rule out is two CPUs accessing one
// field at once: in Rust's memory model that is a data race even with volatile accesses, as a
// race with the device is. The kernel relies on such accesses behaving as C's
// `READ_ONCE`/`WRITE_ONCE` (which is what they compile to), as upstream's `dma_read!` does for
// the device's side; drivers keep CPU accesses to one field serialised by their locks (see
// the type's documentation).
unsafe impl<T: AsBytes + FromBytes + Sync> Sync for CoherentAllocation<T> {}

impl<T: AsBytes + FromBytes> CoherentAllocation<T> {
    /// Allocates `count` zeroed elements of coherent memory for `dev`.
    pub fn alloc_coherent(dev: &Device<Bound>, count: usize, flags: Flags) -> Result<Self> {
        let size = count
            .checked_mul(core::mem::size_of::<T>())
            .filter(|s| *s > 0)
            .ok_or(EINVAL)?;
        let mut dma_handle = 0;
        // SAFETY: `dev` is valid; `dma_handle` is a valid out-pointer. `__GFP_ZERO` zeroes it.
        let cpu = unsafe {
            bindings::dma_alloc_attrs(
                dev.as_raw(),
                size,
                &mut dma_handle,
                (flags | crate::alloc::flags::__GFP_ZERO).as_raw(),
                0,
            )
        };
        if cpu.is_null() {
            return Err(ENOMEM);
        }
        // INVARIANT: a successful allocation of `count` elements.
        Ok(Self {
            dev: ARef::from(&**dev),
            dma_handle,
            count,
            cpu_addr: cpu.cast(),
        })
    }

    /// The number of elements.
    #[inline]
    pub fn count(&self) -> usize {
        self.count
    }

    /// The bus address of element 0.
    #[inline]
    pub fn dma_handle(&self) -> DmaAddr {
        self.dma_handle
    }

    /// The bus address of element `i`, or [`EINVAL`] if out of range.
    #[inline]
    pub fn dma_handle_at(&self, i: usize) -> Result<DmaAddr> {
        if i >= self.count {
            return Err(EINVAL);
        }
        // `i < count`: the offset is inside the allocation, whose size (`count` elements) was
        // computed without overflow at allocation, and its bus range does not wrap; the
        // wrapping operations only spare the overflow checks.
        Ok(self
            .dma_handle
            .wrapping_add(i.wrapping_mul(core::mem::size_of::<T>()) as DmaAddr))
    }

    /// A pointer to element `i`, bounds checked. For the [`dma_read!`](crate::dma_read) family.
    #[doc(hidden)]
    #[inline]
    pub fn item_from_index(&self, i: usize) -> Result<*mut T> {
        if i >= self.count {
            return Err(EINVAL);
        }
        // SAFETY: `i < count`, so the offset stays inside the allocation (type invariant).
        Ok(unsafe { self.cpu_addr.add(i) })
    }

    /// Reads the field at `field` with a volatile load.
    ///
    /// # Safety
    ///
    /// `field` must point inside an element returned by [`Self::item_from_index`] of `self`.
    #[doc(hidden)]
    #[inline]
    pub unsafe fn field_read<F: FromBytes>(&self, field: *const F) -> F {
        // SAFETY: the caller guarantees `field` is in our allocation and properly aligned (it
        // was projected from an element); any bit pattern is a valid `F`.
        unsafe { field.read_volatile() }
    }

    /// Writes `val` to the field at `field` with a volatile store.
    ///
    /// # Safety
    ///
    /// `field` must point inside an element returned by [`Self::item_from_index`] of `self`.
    #[doc(hidden)]
    #[inline]
    pub unsafe fn field_write<F: AsBytes>(&self, field: *mut F, val: F) {
        // SAFETY: the caller guarantees `field` is in our allocation and properly aligned.
        unsafe { field.write_volatile(val) }
    }
}

impl<T: AsBytes + FromBytes> Drop for CoherentAllocation<T> {
    fn drop(&mut self) {
        let size = self.count * core::mem::size_of::<T>();
        // SAFETY: the allocation came from `dma_alloc_attrs` with these arguments (invariant).
        unsafe {
            bindings::dma_free_attrs(
                self.dev.as_raw(),
                size,
                self.cpu_addr.cast(),
                self.dma_handle,
                0,
            )
        };
    }
}

/// Reads a field of element `$idx` of a [`CoherentAllocation`]: `dma_read!(ring, i, a.b)`, or
/// one element of an array field: `dma_read!(ring, i, a.b[k])`.
/// Evaluates to `Result<FieldType>`; out-of-range indices give [`EINVAL`]. The allocation and
/// the index are evaluated before, and outside, the macro's `unsafe` block, and the allocation
/// must be a [`CoherentAllocation`] (its methods are called by their full path, so no look-alike
/// type can stand in).
#[macro_export]
macro_rules! dma_read {
    ($alloc:expr, $idx:expr, $($field:ident).+) => {{
        let alloc: &$crate::dma::CoherentAllocation<_> = &$alloc;
        let idx: usize = $idx;
        match $crate::dma::CoherentAllocation::item_from_index(alloc, idx) {
            Ok(item) => {
                // A field the element does not have would be looked up through a `Deref` impl
                // (user code, run inside the `unsafe` block, making a reference into device
                // memory): that is refused.
                // SAFETY: `item` points to a valid element of `alloc` (bounds checked above);
                // `addr_of!` projects to one of its fields (named by identifiers only) without
                // creating a reference.
                #[forbid(dangerous_implicit_autorefs)]
                let field = unsafe { ::core::ptr::addr_of!((*item).$($field).+) };
                // SAFETY: `field` points into an element returned by `item_from_index`; it is
                // read with a volatile load.
                Ok(unsafe { $crate::dma::CoherentAllocation::field_read(alloc, field) })
            }
            Err(e) => Err(e),
        }
    }};
    ($alloc:expr, $idx:expr, $($field:ident).+ [$i:expr]) => {{
        let alloc: &$crate::dma::CoherentAllocation<_> = &$alloc;
        let idx: usize = $idx;
        let i: usize = $i;
        match $crate::dma::CoherentAllocation::item_from_index(alloc, idx) {
            Ok(item) => {
                // SAFETY: as above.
                #[forbid(dangerous_implicit_autorefs)]
                let array = unsafe { ::core::ptr::addr_of!((*item).$($field).+) };
                match $crate::dma::array_element(array.cast_mut(), i) {
                    // SAFETY: `elem` is an element, bounds checked, of an array field of an
                    // element returned by `item_from_index`; it is read with a volatile load.
                    Ok(elem) => Ok(unsafe {
                        $crate::dma::CoherentAllocation::field_read(alloc, elem.cast_const())
                    }),
                    Err(e) => Err(e),
                }
            }
            Err(e) => Err(e),
        }
    }};
}

/// Writes a field of element `$idx` of a [`CoherentAllocation`]: `dma_write!(ring, i, a.b = v)`,
/// or one element of an array field: `dma_write!(ring, i, a.b[k] = v)`. Evaluates to `Result`;
/// an out-of-range `i` or `k` gives [`EINVAL`]. The allocation, indices and value are evaluated
/// before, and outside, the macro's `unsafe` blocks.
///
/// Several fields of one element, with one bounds check: `dma_write!(ring, i, { a = v, b.c = w })`.
/// The stores are volatile, made in the order written (a descriptor's command word last, say);
/// each value is evaluated, outside the `unsafe` blocks, just before its store, and none is if
/// `i` is out of range (nothing is written then). A value that leaves early (`?`, `return`)
/// leaves the fields before it written.
#[macro_export]
macro_rules! dma_write {
    ($alloc:expr, $idx:expr, { $($($field:ident).+ = $val:expr),+ $(,)? }) => {{
        let alloc: &$crate::dma::CoherentAllocation<_> = &$alloc;
        let idx: usize = $idx;
        match $crate::dma::CoherentAllocation::item_from_index(alloc, idx) {
            Ok(item) => {
                $(
                    let val = $val;
                    // SAFETY: as in `dma_read!`.
                    #[forbid(dangerous_implicit_autorefs)]
                    let field = unsafe { ::core::ptr::addr_of_mut!((*item).$($field).+) };
                    // SAFETY: `field` points into an element returned by `item_from_index`.
                    unsafe { $crate::dma::CoherentAllocation::field_write(alloc, field, val) };
                )+
                Ok(())
            }
            Err(e) => Err(e),
        }
    }};
    ($alloc:expr, $idx:expr, $($field:ident).+ = $val:expr) => {{
        let alloc: &$crate::dma::CoherentAllocation<_> = &$alloc;
        let idx: usize = $idx;
        let val = $val;
        match $crate::dma::CoherentAllocation::item_from_index(alloc, idx) {
            Ok(item) => {
                // SAFETY: as in `dma_read!`.
                #[forbid(dangerous_implicit_autorefs)]
                let field = unsafe { ::core::ptr::addr_of_mut!((*item).$($field).+) };
                // SAFETY: `field` points into an element returned by `item_from_index`.
                unsafe { $crate::dma::CoherentAllocation::field_write(alloc, field, val) };
                Ok(())
            }
            Err(e) => Err(e),
        }
    }};
    ($alloc:expr, $idx:expr, $($field:ident).+ [$i:expr] = $val:expr) => {{
        let alloc: &$crate::dma::CoherentAllocation<_> = &$alloc;
        let idx: usize = $idx;
        let i: usize = $i;
        let val = $val;
        match $crate::dma::CoherentAllocation::item_from_index(alloc, idx) {
            Ok(item) => {
                // SAFETY: as in `dma_read!`.
                #[forbid(dangerous_implicit_autorefs)]
                let array = unsafe { ::core::ptr::addr_of_mut!((*item).$($field).+) };
                match $crate::dma::array_element(array, i) {
                    Ok(elem) => {
                        // SAFETY: `elem` is an element, bounds checked, of an array field of
                        // an element returned by `item_from_index`.
                        unsafe { $crate::dma::CoherentAllocation::field_write(alloc, elem, val) };
                        Ok(())
                    }
                    Err(e) => Err(e),
                }
            }
            Err(e) => Err(e),
        }
    }};
}

/// Element `i` of the array at `array`, or [`EINVAL`] if `i` is out of range. For
/// [`dma_write!`](crate::dma_write).
#[doc(hidden)]
#[inline]
pub fn array_element<E, const N: usize>(array: *mut [E; N], i: usize) -> Result<*mut E> {
    if i >= N {
        return Err(EINVAL);
    }
    // `wrapping_add` keeps this free of `unsafe`: for an in-range `i` the result is the element
    // the caller's (unsafe) projection guarantees to exist.
    Ok(array.cast::<E>().wrapping_add(i))
}
