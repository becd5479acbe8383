// SPDX-License-Identifier: GPL-2.0

//! `ethtool` operations (`struct ethtool_ops`).
//!
//! C header: [`include/linux/ethtool.h`](srctree/include/linux/ethtool.h)
//!
//! Implemented on the same per-device state as [`dev::Operations`](super::dev::Operations); the
//! table is installed by [`dev::Registration`](super::dev::Registration). All callbacks run in
//! process context with RTNL held.
//!
//! The `ethtool -S` names are one `'static` table, [`Operations::STATS`]: the abstraction
//! answers the core's count and name queries from it and hands `get_ethtool_stats` a slice of
//! exactly its length, so count, names and values cannot disagree.
//!
//! # Compared with upstream
//!
//! Upstream Rust has no `ethtool_ops` abstraction as of Linux 6.18; this one is ours.

use super::dev::{Device, Operations as NetdevOperations, Registration};
use crate::bindings;
use crate::error::{code::EOPNOTSUPP, from_result, Result};
use crate::ffi::c_char;
use crate::macros::vtable;
use crate::str::CStr;
use core::ffi::c_int;
use core::marker::PhantomData;

/// Driver information for `ethtool -i` (`struct ethtool_drvinfo`).
#[repr(transparent)]
pub struct DrvInfo(bindings::ethtool_drvinfo);

fn copy_cstr(dst: &mut [c_char], src: &CStr) {
    let Some(room) = dst.len().checked_sub(1) else {
        return;
    };
    let n = src.len().min(room);
    for (d, s) in dst.iter_mut().zip(src.as_bytes()[..n].iter()) {
        *d = *s as c_char;
    }
    dst[n] = 0;
}

impl DrvInfo {
    /// Sets the driver name (truncated to fit).
    pub fn set_driver(&mut self, s: &CStr) {
        copy_cstr(&mut self.0.driver, s);
    }

    /// Sets the driver version.
    pub fn set_version(&mut self, s: &CStr) {
        copy_cstr(&mut self.0.version, s);
    }

    /// Sets the firmware version.
    pub fn set_fw_version(&mut self, s: &CStr) {
        copy_cstr(&mut self.0.fw_version, s);
    }

    /// Sets the bus address (`0000:00:03.0`).
    pub fn set_bus_info(&mut self, s: &CStr) {
        copy_cstr(&mut self.0.bus_info, s);
    }
}

/// The size of one string slot (`ETH_GSTRING_LEN`, NUL included).
pub const STRING_LEN: usize = bindings::ETH_GSTRING_LEN as usize;

/// Copies `names` into `data`, one NUL-padded [`STRING_LEN`]-byte slot each (truncated to fit).
///
/// # Examples
///
/// ```
/// use kernel::net::ethtool::{fill_strings, STRING_LEN};
///
/// let mut buf = [0xffu8; 2 * STRING_LEN];
/// fill_strings(&mut buf, &["rx_packets", "tx_packets"]);
/// assert_eq!(&buf[..11], b"rx_packets\0");
/// assert_eq!(&buf[STRING_LEN..STRING_LEN + 10], b"tx_packets");
/// assert!(buf[STRING_LEN + 10..].iter().all(|b| *b == 0));
/// ```
pub fn fill_strings(data: &mut [u8], names: &[&str]) {
    for (slot, name) in data.chunks_exact_mut(STRING_LEN).zip(names) {
        slot.fill(0);
        let n = name.len().min(STRING_LEN - 1);
        slot[..n].copy_from_slice(&name.as_bytes()[..n]);
    }
}

/// The IEEE 802.3 MAC statistics group (`ethtool -S DEV --groups eth-mac`). Counters a driver
/// does not set are not reported.
#[repr(transparent)]
pub struct EthMacStats(bindings::ethtool_eth_mac_stats);

macro_rules! mac_stat_setters {
    ($($set:ident => $field:ident),* $(,)?) => {
        impl EthMacStats {
            fn fields(&mut self) -> &mut bindings::ethtool_eth_mac_stats__bindgen_ty_1__bindgen_ty_1 {
                // SAFETY: both union members are the same `u64` fields (a `struct_group`), so
                // either view is valid for any contents.
                unsafe { &mut self.0.__bindgen_anon_1.__bindgen_anon_1 }
            }
            $(
                #[doc = concat!("Sets `", stringify!($field), "`.")]
                pub fn $set(&mut self, v: u64) {
                    self.fields().$field = v;
                }
            )*
        }
    };
}

mac_stat_setters! {
    set_frames_transmitted_ok => FramesTransmittedOK,
    set_single_collision_frames => SingleCollisionFrames,
    set_multiple_collision_frames => MultipleCollisionFrames,
    set_frames_received_ok => FramesReceivedOK,
    set_frame_check_sequence_errors => FrameCheckSequenceErrors,
    set_alignment_errors => AlignmentErrors,
    set_frames_with_deferred_xmissions => FramesWithDeferredXmissions,
    set_late_collisions => LateCollisions,
    set_frames_aborted_due_to_xs_colls => FramesAbortedDueToXSColls,
    set_frames_lost_due_to_int_mac_xmit_error => FramesLostDueToIntMACXmitError,
    set_carrier_sense_errors => CarrierSenseErrors,
    set_frames_lost_due_to_int_mac_rcv_error => FramesLostDueToIntMACRcvError,
}

/// ethtool operations. Every one is optional; the core answers `EOPNOTSUPP` for missing ones.
#[vtable]
pub trait Operations: NetdevOperations {
    /// `ethtool -i`.
    fn get_drvinfo(&self, _dev: &Device, _info: &mut DrvInfo) {}

    /// Link state as the driver sees it.
    fn get_link(&self, _dev: &Device) -> bool {
        false
    }

    /// The EEPROM's size in bytes (`ethtool -e`); 0 if there is none.
    fn get_eeprom_len(&self, _dev: &Device) -> usize {
        0
    }

    /// The `ethtool -S` names, in order (each shorter than [`STRING_LEN`]). Empty: no
    /// `ethtool -S`.
    const STATS: &'static [&'static str] = &[];

    /// Fills the `ethtool -S` values: `data` has exactly one slot per name in
    /// [`Operations::STATS`], in that order.
    fn get_ethtool_stats(&self, _dev: &Device, _data: &mut [u64]) {}

    /// Fills the IEEE 802.3 MAC statistics.
    fn get_eth_mac_stats(&self, _dev: &Device, _stats: &mut EthMacStats) {}

    /// Reads `data.len()` bytes of the EEPROM from byte `offset` (checked by the core to lie
    /// within [`Operations::get_eeprom_len`]) and returns the magic number to report.
    fn get_eeprom(&self, _dev: &Device, _offset: usize, _data: &mut [u8]) -> Result<u32> {
        Err(EOPNOTSUPP)
    }
}

/// Builds the C table for `T`.
pub(crate) struct Adapter<T>(PhantomData<T>);

impl<T: Operations> Adapter<T> {
    const OPS: bindings::ethtool_ops = bindings::ethtool_ops {
        get_drvinfo: if T::HAS_GET_DRVINFO {
            Some(Self::get_drvinfo_callback)
        } else {
            None
        },
        get_link: if T::HAS_GET_LINK {
            Some(Self::get_link_callback)
        } else {
            None
        },
        get_eeprom_len: if T::HAS_GET_EEPROM_LEN {
            Some(Self::get_eeprom_len_callback)
        } else {
            None
        },
        get_sset_count: if !T::STATS.is_empty() {
            Some(Self::get_sset_count_callback)
        } else {
            None
        },
        get_strings: if !T::STATS.is_empty() {
            Some(Self::get_strings_callback)
        } else {
            None
        },
        get_ethtool_stats: if !T::STATS.is_empty() {
            Some(Self::get_ethtool_stats_callback)
        } else {
            None
        },
        get_eth_mac_stats: if T::HAS_GET_ETH_MAC_STATS {
            Some(Self::get_eth_mac_stats_callback)
        } else {
            None
        },
        get_eeprom: if T::HAS_GET_EEPROM {
            Some(Self::get_eeprom_callback)
        } else {
            None
        },
        // SAFETY: all-zero is a valid `ethtool_ops`: no capabilities, every callback `None`.
        ..unsafe { core::mem::zeroed() }
    };

    pub(crate) const fn build() -> &'static bindings::ethtool_ops {
        &Self::OPS
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn get_drvinfo_callback(
        dev: *mut bindings::net_device,
        info: *mut bindings::ethtool_drvinfo,
    ) {
        // SAFETY: the core passes one of our devices and an exclusive, zeroed `drvinfo`;
        // `DrvInfo` is a transparent wrapper of it.
        let (d, t, i) = unsafe {
            (
                Device::from_raw(dev),
                Registration::<T>::data(dev),
                &mut *info.cast::<DrvInfo>(),
            )
        };
        t.get_drvinfo(d, i);
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn get_sset_count_callback(
        _dev: *mut bindings::net_device,
        sset: c_int,
    ) -> c_int {
        match sset as u32 {
            // `STATS` is a constant table; its length fits (checked at compile time).
            bindings::ethtool_stringset_ETH_SS_STATS => Self::STATS_COUNT,
            _ => EOPNOTSUPP.to_errno(),
        }
    }

    /// The number of `-S` names, as the core's count type.
    const STATS_COUNT: c_int = {
        assert!(T::STATS.len() <= c_int::MAX as usize);
        T::STATS.len() as c_int
    };

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn get_strings_callback(
        _dev: *mut bindings::net_device,
        sset: u32,
        data: *mut u8,
    ) {
        if sset != bindings::ethtool_stringset_ETH_SS_STATS {
            return;
        }
        // SAFETY: the core passes a buffer of `STRING_LEN` bytes for each of the strings our
        // `get_sset_count` reported for this set, which is `STATS.len()`.
        let buf = unsafe { core::slice::from_raw_parts_mut(data, T::STATS.len() * STRING_LEN) };
        fill_strings(buf, T::STATS);
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn get_ethtool_stats_callback(
        dev: *mut bindings::net_device,
        _stats: *mut bindings::ethtool_stats,
        data: *mut u64,
    ) {
        // SAFETY: the core passes one of our devices and one slot for each of the
        // `ETH_SS_STATS` strings our `get_sset_count` reported, which is `STATS.len()`.
        let (d, t) = unsafe { (Device::from_raw(dev), Registration::<T>::data(dev)) };
        // SAFETY: see above.
        let buf = unsafe { core::slice::from_raw_parts_mut(data, T::STATS.len()) };
        t.get_ethtool_stats(d, buf);
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn get_eth_mac_stats_callback(
        dev: *mut bindings::net_device,
        stats: *mut bindings::ethtool_eth_mac_stats,
    ) {
        // SAFETY: the core passes one of our devices and an exclusive statistics block;
        // `EthMacStats` is a transparent wrapper of it.
        let (d, t, s) = unsafe {
            (
                Device::from_raw(dev),
                Registration::<T>::data(dev),
                &mut *stats.cast::<EthMacStats>(),
            )
        };
        t.get_eth_mac_stats(d, s);
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn get_eeprom_len_callback(dev: *mut bindings::net_device) -> c_int {
        // SAFETY: the core passes one of our devices, valid across the call.
        let (d, t) = unsafe { (Device::from_raw(dev), Registration::<T>::data(dev)) };
        c_int::try_from(t.get_eeprom_len(d)).unwrap_or(0)
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn get_eeprom_callback(
        dev: *mut bindings::net_device,
        ee: *mut bindings::ethtool_eeprom,
        data: *mut u8,
    ) -> c_int {
        // SAFETY: the core passes one of our devices, an exclusive `ethtool_eeprom` request and a
        // buffer of `ee.len` bytes, after checking `offset + len` against `get_eeprom_len`.
        let (d, t, ee) = unsafe {
            (
                Device::from_raw(dev),
                Registration::<T>::data(dev),
                &mut *ee,
            )
        };
        // SAFETY: see above; `data` holds `ee.len` writable bytes.
        let buf = unsafe { core::slice::from_raw_parts_mut(data, ee.len as usize) };
        from_result(|| {
            ee.magic = t.get_eeprom(d, ee.offset as usize, buf)?;
            Ok(0)
        })
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn get_link_callback(dev: *mut bindings::net_device) -> u32 {
        // SAFETY: the core passes one of our devices, valid across the call.
        let (d, t) = unsafe { (Device::from_raw(dev), Registration::<T>::data(dev)) };
        t.get_link(d).into()
    }
}
