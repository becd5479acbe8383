// SPDX-License-Identifier: GPL-2.0

//! A spinlock taken with local interrupts disabled: `spin_lock_irqsave`.
//!
//! C header: [`include/linux/spinlock.h`](srctree/include/linux/spinlock.h)
//!
//! Data that code in hard-interrupt context also locks needs it. A network driver's transmit
//! and NAPI poll are such code, though they normally run in softirq context: netpoll calls
//! them with interrupts disabled from wherever `printk` was called (netconsole), an interrupt
//! handler included. A CPU holding a plain spinlock in process or softirq context, interrupted
//! by such a `printk`, would spin on its own lock for ever. With [`SpinLockIrq`] no interrupt
//! can come on the CPU that holds the lock.
//!
//! Guards restore the interrupt state they found, so they must be dropped in the reverse order
//! of taking (as scoped guards are). Dropping an outer guard first would enable interrupts with
//! the inner lock still held (the deadlock above, which lockdep reports as an inconsistent lock
//! state), and the inner guard, dropped last, would leave them disabled: not memory-unsafe,
//! but wrong both times.
//!
//! On `PREEMPT_RT`, `spin_lock_irqsave` is a sleeping lock that leaves interrupts enabled, and
//! interrupt handlers run in threads there, so the same reasoning holds without disabling them.
//!
//! # Compared with upstream
//!
//! 6.12 has no interrupt-disabling lock in Rust. The `SpinLockIrq` proposed upstream is built on
//! a new counted `local_interrupt_disable` in C that makes any drop order right; this one is
//! `spin_lock_irqsave` with the saved flags in the guard, under the proposal's names
//! (`SpinLockIrq`, `new_spinlock_irq!`) so its users could move over unchanged.

use super::lock::{Backend, Lock};
use crate::bindings;

/// Creates a [`SpinLockIrq`] initialiser with the given name and a newly-created lock class.
///
/// It uses the name if one is given, otherwise it generates one based on the file name and line
/// number.
#[macro_export]
macro_rules! new_spinlock_irq {
    ($inner:expr $(, $name:literal)? $(,)?) => {
        $crate::sync::SpinLockIrq::new(
            $inner, $crate::optional_name!($($name)?), $crate::static_lock_class!())
    };
}
pub use new_spinlock_irq;

/// A spinlock whose holder runs with local interrupts disabled (`spin_lock_irqsave`).
///
/// # Examples
///
/// ```
/// use kernel::sync::{new_spinlock_irq, spinlock_irq::irqs_disabled, SpinLockIrq};
///
/// let count = KBox::pin_init(new_spinlock_irq!(0u32, "doctest"), GFP_KERNEL)?;
/// assert!(!irqs_disabled());
/// {
///     let mut n = count.lock();
///     // No interrupt can come on this CPU while the guard lives (on PREEMPT_RT the lock
///     // sleeps instead and interrupts stay on).
///     assert_eq!(irqs_disabled(), !cfg!(CONFIG_PREEMPT_RT));
///     *n += 1;
/// }
/// // The interrupt state the guard found is back.
/// assert!(!irqs_disabled());
/// assert_eq!(*count.lock(), 1);
/// # Ok::<(), Error>(())
/// ```
pub type SpinLockIrq<T> = Lock<T, SpinLockIrqBackend>;

/// A kind of [`Lock`] that takes a `spinlock_t` with `spin_lock_irqsave`.
pub struct SpinLockIrqBackend;

// SAFETY: the `spinlock_t` gives mutual exclusion; `unlock` restores the flags that the `lock`
// which made its guard saved, and the default `relock` takes the lock the same way as `lock`
// (saving fresh flags into the guard).
unsafe impl Backend for SpinLockIrqBackend {
    type State = bindings::spinlock_t;
    type GuardState = crate::ffi::c_ulong;

    unsafe fn init(
        ptr: *mut Self::State,
        name: *const crate::ffi::c_char,
        key: *mut bindings::lock_class_key,
    ) {
        // SAFETY: the caller guarantees `ptr` valid for writes and `name` and `key` valid for
        // reads for ever.
        unsafe { bindings::__spin_lock_init(ptr, name, key) }
    }

    #[inline]
    unsafe fn lock(ptr: *mut Self::State) -> Self::GuardState {
        // SAFETY: the caller guarantees `ptr` points at a lock `init` initialised.
        unsafe { lock_irqsave(ptr) }
    }

    #[inline]
    unsafe fn unlock(ptr: *mut Self::State, flags: &Self::GuardState) {
        // SAFETY: the caller owns the lock (its guard holds `flags`, saved when it was taken).
        unsafe { unlock_irqrestore(ptr, *flags) }
    }
}

/// Takes the initialised `spinlock_t` at `ptr` with local interrupts disabled
/// (`spin_lock_irqsave()`, through its helper); returns the interrupt state to give back to
/// [`unlock_irqrestore`].
///
/// # Safety
///
/// `ptr` points at an initialised `spinlock_t`.
#[inline]
unsafe fn lock_irqsave(ptr: *mut bindings::spinlock_t) -> crate::ffi::c_ulong {
    // SAFETY: the caller's guarantee.
    unsafe { bindings::spin_lock_irqsave(ptr) }
}

/// Releases the `spinlock_t` at `ptr`, restoring the interrupt state `flags`
/// (`spin_unlock_irqrestore()`, through its helper).
///
/// # Safety
///
/// The caller holds the lock, taken by [`lock_irqsave`], which returned `flags`.
#[inline]
unsafe fn unlock_irqrestore(ptr: *mut bindings::spinlock_t, flags: crate::ffi::c_ulong) {
    // SAFETY: the caller's guarantee.
    unsafe { bindings::spin_unlock_irqrestore(ptr, flags) }
}

/// Whether local interrupts are disabled on this CPU.
pub fn irqs_disabled() -> bool {
    // SAFETY: reads this CPU's interrupt flag; no preconditions.
    unsafe { bindings::irqs_disabled() }
}
