// SPDX-License-Identifier: GPL-2.0

//! The firmware's DMI (SMBIOS) identity of the system.
//!
//! C header: [`include/linux/dmi.h`](srctree/include/linux/dmi.h)
//!
//! The usual kernel way to tell one platform from another (quirk tables match on it). Without
//! `CONFIG_DMI`, or on a system whose firmware has no DMI table, nothing matches.
//!
//! # Examples
//!
//! ```
//! use kernel::{c_str, dmi};
//!
//! // A system whose firmware says it is QEMU's (its SMBIOS type 1 manufacturer).
//! let on_qemu = dmi::matches(dmi::Field::SysVendor, c_str!("QEMU"));
//! # let _ = on_qemu;
//! ```
//!
//! # Compared with upstream
//!
//! Upstream (to 6.16) has no DMI abstraction. This offers `dmi_match()` for the four fields a
//! driver's quirk check usually reads; the C `dmi_system_id` tables are not wrapped. No C helper:
//! `dmi_match()` is exported, and without `CONFIG_DMI` the Rust side answers as the C stub does.

use crate::bindings;
use crate::str::CStr;

/// A DMI field (`enum dmi_field`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The BIOS vendor (SMBIOS type 0).
    BiosVendor,
    /// The system's manufacturer (SMBIOS type 1).
    SysVendor,
    /// The system's product name (SMBIOS type 1).
    ProductName,
    /// The board's manufacturer (SMBIOS type 2).
    BoardVendor,
}

impl Field {
    fn raw(self) -> bindings::dmi_field {
        match self {
            Field::BiosVendor => bindings::dmi_field_DMI_BIOS_VENDOR,
            Field::SysVendor => bindings::dmi_field_DMI_SYS_VENDOR,
            Field::ProductName => bindings::dmi_field_DMI_PRODUCT_NAME,
            Field::BoardVendor => bindings::dmi_field_DMI_BOARD_VENDOR,
        }
    }
}

/// Whether the firmware's DMI `field` is exactly `value`; `false` when the field is absent.
#[cfg(CONFIG_DMI)]
pub fn matches(field: Field, value: &CStr) -> bool {
    // SAFETY: `value` is a NUL-terminated string that lives across the call; `dmi_match` only
    // compares it with the (immutable after boot) DMI string of `field`.
    unsafe { bindings::dmi_match(field.raw(), value.as_char_ptr()) }
}

/// Whether the firmware's DMI `field` is exactly `value`: never, without `CONFIG_DMI` (as the C
/// stub of `dmi_match()` answers).
#[cfg(not(CONFIG_DMI))]
pub fn matches(field: Field, value: &CStr) -> bool {
    let _ = (field.raw(), value);
    false
}
