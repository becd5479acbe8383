// SPDX-License-Identifier: GPL-2.0

//! Hardware statistics: the block the "dump and reset statistics" command writes, and the
//! running totals the driver keeps from it.
//!
//! The chip writes its counters, then a completion word (0xA007 after dump-and-reset). How many
//! counters it writes depends on the generation and on configuration: 16 words on the 82557
//! (completion at byte 64), 19 on the 82558 (76), 19 plus two 16-bit TCO counters on the 82559
//! and later (80). QEMU's i82559er fixes the length at reset from its default configuration and
//! writes the completion at byte 64 although it presents an 82559, which is why e100.c's counters
//! never update there. The driver expects the generation's layout; while no dump has confirmed
//! it, a completion at another layout's place is taken (once, with a warning) and kept.
//!
//! Kernel-independent (only `core` and [`Mac`]), covered by the host tests.

use crate::hw::Mac;
use core::sync::atomic::{AtomicU64, Ordering};

/// The completion word after a dump-and-reset.
pub(crate) const DUMP_RESET_COMPLETE: u32 = 0x0000_a007;

/// The statistics block: 21 32-bit words, the last possible completion word included.
pub(crate) const STATS_WORDS: usize = 21;

/// Where the completion word can be, in words, by layout.
const LAYOUTS: [usize; 3] = [16, 19, 20];

/// The counters of one dump (each counts since the previous dump-and-reset).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Dump {
    pub(crate) tx_good_frames: u32,
    pub(crate) tx_max_collisions: u32,
    pub(crate) tx_late_collisions: u32,
    pub(crate) tx_underruns: u32,
    pub(crate) tx_lost_crs: u32,
    pub(crate) tx_deferred: u32,
    pub(crate) tx_single_collisions: u32,
    pub(crate) tx_multiple_collisions: u32,
    pub(crate) tx_total_collisions: u32,
    pub(crate) rx_good_frames: u32,
    pub(crate) rx_crc_errors: u32,
    pub(crate) rx_alignment_errors: u32,
    pub(crate) rx_resource_errors: u32,
    pub(crate) rx_overrun_errors: u32,
    pub(crate) rx_cdt_errors: u32,
    pub(crate) rx_short_frame_errors: u32,
    pub(crate) fc_xmt_pause: u32,
    pub(crate) fc_rcv_pause: u32,
    pub(crate) fc_rcv_unsupported: u32,
    pub(crate) xmt_tco_frames: u16,
    pub(crate) rcv_tco_frames: u16,
}

/// Where the completion word of a dump by `mac` is, in words (as e100.c expects it).
pub(crate) fn layout_of(mac: Mac) -> usize {
    if mac >= Mac::M82559_D101M {
        20
    } else if mac >= Mac::M82558_D101_A4 {
        19
    } else {
        16
    }
}

/// Finds a finished dump's completion word: `Some(words before it)`. It is looked for at
/// `layout` (the generation's, or the one a dump has confirmed); until one is `confirmed`, also
/// at the other layouts' places, for a chip that is not what it says (QEMU). `done(n)` tells
/// whether word `n` holds the completion.
pub(crate) fn locate(
    layout: usize,
    confirmed: bool,
    done: impl Fn(usize) -> bool,
) -> Option<usize> {
    if layout < STATS_WORDS && done(layout) {
        return Some(layout);
    }
    if confirmed {
        return None;
    }
    LAYOUTS.into_iter().find(|&n| n != layout && done(n))
}

/// Decodes a completed dump of `n` counter words (from [`locate`]); counters the layout
/// does not have read as 0.
pub(crate) fn parse(words: &[u32; STATS_WORDS], n: usize) -> Dump {
    let w = |i: usize| if i < n { u32::from_le(words[i]) } else { 0 };
    let tco = w(19);
    Dump {
        tx_good_frames: w(0),
        tx_max_collisions: w(1),
        tx_late_collisions: w(2),
        tx_underruns: w(3),
        tx_lost_crs: w(4),
        tx_deferred: w(5),
        tx_single_collisions: w(6),
        tx_multiple_collisions: w(7),
        tx_total_collisions: w(8),
        rx_good_frames: w(9),
        rx_crc_errors: w(10),
        rx_alignment_errors: w(11),
        rx_resource_errors: w(12),
        rx_overrun_errors: w(13),
        rx_cdt_errors: w(14),
        rx_short_frame_errors: w(15),
        fc_xmt_pause: w(16),
        fc_rcv_pause: w(17),
        fc_rcv_unsupported: w(18),
        // Two little-endian 16-bit counters in one word.
        xmt_tco_frames: (tco & 0xffff) as u16,
        rcv_tco_frames: (tco >> 16) as u16,
    }
}

/// Running totals, in the order and with the meaning of e100.c's `ethtool -S` and
/// `net_device_stats` mapping.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Totals {
    pub(crate) tx_aborted_errors: u64,
    pub(crate) tx_window_errors: u64,
    pub(crate) tx_carrier_errors: u64,
    pub(crate) tx_fifo_errors: u64,
    pub(crate) collisions: u64,
    pub(crate) tx_errors: u64,
    pub(crate) rx_short_frame_errors: u64,
    pub(crate) rx_crc_errors: u64,
    pub(crate) rx_frame_errors: u64,
    pub(crate) rx_over_errors: u64,
    pub(crate) rx_fifo_errors: u64,
    pub(crate) rx_missed_errors: u64,
    pub(crate) rx_errors: u64,
    pub(crate) tx_deferred: u64,
    pub(crate) tx_single_collisions: u64,
    pub(crate) tx_multiple_collisions: u64,
    pub(crate) tx_fc_pause: u64,
    pub(crate) rx_fc_pause: u64,
    pub(crate) rx_fc_unsupported: u64,
    pub(crate) tx_tco_frames: u64,
    pub(crate) rx_tco_frames: u64,
    /// Frames the hardware counted as sent / received well (for cross-checks).
    pub(crate) hw_tx_good: u64,
    pub(crate) hw_rx_good: u64,
    /// Completed dumps.
    pub(crate) dumps: u64,
}

impl Totals {
    /// Adds one dump.
    pub(crate) fn add(&mut self, d: &Dump) {
        let a = |x: u32| u64::from(x);
        self.tx_aborted_errors += a(d.tx_max_collisions);
        self.tx_window_errors += a(d.tx_late_collisions);
        self.tx_carrier_errors += a(d.tx_lost_crs);
        self.tx_fifo_errors += a(d.tx_underruns);
        self.collisions += a(d.tx_total_collisions);
        // Every transmit problem, as `rtnl_link_stats64` defines tx_errors (the sum of the
        // aborted, window, carrier and FIFO errors). e100.c adds only the first and third:
        // late collisions and underruns were missing from its tx_errors.
        self.tx_errors +=
            a(d.tx_max_collisions) + a(d.tx_late_collisions) + a(d.tx_lost_crs) + a(d.tx_underruns);
        self.rx_short_frame_errors += a(d.rx_short_frame_errors);
        self.rx_crc_errors += a(d.rx_crc_errors);
        self.rx_frame_errors += a(d.rx_alignment_errors);
        self.rx_over_errors += a(d.rx_overrun_errors);
        self.rx_fifo_errors += a(d.rx_overrun_errors);
        self.rx_missed_errors += a(d.rx_resource_errors);
        self.rx_errors += a(d.rx_crc_errors)
            + a(d.rx_alignment_errors)
            + a(d.rx_short_frame_errors)
            + a(d.rx_cdt_errors);
        self.tx_deferred += a(d.tx_deferred);
        self.tx_single_collisions += a(d.tx_single_collisions);
        self.tx_multiple_collisions += a(d.tx_multiple_collisions);
        self.tx_fc_pause += a(d.fc_xmt_pause);
        self.rx_fc_pause += a(d.fc_rcv_pause);
        self.rx_fc_unsupported += a(d.fc_rcv_unsupported);
        self.tx_tco_frames += u64::from(d.xmt_tco_frames);
        self.rx_tco_frames += u64::from(d.rcv_tco_frames);
        self.hw_tx_good += a(d.tx_good_frames);
        self.hw_rx_good += a(d.rx_good_frames);
        self.dumps += 1;
    }
}

/// `ethtool -S` names, in e100.c's order: 21 generic counters, then the device's own.
pub(crate) const STAT_NAMES: [&str; 31] = [
    "rx_packets",
    "tx_packets",
    "rx_bytes",
    "tx_bytes",
    "rx_errors",
    "tx_errors",
    "rx_dropped",
    "tx_dropped",
    "multicast",
    "collisions",
    "rx_length_errors",
    "rx_over_errors",
    "rx_crc_errors",
    "rx_frame_errors",
    "rx_fifo_errors",
    "rx_missed_errors",
    "tx_aborted_errors",
    "tx_carrier_errors",
    "tx_fifo_errors",
    "tx_heartbeat_errors",
    "tx_window_errors",
    "tx_deferred",
    "tx_single_collisions",
    "tx_multi_collisions",
    "tx_flow_control_pause",
    "rx_flow_control_pause",
    "rx_flow_control_unsupported",
    "tx_tco_packets",
    "rx_tco_packets",
    "rx_short_frame_errors",
    "rx_over_length_errors",
];

/// Software counters the data path keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SwCounters {
    pub(crate) rx_packets: u64,
    pub(crate) rx_bytes: u64,
    pub(crate) tx_packets: u64,
    pub(crate) tx_bytes: u64,
    pub(crate) rx_dropped: u64,
    pub(crate) tx_dropped: u64,
    pub(crate) multicast: u64,
    pub(crate) rx_over_length_errors: u64,
}

/// The data path's counters as it keeps them: one atomic each, added to with relaxed
/// read-modify-writes (one locked instruction each on x86, where a lock round trip with
/// interrupts disabled costs dozens), once per NAPI poll, and per dropped or over-length
/// frame and transmit error. Readers take a [`DataCounters::snapshot`]: each value is exact,
/// the set need not be (as with e100.c's unlocked `netdev->stats`).
#[derive(Default)]
pub(crate) struct DataCounters {
    pub(crate) rx_packets: AtomicU64,
    pub(crate) rx_bytes: AtomicU64,
    pub(crate) tx_packets: AtomicU64,
    pub(crate) tx_bytes: AtomicU64,
    pub(crate) rx_dropped: AtomicU64,
    pub(crate) tx_dropped: AtomicU64,
    pub(crate) multicast: AtomicU64,
    pub(crate) rx_over_length_errors: AtomicU64,
}

/// Adds `v` to `c`; nothing to do for 0 (most polls see no drops).
pub(crate) fn add(c: &AtomicU64, v: u64) {
    if v != 0 {
        c.fetch_add(v, Ordering::Relaxed);
    }
}

impl DataCounters {
    /// The values now.
    pub(crate) fn snapshot(&self) -> SwCounters {
        let r = |c: &AtomicU64| c.load(Ordering::Relaxed);
        SwCounters {
            rx_packets: r(&self.rx_packets),
            rx_bytes: r(&self.rx_bytes),
            tx_packets: r(&self.tx_packets),
            tx_bytes: r(&self.tx_bytes),
            rx_dropped: r(&self.rx_dropped),
            tx_dropped: r(&self.tx_dropped),
            multicast: r(&self.multicast),
            rx_over_length_errors: r(&self.rx_over_length_errors),
        }
    }
}

/// The 31 `ethtool -S` values, in [`STAT_NAMES`] order.
pub(crate) fn ethtool_values(sw: &SwCounters, t: &Totals) -> [u64; 31] {
    let rx_length_errors = t.rx_short_frame_errors + sw.rx_over_length_errors;
    [
        sw.rx_packets,
        sw.tx_packets,
        sw.rx_bytes,
        sw.tx_bytes,
        t.rx_errors,
        t.tx_errors,
        sw.rx_dropped,
        sw.tx_dropped,
        sw.multicast,
        t.collisions,
        rx_length_errors,
        t.rx_over_errors,
        t.rx_crc_errors,
        t.rx_frame_errors,
        t.rx_fifo_errors,
        t.rx_missed_errors,
        t.tx_aborted_errors,
        t.tx_carrier_errors,
        t.tx_fifo_errors,
        0, // tx_heartbeat_errors: the 8255x has no SQE test counter
        t.tx_window_errors,
        t.tx_deferred,
        t.tx_single_collisions,
        t.tx_multiple_collisions,
        t.tx_fc_pause,
        t.rx_fc_pause,
        t.rx_fc_unsupported,
        t.tx_tco_frames,
        t.rx_tco_frames,
        t.rx_short_frame_errors,
        sw.rx_over_length_errors,
    ]
}
