// SPDX-License-Identifier: GPL-2.0

//! A kernel spinlock.
//!
//! This module allows Rust code to use the kernel's `spinlock_t`.

/// Creates a [`SpinLock`] initialiser with the given name and a newly-created lock class.
///
/// It uses the name if one is given, otherwise it generates one based on the file name and line
/// number.
#[macro_export]
macro_rules! new_spinlock {
    ($inner:expr $(, $name:literal)? $(,)?) => {
        $crate::sync::SpinLock::new(
            $inner, $crate::optional_name!($($name)?), $crate::static_lock_class!())
    };
}
pub use new_spinlock;

/// A spinlock.
///
/// Exposes the kernel's [`spinlock_t`]. When multiple CPUs attempt to lock the same spinlock, only
/// one at a time is allowed to progress, the others will block (spinning) until the spinlock is
/// unlocked, at which point another CPU will be allowed to make progress.
///
/// Instances of [`SpinLock`] need a lock class and to be pinned. The recommended way to create such
/// instances is with the [`pin_init`](crate::pin_init) and [`new_spinlock`] macros.
///
/// # Examples
///
/// The following example shows how to declare, allocate and initialise a struct (`Example`) that
/// contains an inner struct (`Inner`) that is protected by a spinlock.
///
/// ```
/// use kernel::sync::{new_spinlock, SpinLock};
///
/// struct Inner {
///     a: u32,
///     b: u32,
/// }
///
/// #[pin_data]
/// struct Example {
///     c: u32,
///     #[pin]
///     d: SpinLock<Inner>,
/// }
///
/// impl Example {
///     fn new() -> impl PinInit<Self> {
///         pin_init!(Self {
///             c: 10,
///             d <- new_spinlock!(Inner { a: 20, b: 30 }),
///         })
///     }
/// }
///
/// // Allocate a boxed `Example`.
/// let e = KBox::pin_init(Example::new(), GFP_KERNEL)?;
/// assert_eq!(e.c, 10);
/// assert_eq!(e.d.lock().a, 20);
/// assert_eq!(e.d.lock().b, 30);
/// # Ok::<(), Error>(())
/// ```
///
/// The following example shows how to use interior mutability to modify the contents of a struct
/// protected by a spinlock despite only having a shared reference:
///
/// ```
/// use kernel::sync::SpinLock;
///
/// struct Example {
///     a: u32,
///     b: u32,
/// }
///
/// fn example(m: &SpinLock<Example>) {
///     let mut guard = m.lock();
///     guard.a += 10;
///     guard.b += 20;
/// }
/// ```
///
/// [`spinlock_t`]: srctree/include/linux/spinlock.h
pub type SpinLock<T> = super::Lock<T, SpinLockBackend>;

/// A kernel `spinlock_t` lock backend.
pub struct SpinLockBackend;

// SAFETY: The underlying kernel `spinlock_t` object ensures mutual exclusion. `relock` uses the
// default implementation that always calls the same locking method.
unsafe impl super::Backend for SpinLockBackend {
    type State = bindings::spinlock_t;
    type GuardState = ();

    unsafe fn init(
        ptr: *mut Self::State,
        name: *const crate::ffi::c_char,
        key: *mut bindings::lock_class_key,
    ) {
        // SAFETY: The safety requirements ensure that `ptr` is valid for writes, and `name` and
        // `key` are valid for read indefinitely.
        unsafe { bindings::__spin_lock_init(ptr, name, key) }
    }

    #[inline]
    unsafe fn lock(ptr: *mut Self::State) -> Self::GuardState {
        // SAFETY: The safety requirements of this function ensure that `ptr` points to valid
        // memory, and that it has been initialised before.
        unsafe { raw_lock(ptr) }
    }

    #[inline]
    unsafe fn unlock(ptr: *mut Self::State, _guard_state: &Self::GuardState) {
        // SAFETY: The safety requirements of this function ensure that `ptr` is valid and that the
        // caller is the owner of the spinlock.
        unsafe { raw_unlock(ptr) }
    }
}

// Without PREEMPT_RT (where a `spinlock_t` is a sleeping lock), `spin_lock()` and `spin_unlock()`
// are `_raw_spin_lock()` and `_raw_spin_unlock()` on the `raw_spinlock_t` in a `spinlock_t` (its
// union member `rlock`, at offset 0: see include/linux/spinlock_types.h and `spinlock_check()`).
// Those are exported functions with the SMP (or spinlock-debugging) implementation
// (include/linux/spinlock_api_smp.h), the lock where CONFIG_INLINE_SPIN_LOCK does not make it
// inline, the unlock where CONFIG_UNINLINE_SPIN_UNLOCK makes it a function
// (kernel/locking/spinlock.c). There they are called directly, sparing each lock or unlock a C
// helper call; otherwise the helpers are called. Bindgen declares the functions whatever the
// configuration: were these conditions ever to disagree with the C side's, the module would fail
// to link (modpost), not misbehave.

/// Takes the initialised `spinlock_t` at `ptr`.
///
/// # Safety
///
/// `ptr` points at an initialised `spinlock_t`.
#[cfg(all(
    not(CONFIG_PREEMPT_RT),
    any(CONFIG_SMP, CONFIG_DEBUG_SPINLOCK),
    not(CONFIG_INLINE_SPIN_LOCK)
))]
#[inline]
unsafe fn raw_lock(ptr: *mut bindings::spinlock_t) {
    // SAFETY: the caller's guarantee; without PREEMPT_RT the raw lock is the `spinlock_t`'s
    // union member `rlock`, at offset 0 (bindgen makes the type opaque: the layout is C's).
    unsafe { bindings::_raw_spin_lock(ptr.cast()) }
}

/// See above.
///
/// # Safety
///
/// `ptr` points at an initialised `spinlock_t`.
#[cfg(not(all(
    not(CONFIG_PREEMPT_RT),
    any(CONFIG_SMP, CONFIG_DEBUG_SPINLOCK),
    not(CONFIG_INLINE_SPIN_LOCK)
)))]
#[inline]
unsafe fn raw_lock(ptr: *mut bindings::spinlock_t) {
    // SAFETY: the caller's guarantee.
    unsafe { bindings::spin_lock(ptr) }
}

/// Releases the `spinlock_t` at `ptr`.
///
/// # Safety
///
/// The caller holds the lock.
#[cfg(all(
    not(CONFIG_PREEMPT_RT),
    any(CONFIG_SMP, CONFIG_DEBUG_SPINLOCK),
    CONFIG_UNINLINE_SPIN_UNLOCK
))]
#[inline]
unsafe fn raw_unlock(ptr: *mut bindings::spinlock_t) {
    // SAFETY: the caller's guarantee; the raw lock as in `raw_lock`.
    unsafe { bindings::_raw_spin_unlock(ptr.cast()) }
}

/// See above.
///
/// # Safety
///
/// The caller holds the lock.
#[cfg(not(all(
    not(CONFIG_PREEMPT_RT),
    any(CONFIG_SMP, CONFIG_DEBUG_SPINLOCK),
    CONFIG_UNINLINE_SPIN_UNLOCK
)))]
#[inline]
unsafe fn raw_unlock(ptr: *mut bindings::spinlock_t) {
    // SAFETY: the caller's guarantee.
    unsafe { bindings::spin_unlock(ptr) }
}
