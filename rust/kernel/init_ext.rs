// SPDX-License-Identifier: GPL-2.0

//! Additions to [`kernel::init`](crate::init).
//!
//! # Compared with upstream
//!
//! Later kernels' `pin-init` crate has `pin_init_scope` with this meaning; 6.12's `init`
//! module does not.

use crate::init::{pin_init_from_closure, PinInit};

/// An initialiser that first runs `f`, which may do fallible work before returning the
/// initialiser to run; an error from either ends the initialisation.
///
/// This lets a `probe` that returns `impl PinInit<Self, Error>` be written as ordinary
/// sequential code ending in `Ok(Self { ... })` (a value is an initialiser of itself).
///
/// # Examples
///
/// ```
/// use kernel::init_ext::pin_init_scope;
///
/// fn make(n: u32) -> impl PinInit<u32, Error> {
///     pin_init_scope(move || {
///         let doubled = n.checked_mul(2).ok_or(EINVAL)?;
///         Ok::<_, Error>(doubled)
///     })
/// }
///
/// assert_eq!(*KBox::pin_init(make(21), GFP_KERNEL)?, 42);
/// assert!(KBox::pin_init(make(u32::MAX), GFP_KERNEL).is_err());
/// # Ok::<(), Error>(())
/// ```
pub fn pin_init_scope<T, E, I, F>(f: F) -> impl PinInit<T, E>
where
    F: FnOnce() -> Result<I, E>,
    I: PinInit<T, E>,
{
    // SAFETY: the closure initialises `slot` exactly when `f` and then the initialiser it
    // returns succeed, passing `slot` on unchanged; on an error the returned initialiser has
    // left `slot` uninitialised (its own contract), and `f` never touched it.
    unsafe { pin_init_from_closure(move |slot| f()?.__pinned_init(slot)) }
}
