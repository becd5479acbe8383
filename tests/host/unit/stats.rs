//! Statistics dump decoding and the ethtool -S layout.

use crate::stats::{self, Dump, SwCounters, Totals, STATS_WORDS, STAT_NAMES};

fn block(counters: &[u32], complete_at: usize) -> [u32; STATS_WORDS] {
    let mut w = [0u32; STATS_WORDS];
    w[..counters.len()].copy_from_slice(counters);
    w[complete_at] = stats::DUMP_RESET_COMPLETE.to_le();
    w
}

fn found(w: &[u32; STATS_WORDS], layout: usize, confirmed: bool) -> Option<usize> {
    stats::locate(layout, confirmed, |n| {
        u32::from_le(w[n]) == stats::DUMP_RESET_COMPLETE
    })
}

#[test]
fn expects_the_generations_layout() {
    use crate::hw::Mac;
    assert_eq!(stats::layout_of(Mac::M82557_D100_A), 16); // byte 64
    assert_eq!(stats::layout_of(Mac::M82558_D101_A4), 19); // byte 76
    assert_eq!(stats::layout_of(Mac::M82559_D101M), 20); // byte 80
    assert_eq!(stats::layout_of(Mac::M82551_10), 20);
}

#[test]
fn finds_layout_at_64_76_or_80_bytes() {
    for at in [16, 19, 20] {
        assert_eq!(found(&block(&[], at), at, false), Some(at));
        assert_eq!(found(&block(&[], at), at, true), Some(at));
    }
    assert_eq!(found(&[0; STATS_WORDS], 20, false), None);
    // QEMU's i82559er: an 82559 completing at byte 64 is found while unconfirmed...
    assert_eq!(found(&block(&[], 16), 20, false), Some(16));
    // ...and once a layout is confirmed, only its place counts.
    assert_eq!(found(&block(&[], 16), 20, true), None);
    assert_eq!(found(&block(&[], 20), 16, true), None);
    // The expected place wins over another that happens to hold the value.
    let mut w = block(&[], 20);
    w[16] = stats::DUMP_RESET_COMPLETE.to_le();
    assert_eq!(found(&w, 20, false), Some(20));
}

#[test]
fn parses_counters_up_to_the_layout() {
    let c: Vec<u32> = (1..=20).collect();
    let d = stats::parse(&block(&c, 20), 20);
    assert_eq!(d.tx_good_frames, 1);
    assert_eq!(d.rx_good_frames, 10);
    assert_eq!(d.rx_short_frame_errors, 16);
    assert_eq!(d.fc_rcv_unsupported, 19);
    assert_eq!((d.xmt_tco_frames, d.rcv_tco_frames), (20, 0));
    // A 16-counter layout has no flow-control or TCO counters: word 16 is its completion.
    let d = stats::parse(&block(&c[..16], 16), 16);
    assert_eq!(d.fc_xmt_pause, 0);
    assert_eq!(d.tx_good_frames, 1);
}

#[test]
fn totals_map_like_e100c() {
    let mut t = Totals::default();
    let d = Dump {
        tx_max_collisions: 2,
        tx_late_collisions: 3,
        tx_lost_crs: 4,
        tx_underruns: 5,
        tx_total_collisions: 6,
        rx_crc_errors: 7,
        rx_alignment_errors: 8,
        rx_resource_errors: 9,
        rx_overrun_errors: 10,
        rx_cdt_errors: 11,
        rx_short_frame_errors: 12,
        ..Default::default()
    };
    t.add(&d);
    t.add(&d);
    // tx_errors is every transmit problem (rtnl_link_stats64): e100.c left out late
    // collisions (3) and underruns (5).
    assert_eq!(t.tx_errors, 2 * (2 + 3 + 4 + 5));
    assert_eq!(t.collisions, 12);
    assert_eq!(t.rx_errors, 2 * (7 + 8 + 12 + 11));
    assert_eq!(t.rx_missed_errors, 18);
    assert_eq!((t.rx_over_errors, t.rx_fifo_errors), (20, 20));
    assert_eq!(t.dumps, 2);
}

/// e100.c's `e100_gstrings_stats` (Linux 6.12), written out by hand, in its order.
const E100_C_STAT_NAMES: [&str; 31] = [
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
    // device-specific stats
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

#[test]
fn ethtool_names_are_e100cs_in_order() {
    assert_eq!(STAT_NAMES, E100_C_STAT_NAMES);
    // ETH_GSTRING_LEN is 32 with the terminating NUL.
    assert!(STAT_NAMES.iter().all(|n| n.len() < 32));
    let sw = SwCounters {
        rx_packets: 5,
        tx_packets: 6,
        rx_over_length_errors: 2,
        ..Default::default()
    };
    let t = Totals {
        rx_short_frame_errors: 3,
        tx_deferred: 9,
        ..Default::default()
    };
    let v = stats::ethtool_values(&sw, &t);
    assert_eq!((v[0], v[1]), (5, 6));
    assert_eq!(v[10], 5, "rx_length_errors = short + over-length");
    assert_eq!(v[21], 9);
    assert_eq!(v[30], 2);
}

#[test]
fn data_counters_add_and_snapshot() {
    let c = stats::DataCounters::default();
    stats::add(&c.rx_packets, 3);
    stats::add(&c.rx_packets, 0);
    stats::add(&c.rx_bytes, 1500);
    stats::add(&c.tx_dropped, 1);
    stats::add(&c.rx_over_length_errors, 2);
    assert_eq!(
        c.snapshot(),
        SwCounters {
            rx_packets: 3,
            rx_bytes: 1500,
            tx_dropped: 1,
            rx_over_length_errors: 2,
            ..Default::default()
        }
    );
}
