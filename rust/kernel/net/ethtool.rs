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

use super::dev::{Device, Operations as NetdevOperations, Registration, Rtnl};
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
            fn fields(
                &mut self,
            ) -> &mut bindings::ethtool_eth_mac_stats__bindgen_ty_1__bindgen_ty_1 {
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

/// Link modes, as the legacy 32-bit `SUPPORTED_*`/`ADVERTISED_*` masks of `ethtool` spell them
/// (bit *n* is `ETHTOOL_LINK_MODE_*_BIT` *n*; only modes below 32 exist here, which covers every
/// 10/100 PHY).
///
/// # Examples
///
/// ```
/// use kernel::net::ethtool::LinkModes;
///
/// let m = LinkModes::M100_FULL | LinkModes::PAUSE;
/// assert!(m.contains(LinkModes::M100_FULL));
/// assert!(!m.contains(LinkModes::M100_FULL | LinkModes::M10_HALF));
/// assert_eq!((m & !LinkModes::PAUSE), LinkModes::M100_FULL);
/// assert_eq!(LinkModes::M10_HALF.bits(), 1);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkModes(u32);

macro_rules! link_modes {
    ($($name:ident = $bit:ident),* $(,)?) => {
        impl LinkModes {
            $(
                #[doc = concat!("`", stringify!($bit), "`.")]
                pub const $name: LinkModes =
                    LinkModes(1 << bindings::$bit);
            )*
            /// Every mode this type can express.
            const ALL: u32 = 0 $(| (1 << bindings::$bit))*;
        }
    };
}

/// Wake-on-LAN events (`WAKE_*`, `include/uapi/linux/ethtool.h`), as `ethtool -s DEV wol`
/// spells them: `g` is [`WolOpts::MAGIC`], `d` is none.
///
/// # Examples
///
/// ```
/// use kernel::net::ethtool::WolOpts;
///
/// let supported = WolOpts::MAGIC;
/// assert!(supported.contains(WolOpts::MAGIC));
/// assert!(!supported.contains(WolOpts::MAGIC | WolOpts::PHY));
/// assert_eq!(WolOpts::NONE.bits(), 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WolOpts(u32);

impl WolOpts {
    /// No wake-up (`d`).
    pub const NONE: WolOpts = WolOpts(0);
    /// Link change (`p`).
    pub const PHY: WolOpts = WolOpts(bindings::WAKE_PHY);
    /// Unicast frames to the station (`u`).
    pub const UCAST: WolOpts = WolOpts(bindings::WAKE_UCAST);
    /// Multicast frames (`m`).
    pub const MCAST: WolOpts = WolOpts(bindings::WAKE_MCAST);
    /// Broadcast frames (`b`).
    pub const BCAST: WolOpts = WolOpts(bindings::WAKE_BCAST);
    /// ARP requests (`a`).
    pub const ARP: WolOpts = WolOpts(bindings::WAKE_ARP);
    /// Magic packets (`g`).
    pub const MAGIC: WolOpts = WolOpts(bindings::WAKE_MAGIC);

    /// The `WAKE_*` mask.
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Whether every event of `other` is in `self`.
    pub const fn contains(self, other: WolOpts) -> bool {
        self.0 & other.0 == other.0
    }

    /// From a `WAKE_*` mask as the user asked for it (any bits).
    pub const fn from_bits(bits: u32) -> WolOpts {
        WolOpts(bits)
    }
}

impl core::ops::BitOr for WolOpts {
    type Output = WolOpts;

    fn bitor(self, rhs: WolOpts) -> WolOpts {
        WolOpts(self.0 | rhs.0)
    }
}

link_modes! {
    M10_HALF = ethtool_link_mode_bit_indices_ETHTOOL_LINK_MODE_10baseT_Half_BIT,
    M10_FULL = ethtool_link_mode_bit_indices_ETHTOOL_LINK_MODE_10baseT_Full_BIT,
    M100_HALF = ethtool_link_mode_bit_indices_ETHTOOL_LINK_MODE_100baseT_Half_BIT,
    M100_FULL = ethtool_link_mode_bit_indices_ETHTOOL_LINK_MODE_100baseT_Full_BIT,
    AUTONEG = ethtool_link_mode_bit_indices_ETHTOOL_LINK_MODE_Autoneg_BIT,
    TP = ethtool_link_mode_bit_indices_ETHTOOL_LINK_MODE_TP_BIT,
    MII = ethtool_link_mode_bit_indices_ETHTOOL_LINK_MODE_MII_BIT,
    PAUSE = ethtool_link_mode_bit_indices_ETHTOOL_LINK_MODE_Pause_BIT,
    ASYM_PAUSE = ethtool_link_mode_bit_indices_ETHTOOL_LINK_MODE_Asym_Pause_BIT,
}

impl LinkModes {
    /// No mode.
    pub const NONE: LinkModes = LinkModes(0);

    /// The legacy mask.
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Whether every mode of `other` is in `self`.
    pub const fn contains(self, other: LinkModes) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether `self` and `other` share a mode.
    pub const fn intersects(self, other: LinkModes) -> bool {
        self.0 & other.0 != 0
    }

    /// Reads a kernel link-mode bitmap (a whole one, as `ethtool_link_ksettings` holds),
    /// keeping the modes this type expresses; `None` if the bitmap has any other mode set (a
    /// request this type cannot represent). C's `ethtool_convert_link_mode_to_legacy_u32()`.
    fn from_bitmap<const N: usize>(map: &[crate::ffi::c_ulong; N]) -> Option<LinkModes> {
        const { assert!(N * crate::ffi::c_ulong::BITS as usize >= LINK_MODE_BITS) };
        let mut legacy = 0u32;
        // SAFETY: `map` is a whole link-mode bitmap (at least the bits C reads, checked when
        // built); `legacy` is writable.
        let fits =
            unsafe { bindings::ethtool_convert_link_mode_to_legacy_u32(&mut legacy, map.as_ptr()) };
        (fits && legacy & !Self::ALL == 0).then_some(LinkModes(legacy))
    }

    /// Writes `self` as a kernel link-mode bitmap (every other mode clear): C's
    /// `ethtool_convert_legacy_u32_to_link_mode()`.
    fn to_bitmap<const N: usize>(self, map: &mut [crate::ffi::c_ulong; N]) {
        const { assert!(N * crate::ffi::c_ulong::BITS as usize >= LINK_MODE_BITS) };
        // SAFETY: as in `from_bitmap`, writable.
        unsafe { bindings::ethtool_convert_legacy_u32_to_link_mode(map.as_mut_ptr(), self.0) };
    }
}

/// Bits in a kernel link-mode bitmap (`__ETHTOOL_LINK_MODE_MASK_NBITS`).
const LINK_MODE_BITS: usize =
    bindings::ethtool_link_mode_bit_indices___ETHTOOL_LINK_MODE_MASK_NBITS as usize;

impl core::ops::BitOr for LinkModes {
    type Output = LinkModes;
    fn bitor(self, o: LinkModes) -> LinkModes {
        LinkModes(self.0 | o.0)
    }
}

impl core::ops::BitAnd for LinkModes {
    type Output = LinkModes;
    fn bitand(self, o: LinkModes) -> LinkModes {
        LinkModes(self.0 & o.0)
    }
}

impl core::ops::Not for LinkModes {
    type Output = LinkModes;
    fn not(self) -> LinkModes {
        LinkModes(!self.0 & Self::ALL)
    }
}

/// Duplex of a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Duplex {
    /// Half duplex.
    Half,
    /// Full duplex.
    Full,
    /// Not known (no link).
    Unknown,
}

/// Link settings (`struct ethtool_link_ksettings`): what `ethtool DEV` shows and
/// `ethtool -s` asks for.
///
/// # Examples
///
/// ```
/// use kernel::net::ethtool::{Duplex, LinkKsettings, LinkModes};
///
/// let mut k = LinkKsettings::new();
/// k.set_speed(Some(100));
/// k.set_duplex(Duplex::Full);
/// k.set_autoneg(true);
/// k.set_advertising(LinkModes::M100_FULL | LinkModes::AUTONEG);
/// assert_eq!(k.speed(), Some(100));
/// assert_eq!(k.duplex(), Duplex::Full);
/// assert!(k.autoneg());
/// assert_eq!(k.advertising(), Some(LinkModes::M100_FULL | LinkModes::AUTONEG));
/// k.set_speed(None);
/// assert_eq!(k.speed(), None);
/// assert_eq!(k.mii_port(), None);
/// k.set_mii_port(1);
/// assert_eq!(k.mii_port(), Some(1));
/// ```
#[repr(transparent)]
pub struct LinkKsettings(bindings::ethtool_link_ksettings);

impl Default for LinkKsettings {
    fn default() -> Self {
        Self::new()
    }
}

impl LinkKsettings {
    /// Empty settings: unknown speed and duplex, no modes.
    pub fn new() -> Self {
        let mut k = LinkKsettings(bindings::ethtool_link_ksettings::default());
        k.set_speed(None);
        k.set_duplex(Duplex::Unknown);
        k
    }

    /// The speed in Mb/s; `None` when unknown.
    pub fn speed(&self) -> Option<u32> {
        let s = self.0.base.speed;
        (s != bindings::SPEED_UNKNOWN as u32 && s != 0).then_some(s)
    }

    /// Sets the speed in Mb/s (`None`: unknown).
    pub fn set_speed(&mut self, mbps: Option<u32>) {
        self.0.base.speed = mbps.unwrap_or(bindings::SPEED_UNKNOWN as u32);
    }

    /// The duplex.
    pub fn duplex(&self) -> Duplex {
        match u32::from(self.0.base.duplex) {
            bindings::DUPLEX_HALF => Duplex::Half,
            bindings::DUPLEX_FULL => Duplex::Full,
            _ => Duplex::Unknown,
        }
    }

    /// Sets the duplex.
    pub fn set_duplex(&mut self, d: Duplex) {
        self.0.base.duplex = match d {
            Duplex::Half => bindings::DUPLEX_HALF,
            Duplex::Full => bindings::DUPLEX_FULL,
            Duplex::Unknown => bindings::DUPLEX_UNKNOWN,
        } as u8;
    }

    /// Whether autonegotiation is (to be) on.
    pub fn autoneg(&self) -> bool {
        u32::from(self.0.base.autoneg) == bindings::AUTONEG_ENABLE
    }

    /// Sets autonegotiation on or off.
    pub fn set_autoneg(&mut self, on: bool) {
        self.0.base.autoneg = if on {
            bindings::AUTONEG_ENABLE
        } else {
            bindings::AUTONEG_DISABLE
        } as u8;
    }

    /// Reports an MII port with an internal transceiver at MDI address `addr`.
    pub fn set_mii_port(&mut self, addr: u8) {
        self.0.base.port = bindings::PORT_MII as u8;
        self.0.base.transceiver = bindings::XCVR_INTERNAL as u8;
        self.0.base.phy_address = addr;
    }

    /// The MII PHY address a request names, if the port it names is MII (`None` for any other
    /// port: a request a driver with only an MII PHY refuses).
    pub fn mii_port(&self) -> Option<u8> {
        (u32::from(self.0.base.port) == bindings::PORT_MII).then_some(self.0.base.phy_address)
    }

    /// Reports the MDI/MDI-X state: `Some(true)` crossed, `Some(false)` straight, `None`
    /// unknown.
    pub fn set_mdix(&mut self, crossed: Option<bool>) {
        self.0.base.eth_tp_mdix = match crossed {
            Some(true) => bindings::ETH_TP_MDI_X,
            Some(false) => bindings::ETH_TP_MDI,
            None => bindings::ETH_TP_MDI_INVALID,
        } as u8;
    }

    /// The MDI/MDI-X setting a request asks for (`ethtool -s mdix`): `None` if it asks for
    /// none, `Some(None)` for automatic crossover, `Some(Some(crossed))` for a forced one.
    pub fn mdix_request(&self) -> Option<Option<bool>> {
        match u32::from(self.0.base.eth_tp_mdix_ctrl) {
            bindings::ETH_TP_MDI_AUTO => Some(None),
            bindings::ETH_TP_MDI => Some(Some(false)),
            bindings::ETH_TP_MDI_X => Some(Some(true)),
            _ => None,
        }
    }

    /// The modes supported.
    pub fn supported(&self) -> Option<LinkModes> {
        LinkModes::from_bitmap(&self.0.link_modes.supported)
    }

    /// Sets the modes supported.
    pub fn set_supported(&mut self, m: LinkModes) {
        m.to_bitmap(&mut self.0.link_modes.supported);
    }

    /// The modes (to be) advertised; `None` if the request names a mode [`LinkModes`] cannot
    /// express (no 10/100 PHY has it).
    pub fn advertising(&self) -> Option<LinkModes> {
        LinkModes::from_bitmap(&self.0.link_modes.advertising)
    }

    /// Sets the modes advertised.
    pub fn set_advertising(&mut self, m: LinkModes) {
        m.to_bitmap(&mut self.0.link_modes.advertising);
    }

    /// Sets the modes the link partner advertised.
    pub fn set_lp_advertising(&mut self, m: LinkModes) {
        m.to_bitmap(&mut self.0.link_modes.lp_advertising);
    }
}

/// Pause (IEEE 802.3x flow control) settings (`struct ethtool_pauseparam`): `ethtool -a`/`-A`.
///
/// # Examples
///
/// ```
/// use kernel::net::ethtool::PauseParam;
///
/// let p = PauseParam::new(true, true, false);
/// assert!(p.autoneg() && p.rx() && !p.tx());
/// ```
#[repr(transparent)]
pub struct PauseParam(bindings::ethtool_pauseparam);

impl PauseParam {
    /// Settings with pause autonegotiation, receive and transmit pause as given.
    pub fn new(autoneg: bool, rx: bool, tx: bool) -> Self {
        PauseParam(bindings::ethtool_pauseparam {
            cmd: 0,
            autoneg: autoneg.into(),
            rx_pause: rx.into(),
            tx_pause: tx.into(),
        })
    }

    /// Whether pause is (to be) autonegotiated.
    pub fn autoneg(&self) -> bool {
        self.0.autoneg != 0
    }

    /// Whether PAUSE frames received are (to be) obeyed.
    pub fn rx(&self) -> bool {
        self.0.rx_pause != 0
    }

    /// Whether PAUSE frames are (to be) sent.
    pub fn tx(&self) -> bool {
        self.0.tx_pause != 0
    }

    /// Sets all three.
    pub fn set(&mut self, autoneg: bool, rx: bool, tx: bool) {
        self.0.autoneg = autoneg.into();
        self.0.rx_pause = rx.into();
        self.0.tx_pause = tx.into();
    }
}

/// The pause frame counters (`ethtool -S DEV --groups pause`, `ethtool -I -a DEV`).
#[repr(transparent)]
pub struct PauseStats(bindings::ethtool_pause_stats);

impl PauseStats {
    fn fields(&mut self) -> &mut bindings::ethtool_pause_stats__bindgen_ty_1__bindgen_ty_1 {
        // SAFETY: both union members are the same `u64` fields (a `struct_group`), so either
        // view is valid for any contents.
        unsafe { &mut self.0.__bindgen_anon_1.__bindgen_anon_1 }
    }

    /// Sets the number of PAUSE frames sent.
    pub fn set_tx_pause_frames(&mut self, v: u64) {
        self.fields().tx_pause_frames = v;
    }

    /// Sets the number of PAUSE frames received.
    pub fn set_rx_pause_frames(&mut self, v: u64) {
        self.fields().rx_pause_frames = v;
    }
}

/// The IEEE 802.3 MAC control statistics (`ethtool -S DEV --groups eth-ctrl`).
#[repr(transparent)]
pub struct EthCtrlStats(bindings::ethtool_eth_ctrl_stats);

impl EthCtrlStats {
    fn fields(&mut self) -> &mut bindings::ethtool_eth_ctrl_stats__bindgen_ty_1__bindgen_ty_1 {
        // SAFETY: both union members are the same `u64` fields (a `struct_group`), so either
        // view is valid for any contents.
        unsafe { &mut self.0.__bindgen_anon_1.__bindgen_anon_1 }
    }

    /// Sets `MACControlFramesTransmitted`.
    pub fn set_mac_control_frames_transmitted(&mut self, v: u64) {
        self.fields().MACControlFramesTransmitted = v;
    }

    /// Sets `MACControlFramesReceived`.
    pub fn set_mac_control_frames_received(&mut self, v: u64) {
        self.fields().MACControlFramesReceived = v;
    }

    /// Sets `UnsupportedOpcodesReceived`.
    pub fn set_unsupported_opcodes_received(&mut self, v: u64) {
        self.fields().UnsupportedOpcodesReceived = v;
    }
}

/// Descriptor ring sizes (`struct ethtool_ringparam`): `ethtool -g`/`-G`. Only the receive and
/// transmit rings; the core rejects a request above the maximums the driver reported.
///
/// # Examples
///
/// ```
/// use kernel::net::ethtool::RingParam;
///
/// let mut r = RingParam::new();
/// r.set_max(256, 256);
/// r.set_pending(256, 128);
/// assert_eq!(r.pending(), (256, 128));
/// ```
#[repr(transparent)]
pub struct RingParam(bindings::ethtool_ringparam);

impl Default for RingParam {
    fn default() -> Self {
        Self::new()
    }
}

impl RingParam {
    /// All zero.
    pub fn new() -> Self {
        RingParam(bindings::ethtool_ringparam::default())
    }

    /// Sets the largest receive and transmit rings.
    pub fn set_max(&mut self, rx: u32, tx: u32) {
        self.0.rx_max_pending = rx;
        self.0.tx_max_pending = tx;
    }

    /// Sets the current receive and transmit ring sizes.
    pub fn set_pending(&mut self, rx: u32, tx: u32) {
        self.0.rx_pending = rx;
        self.0.tx_pending = tx;
    }

    /// The (requested) receive and transmit ring sizes.
    pub fn pending(&self) -> (u32, u32) {
        (self.0.rx_pending, self.0.tx_pending)
    }

    /// Whether the request touches the mini or jumbo rings (which no driver here has).
    pub fn has_other_rings(&self) -> bool {
        self.0.rx_mini_pending != 0 || self.0.rx_jumbo_pending != 0
    }
}

/// What `ethtool -p` asks of the identification LED.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhysId {
    /// Start: return the blink rate (on/off cycles per second) for the core to drive, or 0 if
    /// the driver blinks by itself.
    Active,
    /// LED on.
    On,
    /// LED off.
    Off,
    /// Stop: restore normal LED operation.
    Inactive,
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

    /// The driver takes software transmit timestamps (it maps every frame it hands to the
    /// device with [`TxSlots::map`](super::skbuff::TxSlots::map), which takes them): `ethtool
    /// -T` then reports them, with the core's own software receive timestamps
    /// (`ethtool_op_get_ts_info`).
    const SOFTWARE_TX_TIMESTAMPS: bool = false;

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

    /// Fills the link settings (`ethtool DEV`).
    fn get_link_ksettings(&self, _dev: &Device, _k: &mut LinkKsettings) -> Result {
        Err(EOPNOTSUPP)
    }

    /// Applies link settings (`ethtool -s`). Invalid requests fail with `EINVAL` and change
    /// nothing.
    fn set_link_ksettings(&self, _dev: &Device, _k: &LinkKsettings) -> Result {
        Err(EOPNOTSUPP)
    }

    /// Restarts autonegotiation (`ethtool -r`).
    fn nway_reset(&self, _dev: &Device) -> Result {
        Err(EOPNOTSUPP)
    }

    /// Fills the pause settings (`ethtool -a`).
    fn get_pauseparam(&self, _dev: &Device, _p: &mut PauseParam) {}

    /// Applies pause settings (`ethtool -A`).
    fn set_pauseparam(&self, _dev: &Device, _p: &PauseParam) -> Result {
        Err(EOPNOTSUPP)
    }

    /// Fills the pause frame counters.
    fn get_pause_stats(&self, _dev: &Device, _s: &mut PauseStats) {}

    /// Fills the MAC control counters.
    fn get_eth_ctrl_stats(&self, _dev: &Device, _s: &mut EthCtrlStats) {}

    /// Wake-on-LAN: the events the device can wake on, and those enabled (`ethtool DEV`).
    fn get_wol(&self, _dev: &Device) -> (WolOpts, WolOpts) {
        (WolOpts::NONE, WolOpts::NONE)
    }

    /// Enables wake-up on exactly `opts` (`ethtool -s DEV wol ...`). The core calls it only for
    /// events within what [`Operations::get_wol`] reports supported (it refuses others with
    /// `EINVAL`), and only for a change.
    fn set_wol(&self, _dev: &Device, _opts: WolOpts) -> Result {
        Err(EOPNOTSUPP)
    }

    /// The `netif_msg` message level (`ethtool DEV`, `ethtool -s DEV msglvl`).
    fn get_msglevel(&self, _dev: &Device) -> u32 {
        0
    }

    /// Sets the message level.
    fn set_msglevel(&self, _dev: &Device, _level: u32) {}

    /// Fills the ring sizes and their maximums (`ethtool -g`).
    fn get_ringparam(&self, _dev: &Device, _r: &mut RingParam) {}

    /// Resizes the rings (`ethtool -G`); the core has checked the request against the
    /// maximums. Called with RTNL held (`rtnl`), so the driver can quiesce the device.
    fn set_ringparam(&self, _dev: &Device, _r: &RingParam, _rtnl: &Rtnl) -> Result {
        Err(EOPNOTSUPP)
    }

    /// The size of the register dump in bytes (`ethtool -d`); 0: no dump.
    fn get_regs_len(&self, _dev: &Device) -> usize {
        0
    }

    /// Fills the register dump (`data` is zeroed, at most [`Operations::get_regs_len`] bytes)
    /// and returns its version word.
    fn get_regs(&self, _dev: &Device, _data: &mut [u8]) -> u32 {
        0
    }

    /// Writes `data` to the EEPROM at byte `offset` (checked by the core to lie within
    /// [`Operations::get_eeprom_len`]) if `magic` is the driver's (`ethtool -E`).
    fn set_eeprom(&self, _dev: &Device, _magic: u32, _offset: usize, _data: &[u8]) -> Result {
        Err(EOPNOTSUPP)
    }

    /// The self-test names (`ethtool -t`), in order. Empty: no self-test.
    const TESTS: &'static [&'static str] = &[];

    /// Runs the self-tests (`offline`: the ones that interrupt traffic too) and stores one
    /// result per name in [`Operations::TESTS`] in `results` (0: pass). Returns whether all
    /// passed. Called with RTNL held (`rtnl`).
    fn self_test(&self, _dev: &Device, _offline: bool, _results: &mut [u64], _rtnl: &Rtnl) -> bool {
        false
    }

    /// Drives the identification LED (`ethtool -p`). For [`PhysId::Active`], returns the blink
    /// rate for the core to drive (or 0 if the driver blinks by itself).
    fn set_phys_id(&self, _dev: &Device, _state: PhysId) -> Result<u32> {
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
        get_link_ksettings: if T::HAS_GET_LINK_KSETTINGS {
            Some(Self::get_link_ksettings_callback)
        } else {
            None
        },
        set_link_ksettings: if T::HAS_SET_LINK_KSETTINGS {
            Some(Self::set_link_ksettings_callback)
        } else {
            None
        },
        nway_reset: if T::HAS_NWAY_RESET {
            Some(Self::nway_reset_callback)
        } else {
            None
        },
        get_pauseparam: if T::HAS_GET_PAUSEPARAM {
            Some(Self::get_pauseparam_callback)
        } else {
            None
        },
        set_pauseparam: if T::HAS_SET_PAUSEPARAM {
            Some(Self::set_pauseparam_callback)
        } else {
            None
        },
        get_pause_stats: if T::HAS_GET_PAUSE_STATS {
            Some(Self::get_pause_stats_callback)
        } else {
            None
        },
        get_eth_ctrl_stats: if T::HAS_GET_ETH_CTRL_STATS {
            Some(Self::get_eth_ctrl_stats_callback)
        } else {
            None
        },
        get_wol: if T::HAS_GET_WOL {
            Some(Self::get_wol_callback)
        } else {
            None
        },
        set_wol: if T::HAS_SET_WOL {
            Some(Self::set_wol_callback)
        } else {
            None
        },
        get_msglevel: if T::HAS_GET_MSGLEVEL {
            Some(Self::get_msglevel_callback)
        } else {
            None
        },
        set_msglevel: if T::HAS_SET_MSGLEVEL {
            Some(Self::set_msglevel_callback)
        } else {
            None
        },
        get_ringparam: if T::HAS_GET_RINGPARAM {
            Some(Self::get_ringparam_callback)
        } else {
            None
        },
        set_ringparam: if T::HAS_SET_RINGPARAM {
            Some(Self::set_ringparam_callback)
        } else {
            None
        },
        get_regs_len: if T::HAS_GET_REGS_LEN {
            Some(Self::get_regs_len_callback)
        } else {
            None
        },
        get_regs: if T::HAS_GET_REGS {
            Some(Self::get_regs_callback)
        } else {
            None
        },
        set_eeprom: if T::HAS_SET_EEPROM {
            Some(Self::set_eeprom_callback)
        } else {
            None
        },
        self_test: if !T::TESTS.is_empty() {
            Some(Self::self_test_callback)
        } else {
            None
        },
        set_phys_id: if T::HAS_SET_PHYS_ID {
            Some(Self::set_phys_id_callback)
        } else {
            None
        },
        get_sset_count: if !T::STATS.is_empty() || !T::TESTS.is_empty() {
            Some(Self::get_sset_count_callback)
        } else {
            None
        },
        get_strings: if !T::STATS.is_empty() || !T::TESTS.is_empty() {
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
        get_ts_info: if T::SOFTWARE_TX_TIMESTAMPS {
            Some(bindings::ethtool_op_get_ts_info)
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
                Registration::<T>::data_of(dev),
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
            bindings::ethtool_stringset_ETH_SS_STATS if !T::STATS.is_empty() => Self::STATS_COUNT,
            bindings::ethtool_stringset_ETH_SS_TEST if !T::TESTS.is_empty() => Self::TESTS_COUNT,
            _ => EOPNOTSUPP.to_errno(),
        }
    }

    /// The number of `-S` names, as the core's count type.
    const STATS_COUNT: c_int = {
        assert!(T::STATS.len() <= c_int::MAX as usize);
        T::STATS.len() as c_int
    };

    /// The number of `-t` names, as the core's count type.
    const TESTS_COUNT: c_int = {
        assert!(T::TESTS.len() <= c_int::MAX as usize);
        T::TESTS.len() as c_int
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
        let names = match sset {
            bindings::ethtool_stringset_ETH_SS_STATS => T::STATS,
            bindings::ethtool_stringset_ETH_SS_TEST => T::TESTS,
            _ => return,
        };
        // SAFETY: the core passes a buffer of `STRING_LEN` bytes for each of the strings our
        // `get_sset_count` reported for this set, which is `names.len()` (an empty table
        // reported `EOPNOTSUPP`, and the core asks for no strings then).
        let buf = unsafe { core::slice::from_raw_parts_mut(data, names.len() * STRING_LEN) };
        fill_strings(buf, names);
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
        let (d, t) = unsafe { (Device::from_raw(dev), Registration::<T>::data_of(dev)) };
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
                Registration::<T>::data_of(dev),
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
        let (d, t) = unsafe { (Device::from_raw(dev), Registration::<T>::data_of(dev)) };
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
                Registration::<T>::data_of(dev),
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
        let (d, t) = unsafe { (Device::from_raw(dev), Registration::<T>::data_of(dev)) };
        t.get_link(d).into()
    }

    /// Our device and its driver state.
    ///
    /// # Safety
    ///
    /// `dev` must be one of our devices (the core passes only those to our table), valid for
    /// `'a`.
    unsafe fn ctx<'a>(dev: *mut bindings::net_device) -> (&'a Device, &'a T) {
        // SAFETY: the caller's guarantee.
        unsafe { (Device::from_raw(dev), Registration::<T>::data_of(dev)) }
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn get_link_ksettings_callback(
        dev: *mut bindings::net_device,
        k: *mut bindings::ethtool_link_ksettings,
    ) -> c_int {
        // SAFETY: the core passes one of our devices and an exclusive, zeroed settings block;
        // `LinkKsettings` is a transparent wrapper of it.
        let ((d, t), k) = unsafe { (Self::ctx(dev), &mut *k.cast::<LinkKsettings>()) };
        // Zero would read as 0 Mb/s half duplex: unknown until the driver says otherwise.
        k.set_speed(None);
        k.set_duplex(Duplex::Unknown);
        from_result(|| t.get_link_ksettings(d, k).map(|()| 0))
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn set_link_ksettings_callback(
        dev: *mut bindings::net_device,
        k: *const bindings::ethtool_link_ksettings,
    ) -> c_int {
        // SAFETY: the core passes one of our devices and a settings block it does not change
        // during the call; `LinkKsettings` is a transparent wrapper of it.
        let ((d, t), k) = unsafe { (Self::ctx(dev), &*k.cast::<LinkKsettings>()) };
        from_result(|| t.set_link_ksettings(d, k).map(|()| 0))
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn nway_reset_callback(dev: *mut bindings::net_device) -> c_int {
        // SAFETY: the core passes one of our devices, valid across the call.
        let (d, t) = unsafe { Self::ctx(dev) };
        from_result(|| t.nway_reset(d).map(|()| 0))
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn get_pauseparam_callback(
        dev: *mut bindings::net_device,
        p: *mut bindings::ethtool_pauseparam,
    ) {
        // SAFETY: the core passes one of our devices and an exclusive pause block;
        // `PauseParam` is a transparent wrapper of it.
        let ((d, t), p) = unsafe { (Self::ctx(dev), &mut *p.cast::<PauseParam>()) };
        t.get_pauseparam(d, p);
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn set_pauseparam_callback(
        dev: *mut bindings::net_device,
        p: *mut bindings::ethtool_pauseparam,
    ) -> c_int {
        // SAFETY: the core passes one of our devices and a pause block valid across the call;
        // `PauseParam` is a transparent wrapper of it.
        let ((d, t), p) = unsafe { (Self::ctx(dev), &*p.cast::<PauseParam>()) };
        from_result(|| t.set_pauseparam(d, p).map(|()| 0))
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn get_pause_stats_callback(
        dev: *mut bindings::net_device,
        s: *mut bindings::ethtool_pause_stats,
    ) {
        // SAFETY: the core passes one of our devices and an exclusive statistics block;
        // `PauseStats` is a transparent wrapper of it.
        let ((d, t), s) = unsafe { (Self::ctx(dev), &mut *s.cast::<PauseStats>()) };
        t.get_pause_stats(d, s);
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn get_eth_ctrl_stats_callback(
        dev: *mut bindings::net_device,
        s: *mut bindings::ethtool_eth_ctrl_stats,
    ) {
        // SAFETY: the core passes one of our devices and an exclusive statistics block;
        // `EthCtrlStats` is a transparent wrapper of it.
        let ((d, t), s) = unsafe { (Self::ctx(dev), &mut *s.cast::<EthCtrlStats>()) };
        t.get_eth_ctrl_stats(d, s);
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn get_wol_callback(
        dev: *mut bindings::net_device,
        wol: *mut bindings::ethtool_wolinfo,
    ) {
        // SAFETY: the core passes one of our devices and a zeroed block, both valid across the
        // call, and the block not shared.
        let ((d, t), wol) = unsafe { (Self::ctx(dev), &mut *wol) };
        let (supported, enabled) = t.get_wol(d);
        wol.supported = supported.bits();
        wol.wolopts = enabled.bits();
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn set_wol_callback(
        dev: *mut bindings::net_device,
        wol: *mut bindings::ethtool_wolinfo,
    ) -> c_int {
        // SAFETY: the core passes one of our devices and the request, both valid across the
        // call.
        let ((d, t), wol) = unsafe { (Self::ctx(dev), &*wol) };
        from_result(|| t.set_wol(d, WolOpts::from_bits(wol.wolopts)).map(|()| 0))
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn get_msglevel_callback(dev: *mut bindings::net_device) -> u32 {
        // SAFETY: the core passes one of our devices, valid across the call.
        let (d, t) = unsafe { Self::ctx(dev) };
        t.get_msglevel(d)
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn set_msglevel_callback(dev: *mut bindings::net_device, level: u32) {
        // SAFETY: the core passes one of our devices, valid across the call.
        let (d, t) = unsafe { Self::ctx(dev) };
        t.set_msglevel(d, level);
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn get_ringparam_callback(
        dev: *mut bindings::net_device,
        r: *mut bindings::ethtool_ringparam,
        _kr: *mut bindings::kernel_ethtool_ringparam,
        _extack: *mut bindings::netlink_ext_ack,
    ) {
        // SAFETY: the core passes one of our devices and an exclusive ring block;
        // `RingParam` is a transparent wrapper of it.
        let ((d, t), r) = unsafe { (Self::ctx(dev), &mut *r.cast::<RingParam>()) };
        t.get_ringparam(d, r);
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn set_ringparam_callback(
        dev: *mut bindings::net_device,
        r: *mut bindings::ethtool_ringparam,
        _kr: *mut bindings::kernel_ethtool_ringparam,
        _extack: *mut bindings::netlink_ext_ack,
    ) -> c_int {
        // SAFETY: the core passes one of our devices and a ring block valid across the call;
        // `RingParam` is a transparent wrapper of it.
        let ((d, t), r) = unsafe { (Self::ctx(dev), &*r.cast::<RingParam>()) };
        // SAFETY: the core calls `set_ringparam` with RTNL held (both the ioctl and the netlink
        // paths), for the whole call; the proof does not outlive it.
        let rtnl = unsafe { Rtnl::assume_held() };
        from_result(|| t.set_ringparam(d, r, &rtnl).map(|()| 0))
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn get_regs_len_callback(dev: *mut bindings::net_device) -> c_int {
        // SAFETY: the core passes one of our devices, valid across the call.
        let (d, t) = unsafe { Self::ctx(dev) };
        c_int::try_from(t.get_regs_len(d)).unwrap_or(0)
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn get_regs_callback(
        dev: *mut bindings::net_device,
        regs: *mut bindings::ethtool_regs,
        data: *mut core::ffi::c_void,
    ) {
        // SAFETY: the core passes one of our devices and an exclusive `ethtool_regs` whose
        // `len` it has clamped to our `get_regs_len`, the size of the zeroed buffer `data`.
        let ((d, t), regs) = unsafe { (Self::ctx(dev), &mut *regs) };
        // SAFETY: see above; `data` holds at least `regs.len` writable bytes.
        let buf = unsafe { core::slice::from_raw_parts_mut(data.cast::<u8>(), regs.len as usize) };
        regs.version = t.get_regs(d, buf);
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn set_eeprom_callback(
        dev: *mut bindings::net_device,
        ee: *mut bindings::ethtool_eeprom,
        data: *mut u8,
    ) -> c_int {
        // SAFETY: the core passes one of our devices, an `ethtool_eeprom` request and a buffer
        // of `ee.len` bytes, after checking `offset + len` against `get_eeprom_len`.
        let ((d, t), ee) = unsafe { (Self::ctx(dev), &*ee) };
        // SAFETY: see above; `data` holds `ee.len` readable bytes.
        let buf = unsafe { core::slice::from_raw_parts(data, ee.len as usize) };
        from_result(|| {
            t.set_eeprom(d, ee.magic, ee.offset as usize, buf)?;
            Ok(0)
        })
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn self_test_callback(
        dev: *mut bindings::net_device,
        test: *mut bindings::ethtool_test,
        data: *mut u64,
    ) {
        // SAFETY: the core passes one of our devices, an exclusive `ethtool_test` and one
        // result slot for each of the `ETH_SS_TEST` strings our `get_sset_count` reported,
        // which is `TESTS.len()`.
        let ((d, t), test) = unsafe { (Self::ctx(dev), &mut *test) };
        // SAFETY: see above.
        let buf = unsafe { core::slice::from_raw_parts_mut(data, T::TESTS.len()) };
        let offline = test.flags & bindings::ethtool_test_flags_ETH_TEST_FL_OFFLINE != 0;
        // SAFETY: the core calls `self_test` with RTNL held (6.12 has only the ioctl path,
        // `ethtool_self_test` under `dev_ethtool`'s RTNL), for the whole call; the proof does not
        // outlive it.
        let rtnl = unsafe { Rtnl::assume_held() };
        if !t.self_test(d, offline, buf, &rtnl) {
            test.flags |= bindings::ethtool_test_flags_ETH_TEST_FL_FAILED;
        }
    }

    /// The C callback; see the function-pointer field it is installed in.
    ///
    /// # Safety
    ///
    /// Called only by the C core, with arguments that are valid, as that callback's C
    /// documentation promises, for the duration of the call.
    unsafe extern "C" fn set_phys_id_callback(
        dev: *mut bindings::net_device,
        state: bindings::ethtool_phys_id_state,
    ) -> c_int {
        // SAFETY: the core passes one of our devices, valid across the call.
        let (d, t) = unsafe { Self::ctx(dev) };
        let state = match state {
            bindings::ethtool_phys_id_state_ETHTOOL_ID_ACTIVE => PhysId::Active,
            bindings::ethtool_phys_id_state_ETHTOOL_ID_ON => PhysId::On,
            bindings::ethtool_phys_id_state_ETHTOOL_ID_OFF => PhysId::Off,
            _ => PhysId::Inactive,
        };
        from_result(|| {
            let rate = t.set_phys_id(d, state)?;
            Ok(c_int::try_from(rate).unwrap_or(c_int::MAX))
        })
    }
}
