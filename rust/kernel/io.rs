// SPDX-License-Identifier: GPL-2.0

//! Memory-mapped I/O with bounds-checked, typed accessors.
//!
//! C header: [`include/asm-generic/io.h`](srctree/include/asm-generic/io.h)
//!
//! An [`Io`] is a view of a mapped register window. Accesses at offsets known at compile time are
//! checked at compile time ([`Io::read32`] fails the build if the offset is out of range or
//! misaligned); accesses at offsets computed at run time are checked at run time
//! ([`Io::try_read32`] returns [`EINVAL`]). Either way a driver cannot reach outside its mapping.
//!
//! Mappings are made by the bus (for PCI, [`crate::pci::Bar`]), which owns the mapping and hands
//! out `&Io`.
//!
//! # Compared with upstream
//!
//! As Linux 6.14's `io.rs`: `IoRaw` (address and length) and `Io<SIZE>` with `build_assert!`
//! checked fixed-offset accessors and `try_` run-time checked ones. Only the 8-, 16- and 32-bit
//! accessors the 8255x uses exist here (no 64-bit, no relaxed variants). As upstream, every access
//! calls the C helper of `readl()` and friends. [`IoBase`] (from [`Io::base`]) has no upstream
//! counterpart.

use crate::bindings;
use crate::build_assert;
use crate::error::{code::EINVAL, Result};
use core::marker::PhantomData;

/// The address and length of an I/O mapping, before anything vouches for it.
///
/// `SIZE` is the length that is known at compile time (accesses below it are checked when built);
/// `maxsize` is the real length, known at run time and at least `SIZE`.
pub struct IoRaw<const SIZE: usize = 0> {
    addr: usize,
    maxsize: usize,
}

impl<const SIZE: usize> IoRaw<SIZE> {
    /// Describes `maxsize` bytes at `addr`. Fails with [`EINVAL`] if `maxsize < SIZE`.
    pub fn new(addr: usize, maxsize: usize) -> Result<Self> {
        if maxsize < SIZE {
            return Err(EINVAL);
        }
        Ok(Self { addr, maxsize })
    }

    /// The start address.
    pub fn addr(&self) -> usize {
        self.addr
    }

    /// The length in bytes.
    pub fn maxsize(&self) -> usize {
        self.maxsize
    }
}

/// A register window: `SIZE` bytes known at compile time, [`Io::maxsize`] bytes at run time.
///
/// # Invariants
///
/// `self.0.addr` is the start of a valid MMIO mapping (or, for tests, of memory that may be
/// accessed with `read*`/`write*`) at least `self.0.maxsize` bytes long, and
/// `self.0.maxsize >= SIZE`. The mapping stays valid for as long as `&self` is.
///
/// # Examples
///
/// Ordinary memory behaves like a register block for `readl`/`writel` on x86, which lets this
/// example exercise the accessors without a device:
///
/// ```
/// use kernel::io::{Io, IoRaw};
///
/// let mut regs = [0u32; 4];
/// let raw = IoRaw::<16>::new(regs.as_mut_ptr() as usize, 16)?;
/// // SAFETY: `regs` is 16 bytes of memory that outlives `io`, and x86 `readl`/`writel` on RAM
/// // are plain volatile accesses.
/// let io = unsafe { Io::from_raw(&raw) };
///
/// io.write32(0x1234_5678, 4);
/// assert_eq!(io.read32(4), 0x1234_5678);
/// assert_eq!(io.read16(4), 0x5678);
/// assert_eq!(io.read8(7), 0x12);
///
/// // Offsets computed at run time are checked at run time.
/// assert!(io.try_read32(12).is_ok());
/// assert_eq!(io.try_read32(16), Err(kernel::error::code::EINVAL));
/// assert_eq!(io.try_read32(2), Err(kernel::error::code::EINVAL)); // misaligned
/// assert_eq!(io.try_write16(0, usize::MAX), Err(kernel::error::code::EINVAL));
/// # Ok::<(), Error>(())
/// ```
#[repr(transparent)]
pub struct Io<const SIZE: usize = 0>(IoRaw<SIZE>);

// The accessors add the offset with `wrapping_add`: the mapping does not wrap around the
// address space (type invariant) and the offset lies inside it, so the sum is the plain one, and
// no overflow check (and panic path) is paid on every register access.
macro_rules! define_accessors {
    ($read:ident, $try_read:ident, $write:ident, $try_write:ident, $ty:ty,
     $c_read:ident, $c_write:ident) => {
        /// Reads the register at `offset`, which is checked at compile time.
        #[inline]
        pub fn $read(&self, offset: usize) -> $ty {
            build_assert!(Self::offset_valid::<$ty>(offset, SIZE));
            // SAFETY: `offset` is aligned and `offset + size_of::<$ty>() <= SIZE <= maxsize`
            // (checked above), so by the type invariant the address lies inside the mapping.
            unsafe { bindings::$c_read(self.0.addr.wrapping_add(offset) as _) }
        }

        /// Reads the register at `offset`, checked at run time; [`EINVAL`] if out of range.
        #[inline]
        pub fn $try_read(&self, offset: usize) -> Result<$ty> {
            if !Self::offset_valid::<$ty>(offset, self.0.maxsize) {
                return Err(EINVAL);
            }
            // SAFETY: the check above keeps the access aligned and inside the mapping (type
            // invariant).
            Ok(unsafe { bindings::$c_read(self.0.addr.wrapping_add(offset) as _) })
        }

        /// Writes `value` to the register at `offset`, which is checked at compile time.
        #[inline]
        pub fn $write(&self, value: $ty, offset: usize) {
            build_assert!(Self::offset_valid::<$ty>(offset, SIZE));
            // SAFETY: as in the matching read: aligned and inside the mapping.
            unsafe { bindings::$c_write(value, self.0.addr.wrapping_add(offset) as _) }
        }

        /// Writes `value` to the register at `offset`, checked at run time.
        #[inline]
        pub fn $try_write(&self, value: $ty, offset: usize) -> Result {
            if !Self::offset_valid::<$ty>(offset, self.0.maxsize) {
                return Err(EINVAL);
            }
            // SAFETY: the check above keeps the access aligned and inside the mapping.
            unsafe { bindings::$c_write(value, self.0.addr.wrapping_add(offset) as _) };
            Ok(())
        }
    };
}

impl<const SIZE: usize> Io<SIZE> {
    /// Views `raw` as a register window.
    ///
    /// # Safety
    ///
    /// `raw` must describe a valid MMIO mapping (or memory that `read*`/`write*` may access) that
    /// stays valid for the lifetime `'a`.
    pub unsafe fn from_raw(raw: &IoRaw<SIZE>) -> &Self {
        // SAFETY: `Io` is a transparent wrapper of `IoRaw`; the caller vouches for the mapping,
        // which establishes the type invariant.
        unsafe { &*(raw as *const IoRaw<SIZE>).cast::<Self>() }
    }

    /// The mapping's length in bytes, known at run time.
    #[inline]
    pub fn maxsize(&self) -> usize {
        self.0.maxsize
    }

    /// The mapping's start address, for C calls that take a `void __iomem *`.
    #[inline]
    pub fn addr(&self) -> usize {
        self.0.addr
    }

    #[inline]
    const fn offset_valid<U>(offset: usize, size: usize) -> bool {
        let len = core::mem::size_of::<U>();
        if offset % len != 0 {
            return false;
        }
        match offset.checked_add(len) {
            Some(end) => end <= size,
            None => false,
        }
    }

    define_accessors!(read8, try_read8, write8, try_write8, u8, readb, writeb);
    define_accessors!(read16, try_read16, write16, try_write16, u16, readw, writew);
    define_accessors!(read32, try_read32, write32, try_write32, u32, readl, writel);

    /// The window's start address, held by value for a run of accesses (see [`IoBase`]).
    #[inline]
    pub fn base(&self) -> IoBase<'_, SIZE> {
        // INVARIANT: the start of this window's mapping, which stays valid while `self` is
        // borrowed, at least `maxsize >= SIZE` bytes long (`Io`'s invariant).
        IoBase {
            addr: self.0.addr,
            _p: PhantomData,
        }
    }
}

/// An [`Io`] window's start address, copied out of it for a run of register accesses.
///
/// Every access is a compiler barrier for memory (as C's `readb()` ... `writel()` are), so
/// through a `&Io` the window's address is loaded again from the `Io` after each one. An
/// `IoBase` holds the address itself, so a run of accesses (an interrupt handler's
/// acknowledge, mask and flush) keeps it in a register. It has the compile-time checked
/// accessors of [`Io`] (the offset aligned and below `SIZE`; no run-time checked `try_` ones:
/// it does not hold `maxsize`), and borrows the `Io`, so it lasts no longer than the mapping.
///
/// # Examples
///
/// ```
/// use kernel::io::{Io, IoRaw};
///
/// let mut regs = [0u32; 4];
/// let raw = IoRaw::<16>::new(regs.as_mut_ptr() as usize, 16)?;
/// // SAFETY: `regs` is 16 bytes of memory that outlives `io`, and x86 `read*`/`write*` on RAM
/// // are plain volatile accesses.
/// let io = unsafe { Io::from_raw(&raw) };
///
/// let base = io.base();
/// base.write8(0x5a, 1);
/// base.write32(0x0102_0304, 8);
/// assert_eq!(base.read8(1), 0x5a);
/// assert_eq!(io.read32(8), 0x0102_0304);
/// assert_eq!(base.read16(8), 0x0304);
/// # Ok::<(), Error>(())
/// ```
///
/// # Invariants
///
/// `addr` is the start of a valid MMIO mapping (or memory, as for [`Io`]) at least `SIZE` bytes
/// long that stays valid for `'a`.
#[derive(Clone, Copy)]
pub struct IoBase<'a, const SIZE: usize = 0> {
    addr: usize,
    _p: PhantomData<&'a Io<SIZE>>,
}

macro_rules! define_base_accessors {
    ($read:ident, $write:ident, $ty:ty, $c_read:ident, $c_write:ident) => {
        /// Reads the register at `offset`, which is checked at compile time.
        #[inline]
        pub fn $read(self, offset: usize) -> $ty {
            build_assert!(Io::<SIZE>::offset_valid::<$ty>(offset, SIZE));
            // SAFETY: `offset` is aligned and `offset + size_of::<$ty>() <= SIZE` (checked
            // above), so by the type invariant the address lies inside the mapping.
            unsafe { bindings::$c_read(self.addr.wrapping_add(offset) as _) }
        }

        /// Writes `value` to the register at `offset`, which is checked at compile time.
        #[inline]
        pub fn $write(self, value: $ty, offset: usize) {
            build_assert!(Io::<SIZE>::offset_valid::<$ty>(offset, SIZE));
            // SAFETY: as in the matching read: aligned and inside the mapping.
            unsafe { bindings::$c_write(value, self.addr.wrapping_add(offset) as _) }
        }
    };
}

impl<const SIZE: usize> IoBase<'_, SIZE> {
    define_base_accessors!(read8, write8, u8, readb, writeb);
    define_base_accessors!(read16, write16, u16, readw, writew);
    define_base_accessors!(read32, write32, u32, readl, writel);
}
