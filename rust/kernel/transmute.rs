// SPDX-License-Identifier: GPL-2.0

//! Types that may be built from, and viewed as, raw bytes.
//!
//! Memory shared with a device is written by hardware that knows nothing of Rust's invariants;
//! only types for which every bit pattern is a valid value ([`FromBytes`]) and which have no
//! padding bytes ([`AsBytes`]) may live there. [`dma_struct!`](crate::dma_struct) declares such a
//! `#[repr(C)]` structure and proves both properties at compile time, so drivers never need
//! `unsafe impl`.
//!
//! # Compared with upstream
//!
//! Upstream's `FromBytes`/`AsBytes` (Linux 6.14 `transmute.rs`) are the same `unsafe` traits;
//! implementing them for a structure takes an `unsafe impl` there, and
//! [`dma_struct!`](crate::dma_struct) here proves both properties at compile time instead.

/// Every bit pattern is a valid value of the type.
///
/// # Safety
///
/// Implementers must guarantee that any initialised byte sequence of the type's size is a valid
/// value.
pub unsafe trait FromBytes {}

/// The type has no padding: all of its bytes are initialised in every value.
///
/// # Safety
///
/// Implementers must guarantee the type has no uninitialised (padding) bytes.
pub unsafe trait AsBytes {}

macro_rules! impl_pod {
    ($($t:ty),*) => {
        $(
            // SAFETY: integers accept every bit pattern and have no padding.
            unsafe impl FromBytes for $t {}
            // SAFETY: see above.
            unsafe impl AsBytes for $t {}
        )*
    };
}

impl_pod!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize);

// SAFETY: an array of `FromBytes` elements is `FromBytes`: arrays have no padding between
// elements and each element accepts every bit pattern.
unsafe impl<T: FromBytes, const N: usize> FromBytes for [T; N] {}
// SAFETY: arrays have no padding between elements; elements have none themselves.
unsafe impl<T: AsBytes, const N: usize> AsBytes for [T; N] {}

/// Declares a `#[repr(C)]` structure of plain-data fields and implements [`FromBytes`] and
/// [`AsBytes`] for it, after proving at compile time that every field is itself both, that the
/// fields leave no padding, and that each field is aligned for its type.
///
/// Only doc comments may be given as attributes: a `#[repr(packed)]` (or any other attribute)
/// does not match the macro, since packing would misalign the fields the volatile DMA
/// accessors read. The alignment check catches it even if it got through.
///
/// # Examples
///
/// ```
/// kernel::dma_struct! {
///     /// A receive descriptor header.
///     pub struct Rfd {
///         pub status: u16,
///         pub command: u16,
///         pub link: u32,
///     }
/// }
/// assert_eq!(core::mem::size_of::<Rfd>(), 8);
/// ```
///
/// A structure with padding, such as `struct Bad { a: u8, b: u32 }`, does not build: the
/// size check fails at compile time.
///
/// # Compared with upstream
///
/// Upstream (Linux 6.15 and later) has `FromBytes`/`AsBytes` as `unsafe` traits that drivers
/// implement themselves, justified by a comment; this macro proves the two properties
/// instead, so a driver needs no `unsafe impl`.
#[macro_export]
macro_rules! dma_struct {
    (
        $(#[doc = $doc:expr])*
        $vis:vis struct $name:ident {
            $( $(#[doc = $fdoc:expr])* $fvis:vis $field:ident : $fty:ty ),* $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        #[repr(C)]
        #[derive(Clone, Copy)]
        $vis struct $name {
            $( $(#[doc = $fdoc])* $fvis $field: $fty ),*
        }

        const _: () = {
            const fn assert_pod<T: $crate::transmute::FromBytes + $crate::transmute::AsBytes>() {}
            $( assert_pod::<$fty>(); )*
            ::core::assert!(
                ::core::mem::size_of::<$name>() == 0 $( + ::core::mem::size_of::<$fty>() )*,
                concat!(stringify!($name), " has padding")
            );
            $(
                ::core::assert!(
                    ::core::mem::offset_of!($name, $field) % ::core::mem::align_of::<$fty>() == 0,
                    concat!(stringify!($name), ".", stringify!($field), " is misaligned")
                );
            )*
        };

        // SAFETY: every field is `FromBytes` (checked above), and a `#[repr(C)]` structure
        // without padding accepts every bit pattern its fields do.
        unsafe impl $crate::transmute::FromBytes for $name {}
        // SAFETY: every field is `AsBytes` and the size check above proves there is no padding.
        unsafe impl $crate::transmute::AsBytes for $name {}
    };
}
