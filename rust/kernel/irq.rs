// SPDX-License-Identifier: GPL-2.0

//! Interrupt handlers.
//!
//! C header: [`include/linux/interrupt.h`](srctree/include/linux/interrupt.h)
//!
//! A [`Registration`] requests an interrupt line for a [`Handler`] and frees it when dropped;
//! `free_irq` waits for a running handler to return, so once the registration is gone the
//! handler's data is no longer used.

use crate::bindings;
use crate::error::{to_result, Result};
use crate::str::CStr;
use crate::sync::Arc;
use core::ffi::{c_int, c_void};

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
    /// The line may be shared with other devices (`IRQF_SHARED`).
    pub const SHARED: usize = crate::bindings::IRQF_SHARED as usize;
}

/// An interrupt handler. Runs in hard-IRQ context: no sleeping, keep it short.
pub trait Handler: Send + Sync + 'static {
    /// Handles an interrupt on the line.
    fn handle_irq(&self) -> IrqReturn;
}

/// A requested interrupt line, freed on drop.
///
/// # Invariants
///
/// `irq` was requested with `request_irq` with `dev_id == Arc::as_ptr(&self.data)` and the
/// trampoline for `T`; it stays requested until `drop`, and `data` keeps the handler alive until
/// then.
pub struct Registration<T: Handler> {
    irq: u32,
    data: Arc<T>,
}

impl<T: Handler> Registration<T> {
    /// Requests `irq` for `data` with `flags` (see [`flags`]); `name` shows in
    /// `/proc/interrupts`.
    pub fn new(irq: u32, flags: usize, name: &'static CStr, data: Arc<T>) -> Result<Self> {
        let dev_id = (&*data as *const T).cast_mut().cast::<c_void>();
        // SAFETY: `handler::<T>` only dereferences `dev_id` as `&T`, which `data` keeps alive
        // until `free_irq` in `drop` has returned; `name` is `'static`.
        to_result(unsafe {
            bindings::request_threaded_irq(
                irq,
                Some(handler::<T>),
                None,
                flags as _,
                name.as_char_ptr(),
                dev_id,
            )
        })?;
        // INVARIANT: requested just above with this `dev_id`.
        Ok(Self { irq, data })
    }

    /// The interrupt line.
    pub fn irq(&self) -> u32 {
        self.irq
    }
}

impl<T: Handler> Drop for Registration<T> {
    fn drop(&mut self) {
        // SAFETY: requested with this `dev_id` (type invariant); `free_irq` waits for a running
        // handler, after which `data` may go.
        unsafe { bindings::free_irq(self.irq, (&*self.data as *const T).cast_mut().cast()) };
    }
}

/// The C callback; see the function-pointer field it is installed in.
///
/// # Safety
///
/// Called only by the C core, with arguments that are valid, as that callback's C
/// documentation promises, for the duration of the call.
unsafe extern "C" fn handler<T: Handler>(
    _irq: c_int,
    dev_id: *mut c_void,
) -> bindings::irqreturn_t {
    // SAFETY: `dev_id` is the `Arc<T>` pointer registered in `Registration::new`, alive until
    // the line is freed.
    let data = unsafe { &*(dev_id as *const T) };
    data.handle_irq().into_raw()
}
