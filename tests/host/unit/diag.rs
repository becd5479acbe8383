use crate::diag::{adaptive_ifs, detect, Diagnosis, Event, Figures, Link, Problem, STAT_NAMES};

/// A 100 Mb/s link.
fn link(full: bool, autoneg: bool, lp_autoneg: bool) -> Link {
    Link {
        speed: 100,
        full_duplex: full,
        autoneg,
        lp_autoneg,
        tx_pause: false,
        mac_pause: true,
    }
}

/// Runs periods and collects the reports as text.
fn run(d: &mut Diagnosis, l: &Link, periods: &[Figures]) -> Vec<String> {
    let mut out = vec![];
    for f in periods {
        d.period(l, f, |e| out.push(e.to_string()));
    }
    out
}

/// One 2 s period of the link-partner QEMU's "NIC forced to 100/full, partner autonegotiating
/// (so half)" run (issue 8's mismatch-nic-full, e100: 772 runts and 10 alignment errors over
/// about 17 s while iperf3 moved 9.3 Mbit/s out, 0.17 in).
fn forced_full_vs_half() -> Figures {
    Figures {
        tx_good: 1600,
        rx_good: 150,
        align: 1,
        runts: 90,
        ..Figures::default()
    }
}

/// One period of issue 8's mismatch-nic-half (NIC autonegotiating, partner forced to
/// 100/full: 176 collisions, 89 late, 48 deferred over the run).
fn an_half_vs_forced_full() -> Figures {
    Figures {
        tx_good: 120,
        rx_good: 90,
        collisions: 20,
        late: 10,
        ..Figures::default()
    }
}

#[test]
fn forced_full_against_half_partner_is_named_in_one_period() {
    let mut d = Diagnosis::default();
    let l = link(true, false, false);
    let out = run(&mut d, &l, &[forced_full_vs_half()]);
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0]
            .starts_with("duplex mismatch suspected: 0 CRC errors, 1 alignment error and 90 runts"),
        "{}",
        out[0]
    );
    assert!(out[0].contains("partner appears to be half duplex while we are forced to full"));
    assert!(out[0].contains("enable autonegotiation on both ends or force both the same"));
    assert_eq!(d.stats(), [1, 0, 0, 0, 0, 1]);
}

#[test]
fn one_report_per_episode_then_cleared_by_clean_traffic() {
    let mut d = Diagnosis::default();
    let l = link(true, false, false);
    let bad = forced_full_vs_half();
    let out = run(&mut d, &l, &[bad, bad, bad]);
    assert_eq!(out.len(), 1);
    let clean = Figures {
        tx_good: 5000,
        rx_good: 4000,
        ..Figures::default()
    };
    let idle = Figures::default();
    // Idle periods prove nothing; one clean period is not yet two.
    assert!(run(&mut d, &l, &[idle, idle, clean]).is_empty());
    let out = run(&mut d, &l, &[clean]);
    assert_eq!(
        out,
        ["duplex mismatch cleared: the last two periods were clean"]
    );
    // A new episode is reported again.
    assert_eq!(run(&mut d, &l, &[bad]).len(), 1);
    assert_eq!(d.stats()[5], 2);
}

#[test]
fn late_collisions_are_disproved_only_by_frames_sent() {
    // The linkpartner suite's mismatch-nic-half (CI, 2026-12-05): our TCP collapsed, so two
    // periods carried the partner's retransmissions and almost nothing of ours; they cleared
    // the episode while the mismatch was still there.
    let mut d = Diagnosis::default();
    let l = link(false, true, false);
    assert_eq!(run(&mut d, &l, &[an_half_vs_forced_full()]).len(), 1);
    let received_only = Figures {
        tx_good: 10,
        rx_good: 3000,
        ..Figures::default()
    };
    assert!(run(&mut d, &l, &[received_only, received_only, received_only]).is_empty());
    assert_eq!(d.stats()[1], 1, "still a mismatch");
    let sent = Figures {
        tx_good: 3000,
        rx_good: 10,
        ..Figures::default()
    };
    assert_eq!(
        run(&mut d, &l, &[sent, sent]),
        ["duplex mismatch cleared: the last two periods were clean"]
    );
    // And receive errors only by frames received.
    let mut d = Diagnosis::default();
    let l = link(true, false, false);
    assert_eq!(run(&mut d, &l, &[forced_full_vs_half()]).len(), 1);
    assert!(run(&mut d, &l, &[sent, sent, sent]).is_empty());
    assert_eq!(run(&mut d, &l, &[received_only, received_only]).len(), 1);
}

#[test]
fn renegotiation_clears_at_once() {
    let mut d = Diagnosis::default();
    run(&mut d, &link(true, false, false), &[forced_full_vs_half()]);
    let mut out = vec![];
    d.link_changed(|e| out.push(e.to_string()));
    assert_eq!(out, ["duplex mismatch cleared (the link changed)"]);
    assert_eq!(d.stats()[0], 0);
    d.link_changed(|e| out.push(e.to_string()));
    assert_eq!(out.len(), 1, "nothing to clear twice");
}

#[test]
fn late_collisions_at_half_duplex_name_a_full_duplex_partner() {
    let mut d = Diagnosis::default();
    let out = run(
        &mut d,
        &link(false, true, false),
        &[an_half_vs_forced_full()],
    );
    assert_eq!(out.len(), 1);
    assert!(out[0].starts_with("duplex mismatch suspected: 10 late collisions (20 collisions, 0 frames dropped after 16 attempts)"), "{}", out[0]);
    assert!(out[0].contains("partner appears to be full duplex while we are half (it did not negotiate, so we fell back to half duplex)"));
    assert!(
        out[0].contains("Fix: enable autonegotiation on the partner, or force both ends the same")
    );
    // Forced to half ourselves: the fix is on both ends.
    let mut d = Diagnosis::default();
    let out = run(
        &mut d,
        &link(false, false, false),
        &[an_half_vs_forced_full()],
    );
    assert!(
        out[0].contains("while we are half (forced)") && out[0].contains("on both ends"),
        "{}",
        out[0]
    );
}

#[test]
fn healthy_links_raise_nothing() {
    // Issue 8's half-half run: thousands of collisions and deferrals are normal at half duplex.
    let half = Figures {
        tx_good: 4000,
        rx_good: 3000,
        collisions: 2400,
        ..Figures::default()
    };
    assert_eq!(detect(&link(false, false, false), &half), [false; 5]);
    assert_eq!(detect(&link(false, true, true), &half), [false; 5]);
    let full = Figures {
        tx_good: 6000,
        rx_good: 4000,
        ..Figures::default()
    };
    assert_eq!(detect(&link(true, true, true), &full), [false; 5]);
    // A few errors in a busy period are below the rate.
    let few = Figures {
        rx_good: 4000,
        crc: 9,
        ..full
    };
    assert_eq!(detect(&link(true, false, false), &few), [false; 5]);
    // One late collision is not a pattern.
    let one = Figures { late: 1, ..half };
    assert_eq!(detect(&link(false, true, false), &one), [false; 5]);
}

#[test]
fn errors_on_a_negotiated_full_duplex_link_are_noise_not_mismatch() {
    let mut d = Diagnosis::default();
    let f = Figures {
        rx_good: 1000,
        crc: 40,
        align: 3,
        ..Figures::default()
    };
    let out = run(&mut d, &link(true, true, true), &[f]);
    assert_eq!(out.len(), 1);
    assert!(
        out[0].starts_with(
            "noisy link: 40 CRC errors, 3 alignment errors and 0 runts against 1000 good frames"
        ),
        "{}",
        out[0]
    );
    assert!(out[0].contains("Check the cable"));
    // At half duplex, receive errors without late collisions are noise too.
    assert_eq!(
        detect(&link(false, true, true), &f),
        [false, false, true, false, false]
    );
}

#[test]
fn pause_storm_is_a_stall_normal_flow_control_is_not() {
    let storm = Figures {
        pause_rx: 20,
        tx_good: 0,
        ..Figures::default()
    };
    let mut d = Diagnosis::default();
    let l = link(true, true, true);
    let out = run(&mut d, &l, &[storm]);
    assert_eq!(out.len(), 1);
    assert!(
        out[0].starts_with(
            "flow-control stall: the partner sent 20 PAUSE frames in 2 s and we sent 0 frames"
        ),
        "{}",
        out[0]
    );
    let normal = Figures {
        pause_rx: 20,
        tx_good: 8000,
        ..Figures::default()
    };
    assert_eq!(detect(&l, &normal), [false; 5]);
    // A stall ends when the PAUSE frames stop, traffic or not.
    let out = run(&mut d, &l, &[Figures::default(), Figures::default()]);
    assert_eq!(
        out,
        ["flow-control stall cleared: the last two periods were clean"]
    );
    // Half duplex has no PAUSE.
    assert_eq!(detect(&link(false, true, true), &storm), [false; 5]);
}

#[test]
fn rx_overload_is_named_only_when_flow_control_would_cure_it() {
    let f = Figures {
        rx_good: 9000,
        rx_no_buffers: 300,
        ..Figures::default()
    };
    let mut l = link(true, true, true);
    let mut d = Diagnosis::default();
    let out = run(&mut d, &l, &[f]);
    assert_eq!(out.len(), 1);
    assert!(
        out[0].starts_with("receive overload: 300 frames dropped for lack of receive buffers"),
        "{}",
        out[0]
    );
    assert!(out[0].contains("ethtool -A <dev> autoneg on rx on tx on"));
    l.tx_pause = true;
    assert_eq!(detect(&l, &f), [false; 5], "already sending PAUSE");
    l.tx_pause = false;
    l.mac_pause = false;
    assert_eq!(
        detect(&l, &f),
        [false; 5],
        "82557: no flow control to offer"
    );
}

#[test]
fn stat_names_follow_the_states() {
    assert_eq!(STAT_NAMES.len(), Diagnosis::default().stats().len());
    assert!(STAT_NAMES
        .iter()
        .all(|n| n.starts_with("diag_") && n.len() < 32));
    let e = Event::Cleared(Problem::RxOverload, true);
    assert_eq!(e.to_string(), "receive overload cleared (the link changed)");
}

#[test]
fn adaptive_ifs_follows_e100c_rule() {
    let half = link(false, true, true);
    // 2000 frames, 100 collisions (> 2000/32 = 62): up by 5 each period, capped at 60.
    let mut ifs = 0;
    let mut seen = Vec::new();
    for _ in 0..14 {
        ifs = adaptive_ifs(ifs, &half, 2000, 100);
        seen.push(ifs);
    }
    assert_eq!(&seen[..3], &[5, 10, 15]);
    assert_eq!(*seen.last().unwrap(), 60);
    // Collisions at or under 1 in 32: kept.
    assert_eq!(adaptive_ifs(30, &half, 2000, 62), 30);
    // Too few frames at 100 Mb/s to judge: back down by 5, never below 0.
    assert_eq!(adaptive_ifs(30, &half, 999, 500), 25);
    assert_eq!(adaptive_ifs(3, &half, 10, 5), 3);
    assert_eq!(adaptive_ifs(0, &half, 0, 0), 0);
    // Exactly the minimum: neither rule applies.
    assert_eq!(adaptive_ifs(30, &half, 1000, 500), 30);
    // 10 Mb/s: the minimum is 100 frames.
    let ten = Link { speed: 10, ..half };
    assert_eq!(adaptive_ifs(0, &ten, 101, 4), 5);
    assert_eq!(adaptive_ifs(0, &half, 101, 4), 0);
    // Full duplex: left alone.
    assert_eq!(adaptive_ifs(20, &link(true, true, true), 5000, 1000), 20);
}

#[test]
fn counts_in_messages_agree_in_number() {
    // The pause storm the linkpartner suite makes: 21 PAUSE frames against one frame sent.
    let storm = Figures {
        pause_rx: 21,
        tx_good: 1,
        ..Figures::default()
    };
    let out = run(&mut Diagnosis::default(), &link(true, true, true), &[storm]);
    assert!(
        out[0].starts_with(
            "flow-control stall: the partner sent 21 PAUSE frames in 2 s and we sent 1 frame: "
        ),
        "{}",
        out[0]
    );
    let f = Figures {
        rx_good: 1,
        crc: 1,
        align: 0,
        runts: 60,
        ..Figures::default()
    };
    let out = run(&mut Diagnosis::default(), &link(true, false, true), &[f]);
    assert!(
        out[0].starts_with("duplex mismatch suspected: 1 CRC error, 0 alignment errors and 60 runts against 1 good frame received"),
        "{}",
        out[0]
    );
}
