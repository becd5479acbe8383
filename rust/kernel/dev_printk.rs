// SPDX-License-Identifier: GPL-2.0

//! Printing with a device's name as prefix (`dev_info()` and friends).
//!
//! C header: [`include/linux/dev_printk.h`](srctree/include/linux/dev_printk.h)
//!
//! # Compared with upstream
//!
//! As upstream's `dev_printk!` family (Linux 6.13 `device.rs`), in a file of its own; takes any
//! `AsRef<Device>`, so bus devices in every context print directly.

use crate::{bindings, device::Device, str::CStr};
use core::fmt;

/// Log levels for [`Device::printk`], as the C `KERN_*` strings.
pub mod level {
    use crate::{c_str, str::CStr};
    /// `KERN_ERR`.
    pub const ERR: &CStr = c_str!("\x013");
    /// `KERN_WARNING`.
    pub const WARNING: &CStr = c_str!("\x014");
    /// `KERN_NOTICE`.
    pub const NOTICE: &CStr = c_str!("\x015");
    /// `KERN_INFO`.
    pub const INFO: &CStr = c_str!("\x016");
    /// `KERN_DEBUG`.
    pub const DEBUG: &CStr = c_str!("\x017");
}

impl Device {
    /// Prints `args` at `level`, prefixed with the driver and device names.
    ///
    /// Prefer the [`dev_info!`](crate::dev_info) family of macros.
    pub fn printk(&self, level: &CStr, args: fmt::Arguments<'_>) {
        // SAFETY: `self` is a valid device; the format string is NUL-terminated and its single
        // `%pA` consumes exactly one `fmt::Arguments` pointer, which lives across the call.
        unsafe {
            bindings::_dev_printk(
                level.as_char_ptr(),
                self.as_raw(),
                c_str_pa().as_char_ptr(),
                &args as *const _ as *const core::ffi::c_void,
            )
        };
    }
}

fn c_str_pa() -> &'static CStr {
    crate::c_str!("%pA")
}

/// Prints an error message prefixed with a device's name: `dev_err!(dev, "fmt", args...)`.
///
/// # Examples
///
/// ```
/// # fn f(dev: &kernel::device::Device) {
/// kernel::dev_err!(dev, "bad EEPROM checksum {:#06x}\n", 0x1234);
/// # }
/// ```
#[macro_export]
macro_rules! dev_err {
    ($dev:expr, $($arg:tt)*) => {
        $crate::device::Device::printk(
            ::core::convert::AsRef::<$crate::device::Device>::as_ref($dev),
            $crate::dev_printk::level::ERR,
            ::core::format_args!($($arg)*),
        )
    };
}

/// Prints a warning prefixed with a device's name.
#[macro_export]
macro_rules! dev_warn {
    ($dev:expr, $($arg:tt)*) => {
        $crate::device::Device::printk(
            ::core::convert::AsRef::<$crate::device::Device>::as_ref($dev),
            $crate::dev_printk::level::WARNING,
            ::core::format_args!($($arg)*),
        )
    };
}

/// Prints a notice prefixed with a device's name.
#[macro_export]
macro_rules! dev_notice {
    ($dev:expr, $($arg:tt)*) => {
        $crate::device::Device::printk(
            ::core::convert::AsRef::<$crate::device::Device>::as_ref($dev),
            $crate::dev_printk::level::NOTICE,
            ::core::format_args!($($arg)*),
        )
    };
}

/// Prints an informational message prefixed with a device's name.
#[macro_export]
macro_rules! dev_info {
    ($dev:expr, $($arg:tt)*) => {
        $crate::device::Device::printk(
            ::core::convert::AsRef::<$crate::device::Device>::as_ref($dev),
            $crate::dev_printk::level::INFO,
            ::core::format_args!($($arg)*),
        )
    };
}
