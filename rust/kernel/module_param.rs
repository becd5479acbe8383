// SPDX-License-Identifier: GPL-2.0

//! Module parameters (`module_param()` in C), for the types the C core already knows.
//!
//! C header: [`include/linux/moduleparam.h`](srctree/include/linux/moduleparam.h)
//!
//! [`module_param!`](crate::module_param) declares a read-only (mode 0444) parameter: the value is
//! set by `insmod`/the kernel command line before the module runs, then shown in
//! `/sys/module/<mod>/parameters/`. Being read-only after load, it needs no locking.
//!
//! # Examples
//!
//! ```
//! kernel::module_param!(DOCTEST_FLAG, doctest_flag, bool, false,
//!     "An example flag (doctest only)");
//! assert!(!DOCTEST_FLAG.get());
//! ```
//!
//! # Compared with upstream
//!
//! Linux 6.17 added module parameters to the `module!` macro; 6.12 has none. This declares a
//! read-only parameter of a type C already parses (`bool`, integers) with C's own `param_ops`,
//! as a static the module reads with `get()`.

use core::cell::UnsafeCell;

/// Storage for a module parameter of type `T`.
///
/// # Invariants
///
/// The value is written only by the kernel's parameter parser, before module code runs (or
/// before the built-in kernel's init calls run); afterwards it is read-only (mode 0444).
#[repr(transparent)]
pub struct Param<T: Copy>(UnsafeCell<T>);

// SAFETY: after load the value is never written (type invariant), so shared reads are safe.
unsafe impl<T: Copy + Sync> Sync for Param<T> {}

impl<T: Copy> Param<T> {
    /// A parameter whose default is `value`.
    pub const fn new(value: T) -> Self {
        Self(UnsafeCell::new(value))
    }

    /// The parameter's value.
    pub fn get(&self) -> T {
        // SAFETY: the cell is valid, and not written concurrently (type invariant).
        unsafe { core::ptr::read_volatile(self.0.get()) }
    }

    /// The address the C parser writes to.
    pub const fn as_ptr(&self) -> *mut T {
        self.0.get()
    }
}

/// A `struct kernel_param` placed in the `__param` section.
#[repr(transparent)]
pub struct KernelParam(pub crate::bindings::kernel_param);

// SAFETY: the C core reads the descriptor under its own locking; Rust never touches it.
unsafe impl Sync for KernelParam {}

/// Declares a read-only module parameter `$name` (shown to users as `$pname`) of C type `$ty`
/// (`bool`, `int` or `uint`) with default `$default` and description `$desc`.
#[macro_export]
macro_rules! module_param {
    ($name:ident, $pname:ident, bool, $default:expr, $desc:literal) => {
        $crate::module_param!(@imp $name, $pname, bool, bool, param_ops_bool, $default, $desc);
    };
    ($name:ident, $pname:ident, int, $default:expr, $desc:literal) => {
        $crate::module_param!(@imp $name, $pname, i32, int, param_ops_int, $default, $desc);
    };
    ($name:ident, $pname:ident, uint, $default:expr, $desc:literal) => {
        $crate::module_param!(@imp $name, $pname, u32, uint, param_ops_uint, $default, $desc);
    };
    (@imp $name:ident, $pname:ident, $rty:ty, $cty:ident, $ops:ident, $default:expr,
     $desc:literal) => {
        static $name: $crate::module_param::Param<$rty> =
            $crate::module_param::Param::new($default);

        const _: () = {
            #[cfg(MODULE)]
            extern "C" {
                static __this_module: $crate::bindings::module;
            }
            #[cfg(MODULE)]
            const NAME: &str = concat!(stringify!($pname), "\0");
            #[cfg(not(MODULE))]
            const NAME: &str = concat!(module_path!(), ".", stringify!($pname), "\0");

            #[link_section = "__param"]
            #[used(compiler)]
            static KP: $crate::module_param::KernelParam =
                $crate::module_param::KernelParam($crate::bindings::kernel_param {
                    name: NAME.as_ptr().cast(),
                    #[cfg(MODULE)]
                    mod_: (&raw const __this_module).cast_mut(),
                    #[cfg(not(MODULE))]
                    mod_: ::core::ptr::null_mut(),
                    ops: &raw const $crate::bindings::$ops,
                    perm: 0o444,
                    level: -1,
                    flags: 0,
                    __bindgen_anon_1: $crate::bindings::kernel_param__bindgen_ty_1 {
                        arg: $name.as_ptr().cast(),
                    },
                });

            #[cfg(MODULE)]
            #[link_section = ".modinfo"]
            #[used(compiler)]
            static PARMTYPE: [u8; concat!("parmtype=", stringify!($pname), ":",
                stringify!($cty), "\0").len()] = *$crate::module_param::as_array(
                concat!("parmtype=", stringify!($pname), ":", stringify!($cty), "\0"));

            #[cfg(MODULE)]
            #[link_section = ".modinfo"]
            #[used(compiler)]
            static PARM: [u8; concat!("parm=", stringify!($pname), ":", $desc, "\0").len()] =
                *$crate::module_param::as_array(
                    concat!("parm=", stringify!($pname), ":", $desc, "\0"));
        };
    };
}

/// Adds a `$tag=$value` entry to the module's `.modinfo` section (C's `MODULE_INFO()`), for the
/// tags 6.12's `module!` macro does not take, such as `version`; `modinfo` shows it. Use it at
/// the crate root: built into the kernel, the entry is prefixed with `module_path!()`, which
/// there is the module's name, as C prefixes `KBUILD_MODNAME` (`modules.builtin.modinfo`).
///
/// # Examples
///
/// ```
/// // In the doctests (built in), this adds "<doctest crate>.e100_rs_doctest=example" to
/// // vmlinux's built-in module information, and nothing else.
/// kernel::module_info!(e100_rs_doctest, "example");
/// ```
#[macro_export]
macro_rules! module_info {
    ($tag:ident, $value:literal) => {
        const _: () = {
            #[cfg(MODULE)]
            const ENTRY: &str = concat!(stringify!($tag), "=", $value, "\0");
            #[cfg(not(MODULE))]
            const ENTRY: &str = concat!(module_path!(), ".", stringify!($tag), "=", $value, "\0");

            #[link_section = ".modinfo"]
            #[used(compiler)]
            static INFO: [u8; ENTRY.len()] = *$crate::module_param::as_array(ENTRY);
        };
    };
}

/// Turns a string literal into a byte array of its exact length (for `.modinfo` entries).
#[doc(hidden)]
pub const fn as_array<const N: usize>(s: &str) -> &[u8; N] {
    match s.as_bytes().first_chunk::<N>() {
        Some(a) => a,
        None => panic!("length mismatch"),
    }
}
