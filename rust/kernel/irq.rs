// SPDX-License-Identifier: GPL-2.0

//! Interrupt handlers.
//!
//! C header: [`include/linux/interrupt.h`](srctree/include/linux/interrupt.h)
//!
//! A [`Registration`] requests an interrupt line for a [`Handler`] and frees it when dropped,
//! or when the device it was requested for is unbound, whichever comes first: the line is held
//! in a [`Devres`]. It is pinned, because the C side keeps a pointer to the handler, and it can
//! only be made from an [`IrqRequest`], which only a bound device gives out, for one of its own
//! interrupts.
//!
//! # Compared with upstream
//!
//! The shape is upstream's (Linux 6.17-6.18 `irq/request.rs`): `IrqRequest` from a bound
//! device, a pinned `Registration` whose inner part lives in a `Devres`, `free_irq` waiting for
//! a running handler. Differences: no threaded handlers (nothing here needs them), `Flags` has
//! only `SHARED`, and [`Registration::new_named`] lets a class abstraction name the line after
//! a string it owns (a network interface's name, as C network drivers do) instead of a
//! `'static` one.

use crate::bindings;
use crate::device::{Bound, Device};
use crate::devres::Devres;
use crate::error::{to_result, Error, Result};
use crate::ffi::c_char;
use crate::init::{pin_init_from_closure, PinInit};
use crate::str::CStr;
use core::ffi::{c_int, c_void};
use core::marker::PhantomPinned;

/// What a handler did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IrqReturn {
    /// The interrupt was not from this device (shared lines).
    None,
    /// The interrupt was handled.
    Handled,
}

impl IrqReturn {
    /// The C `irqreturn_t` value.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::irq::IrqReturn;
    ///
    /// assert_eq!(IrqReturn::None.into_raw(), 0);
    /// assert_eq!(IrqReturn::Handled.into_raw(), 1);
    /// ```
    pub fn into_raw(self) -> bindings::irqreturn_t {
        match self {
            IrqReturn::None => bindings::irqreturn_IRQ_NONE,
            IrqReturn::Handled => bindings::irqreturn_IRQ_HANDLED,
        }
    }
}

/// Flags for [`Registration::new`].
pub mod flags {
    /// Request flags (`IRQF_*`).
    #[derive(Clone, Copy, PartialEq, Eq)]
    pub struct Flags(pub(crate) usize);

    /// The line may be shared with other devices (`IRQF_SHARED`).
    pub const SHARED: Flags = Flags(crate::bindings::IRQF_SHARED as usize);
}

/// An interrupt handler. Runs in hard-IRQ context: no sleeping, keep it short.
pub trait Handler: Sync {
    /// Handles an interrupt on the line.
    fn handle(&self) -> IrqReturn;
}

/// An interrupt line of a bound device, not yet requested.
///
/// # Invariants
///
/// `irq` is an interrupt line of `dev`, and `dev` is bound for `'a`.
pub struct IrqRequest<'a> {
    dev: &'a Device<Bound>,
    irq: u32,
}

impl<'a> IrqRequest<'a> {
    /// A request for line `irq` of `dev`.
    ///
    /// # Safety
    ///
    /// `irq` must be an interrupt line of `dev` (bus abstractions know which).
    pub(crate) unsafe fn new(dev: &'a Device<Bound>, irq: u32) -> Self {
        // INVARIANT: the caller vouches for `irq`; `dev` is bound by its type.
        Self { dev, irq }
    }

    /// The line number.
    pub fn irq(&self) -> u32 {
        self.irq
    }
}

/// The requested line, freed on drop.
///
/// # Invariants
///
/// `irq` was requested with `cookie` as `dev_id`, and stays requested until `drop`.
struct RegistrationInner {
    irq: u32,
    cookie: *mut c_void,
}

// SAFETY: the pointer is only an identifier handed back to `free_irq`, callable on any thread.
unsafe impl Send for RegistrationInner {}
// SAFETY: `&RegistrationInner` allows nothing but reading two plain values.
unsafe impl Sync for RegistrationInner {}

impl Drop for RegistrationInner {
    fn drop(&mut self) {
        // SAFETY: requested with this cookie (type invariant); `free_irq` waits for a running
        // handler to return, so the handler the cookie points to is unused afterwards.
        unsafe { bindings::free_irq(self.irq, self.cookie) };
    }
}

/// A handler registered on an interrupt line.
///
/// # Invariants
///
/// While `inner` holds its line, the line is requested with `&handler` as `dev_id` and the
/// trampoline for `T`; `inner` is dropped (freeing the line, which waits for a running handler)
/// before `handler`, and the whole is pinned, so the handler stays where the C side points.
///
/// # Examples
///
/// ```
/// use core::sync::atomic::{AtomicU32, Ordering};
/// use kernel::irq::{self, IrqRequest, IrqReturn, Registration};
///
/// struct Counter(AtomicU32);
///
/// impl irq::Handler for Counter {
///     fn handle(&self) -> IrqReturn {
///         self.0.fetch_add(1, Ordering::Relaxed);
///         IrqReturn::Handled
///     }
/// }
///
/// fn register(req: IrqRequest<'_>) -> Result<Pin<KBox<Registration<Counter>>>> {
///     KBox::pin_init(
///         Registration::new(
///             req,
///             irq::flags::SHARED,
///             kernel::c_str!("counter"),
///             Counter(AtomicU32::new(0)),
///         ),
///         GFP_KERNEL,
///     )
/// }
/// ```
pub struct Registration<T: Handler + 'static> {
    inner: Devres<RegistrationInner>,
    handler: T,
    _pin: PhantomPinned,
}

impl<T: Handler + 'static> Registration<T> {
    /// Requests `request`'s line for `handler`; `name` shows in `/proc/interrupts`.
    pub fn new<'a>(
        request: IrqRequest<'a>,
        flags: flags::Flags,
        name: &'static CStr,
        handler: impl PinInit<T, Error> + 'a,
    ) -> impl PinInit<Self, Error> + 'a {
        // SAFETY: a `'static` string is valid for as long as any registration.
        unsafe { Self::new_named(request, flags, name.as_char_ptr(), handler) }
    }

    /// Like [`Registration::new`], with the name given as a C string pointer.
    ///
    /// # Safety
    ///
    /// `name` must point to a NUL-terminated string that stays valid until the registration is
    /// dropped (the C side keeps the pointer for `/proc/interrupts`).
    pub unsafe fn new_named<'a>(
        request: IrqRequest<'a>,
        flags: flags::Flags,
        name: *const c_char,
        handler: impl PinInit<T, Error> + 'a,
    ) -> impl PinInit<Self, Error> + 'a {
        let init = move |slot: *mut Self| -> Result {
            // SAFETY: `slot` is valid for writes of a `Self` (`pin_init_from_closure`'s
            // contract); `addr_of_mut!` only computes a field address.
            let h = unsafe { core::ptr::addr_of_mut!((*slot).handler) };
            // SAFETY: `h` is valid, uninitialised, pinned memory for a `T`.
            unsafe { handler.__pinned_init(h) }?;
            let cookie = h.cast::<c_void>();
            // SAFETY: the trampoline matches `T`; `cookie` (the pinned handler) stays valid
            // until `free_irq` in `RegistrationInner::drop`, which runs before `handler` is
            // dropped (field order); `name` outlives the registration (the caller's guarantee).
            let ret = to_result(unsafe {
                bindings::request_threaded_irq(
                    request.irq,
                    Some(handle_callback::<T>),
                    None,
                    flags.0 as _,
                    name,
                    cookie,
                )
            });
            // INVARIANT: requested just above; if `Devres::new` fails it drops the inner part,
            // which frees the line again.
            let inner = ret.and_then(|()| {
                Devres::new(
                    request.dev,
                    RegistrationInner {
                        irq: request.irq,
                        cookie,
                    },
                    crate::alloc::flags::GFP_KERNEL,
                )
            });
            match inner {
                // SAFETY: `slot` is valid for writes (see above); the marker is zero-sized.
                Ok(d) => unsafe {
                    core::ptr::addr_of_mut!((*slot).inner).write(d);
                    core::ptr::addr_of_mut!((*slot)._pin).write(PhantomPinned);
                },
                Err(e) => {
                    // SAFETY: `h` was initialised above and nothing refers to it any more (the
                    // line, if requested, has been freed).
                    unsafe { core::ptr::drop_in_place(h) };
                    return Err(e);
                }
            }
            Ok(())
        };
        // SAFETY: on success `init` has initialised every field of `slot` (the handler in
        // place, never moved afterwards); on an error it has dropped what it initialised.
        unsafe { pin_init_from_closure(init) }
    }

    /// The handler.
    pub fn handler(&self) -> &T {
        &self.handler
    }

    /// Waits for a handler running on another CPU to return ([`ENODEV`] once the device is
    /// unbound and the line freed).
    ///
    /// [`ENODEV`]: crate::error::code::ENODEV
    pub fn synchronize(&self, dev: &Device<Bound>) -> Result {
        let inner = self.inner.access(dev)?;
        // SAFETY: the line is requested (type invariant of `RegistrationInner`).
        unsafe { bindings::synchronize_irq(inner.irq) };
        Ok(())
    }
}

/// The C callback; see the function-pointer field it is installed in.
///
/// # Safety
///
/// Called only by the C core, with arguments that are valid, as that callback's C
/// documentation promises, for the duration of the call.
unsafe extern "C" fn handle_callback<T: Handler>(
    _irq: c_int,
    dev_id: *mut c_void,
) -> bindings::irqreturn_t {
    // SAFETY: `dev_id` is the cookie of a `Registration<T>`: its pinned handler, valid until
    // the line is freed (type invariant), which waits for this call to return.
    let handler = unsafe { &*(dev_id as *const T) };
    handler.handle().into_raw()
}
