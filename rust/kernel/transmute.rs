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
//! Upstream moved `FromBytes`/`AsBytes` from `types.rs` to `transmute.rs` (Linux 6.14); 6.12
//! has them in `types.rs`, and this file re-exports those same traits. Implementing them for a
//! structure takes an `unsafe impl` upstream; [`dma_struct!`](crate::dma_struct) proves both
//! properties at compile time instead.

pub use crate::types::{AsBytes, FromBytes};

/// Declares a `#[repr(C)]` structure of plain-data fields and implements [`FromBytes`] and
/// [`AsBytes`] for it, after proving at compile time that every field is itself both (which
/// also rules out interior mutability and types such as `bool` that reject some bit patterns)
/// and that the fields leave no padding.
///
/// Only doc comments may be given as attributes: a `#[repr(packed)]` (or any other attribute)
/// does not match the macro, since packing would misalign the fields the volatile DMA
/// accessors read. (`#[repr(C)]` without padding puts every field at an offset that is a
/// multiple of its alignment, so no further check is needed.)
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
        };

        // SAFETY: every field is `FromBytes` (checked above), so none has interior mutability,
        // and a `#[repr(C)]` structure without padding accepts every bit pattern its fields do.
        unsafe impl $crate::transmute::FromBytes for $name {}
        // SAFETY: every field is `AsBytes` (so none has interior mutability or uninitialised
        // bytes) and the size check above proves there is no padding.
        unsafe impl $crate::transmute::AsBytes for $name {}
    };
}
