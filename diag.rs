// SPDX-License-Identifier: GPL-2.0

//! Link diagnosis: naming a duplex mismatch, a noisy link, a flow-control stall and a receive
//! overload from the statistics the watchdog already reads.
//!
//! Every watchdog period (2 s) the driver folds one statistics dump, which counts since the
//! previous one, into [`Diagnosis::period`] together with the link as the PHY reports it. Each
//! problem is an episode: it is reported once when it starts, with the likely cause and the
//! fix, and once when it clears; its state is in `ethtool -S` meanwhile. An error signature
//! clears after two periods without it that carried traffic in the direction that shows it
//! (frames sent for late collisions, frames received for receive errors), a stall or an
//! overload after two periods without it, and every problem when the link changes.
//!
//! The signatures (IEEE 802.3 clause 4 and clause 28 physics, and what the field reports show):
//!
//! - **We are full duplex, the partner half** (we were forced to full; an autonegotiating
//!   partner that sees no pages falls back to half by parallel detection): the partner defers
//!   to our frames and collides with them, so we receive its jammed fragments and truncated
//!   frames as CRC and alignment errors and runts, while our MAC, in full duplex, counts no
//!   collision at all.
//! - **We are half duplex, the partner full** (the partner was forced to full; we autonegotiated
//!   and fell back to half): the partner starts frames in the middle of ours, so we see late
//!   collisions, which never happen on a correct half-duplex link.
//! - **Noisy link**: receive errors at a rate no correct link has, on a link where a duplex
//!   mismatch cannot be (both ends negotiated), or half duplex without late collisions.
//! - **Flow-control stall**: more PAUSE frames received than frames sent: the partner is
//!   holding our transmitter.
//! - **Receive overload**: frames dropped for lack of receive buffers while we do not send
//!   PAUSE, which flow control would cure.
//!
//! Kernel-independent (only `core`), covered by the host tests.

use crate::stats::Dump;
use core::fmt;

/// Receive errors (CRC, alignment, runts) in one period before a rate is judged at all.
const MIN_RX_ERRORS: u64 = 8;
/// ... and their share of the frames received, in parts per thousand: 1%.
const RX_ERROR_PERMILLE: u64 = 10;
/// Late collisions in one period that say the partner is full duplex.
const MIN_LATE_COLLISIONS: u64 = 2;
/// PAUSE frames received in one period before a stall is considered.
const MIN_PAUSE: u64 = 5;
/// Frames dropped for lack of buffers in one period that make an overload.
const MIN_RX_DROPPED: u64 = 10;
/// Frames moved (both ways) in a period for it to count as clean evidence.
const MIN_CLEAN_TRAFFIC: u64 = 50;
/// Clean periods in a row that end an episode.
const CLEAR_AFTER: u8 = 2;

/// The link as the PHY and the MAC's configuration have it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Link {
    /// Mb/s.
    pub(crate) speed: u32,
    /// Our MAC runs full duplex.
    pub(crate) full_duplex: bool,
    /// Our PHY autonegotiates.
    pub(crate) autoneg: bool,
    /// The partner autonegotiated with us (both ends exchanged pages).
    pub(crate) lp_autoneg: bool,
    /// We send PAUSE when our receive side runs out of buffers.
    pub(crate) tx_pause: bool,
    /// The MAC can send PAUSE at all (82558 and later).
    pub(crate) mac_pause: bool,
}

/// A problem the diagnosis can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Problem {
    /// We are full duplex, the partner half.
    MismatchWeFull,
    /// We are half duplex, the partner full.
    MismatchWeHalf,
    /// Receive errors with no duplex mismatch to explain them.
    NoisyLink,
    /// The partner's PAUSE frames hold our transmitter.
    PauseStall,
    /// Frames dropped for lack of receive buffers, with no PAUSE sent.
    RxOverload,
}

/// Every problem, in the order of [`Diagnosis::states`].
pub(crate) const PROBLEMS: [Problem; 5] = [
    Problem::MismatchWeFull,
    Problem::MismatchWeHalf,
    Problem::NoisyLink,
    Problem::PauseStall,
    Problem::RxOverload,
];

/// The `ethtool -S` names of the diagnosis state, after the C driver's 31: 1 while the problem
/// lasts, then the number of episodes seen.
pub(crate) const STAT_NAMES: [&str; 6] = [
    "diag_duplex_mismatch_we_full",
    "diag_duplex_mismatch_we_half",
    "diag_noisy_link",
    "diag_pause_stall",
    "diag_rx_overload",
    "diag_episodes",
];

/// The per-period figures a diagnosis is made from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Figures {
    /// Frames sent and received good.
    pub(crate) tx_good: u64,
    pub(crate) rx_good: u64,
    /// CRC errors, alignment errors and runts received.
    pub(crate) crc: u64,
    pub(crate) align: u64,
    pub(crate) runts: u64,
    /// Collisions, late collisions, frames given up after 16 attempts.
    pub(crate) collisions: u64,
    pub(crate) late: u64,
    pub(crate) excessive: u64,
    /// Frames received dropped for lack of buffers.
    pub(crate) rx_no_buffers: u64,
    /// PAUSE frames received and sent.
    pub(crate) pause_rx: u64,
    pub(crate) pause_tx: u64,
}

impl Figures {
    /// The figures of one statistics dump.
    pub(crate) fn from_dump(d: &Dump) -> Figures {
        let a = |x: u32| u64::from(x);
        Figures {
            tx_good: a(d.tx_good_frames),
            rx_good: a(d.rx_good_frames),
            crc: a(d.rx_crc_errors),
            align: a(d.rx_alignment_errors),
            runts: a(d.rx_short_frame_errors),
            collisions: a(d.tx_total_collisions),
            late: a(d.tx_late_collisions),
            excessive: a(d.tx_max_collisions),
            rx_no_buffers: a(d.rx_resource_errors),
            pause_rx: a(d.fc_rcv_pause),
            pause_tx: a(d.fc_xmt_pause),
        }
    }

    fn rx_errors(&self) -> u64 {
        self.crc + self.align + self.runts
    }

    /// Receive errors at a rate no correct link has.
    fn rx_errors_high(&self) -> bool {
        let e = self.rx_errors();
        e >= MIN_RX_ERRORS && e * 1000 >= (self.rx_good + e) * RX_ERROR_PERMILLE
    }
}

/// Which problems `f` shows on `link`, in [`PROBLEMS`] order.
pub(crate) fn detect(link: &Link, f: &Figures) -> [bool; 5] {
    // Full duplex without having negotiated it with the partner: a half-duplex partner is
    // possible (negotiated full duplex is agreed by both ends).
    let full_unagreed = link.full_duplex && !(link.autoneg && link.lp_autoneg);
    let we_full = full_unagreed && f.rx_errors_high();
    let we_half = !link.full_duplex && f.late >= MIN_LATE_COLLISIONS;
    let noisy = f.rx_errors_high() && !we_full && !we_half;
    let stall = link.full_duplex && f.pause_rx >= MIN_PAUSE && f.tx_good <= f.pause_rx;
    let overload =
        link.mac_pause && link.full_duplex && !link.tx_pause && f.rx_no_buffers >= MIN_RX_DROPPED;
    [we_full, we_half, noisy, stall, overload]
}

/// A report for the kernel log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Event {
    /// A problem started; the figures and link that showed it.
    Raised(Problem, Link, Figures),
    /// A problem ended (`true`: because the link changed).
    Cleared(Problem, bool),
}

/// The diagnosis state of one interface.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Diagnosis {
    active: [bool; 5],
    clean: [u8; 5],
    episodes: u64,
}

impl Diagnosis {
    /// Judges one period; reports what started and what ended through `report`.
    pub(crate) fn period(&mut self, link: &Link, f: &Figures, mut report: impl FnMut(Event)) {
        let seen = detect(link, f);
        let sent = f.tx_good >= MIN_CLEAN_TRAFFIC;
        let received = f.rx_good >= MIN_CLEAN_TRAFFIC;
        for (i, p) in PROBLEMS.iter().enumerate() {
            if seen[i] {
                self.clean[i] = 0;
                if !self.active[i] {
                    self.active[i] = true;
                    self.episodes += 1;
                    report(Event::Raised(*p, *link, *f));
                }
            } else if self.active[i] {
                // A stall or an overload ends when it stops; the error signatures need traffic
                // in the direction that shows them to prove their absence: late collisions come
                // only with frames we send (a half-duplex mismatch whose TCP has collapsed
                // still receives the partner's retransmissions, and that is no proof), receive
                // errors only with frames received.
                let evidence = match p {
                    Problem::PauseStall | Problem::RxOverload => true,
                    Problem::MismatchWeHalf => sent,
                    Problem::MismatchWeFull | Problem::NoisyLink => received,
                };
                if evidence {
                    self.clean[i] += 1;
                }
                if self.clean[i] >= CLEAR_AFTER {
                    self.active[i] = false;
                    self.clean[i] = 0;
                    report(Event::Cleared(*p, false));
                }
            }
        }
    }

    /// The link went down or was renegotiated: what was diagnosed on the old link no longer
    /// holds.
    pub(crate) fn link_changed(&mut self, mut report: impl FnMut(Event)) {
        for (i, p) in PROBLEMS.iter().enumerate() {
            if self.active[i] {
                self.active[i] = false;
                self.clean[i] = 0;
                report(Event::Cleared(*p, true));
            }
        }
    }

    /// The values for [`STAT_NAMES`].
    pub(crate) fn stats(&self) -> [u64; 6] {
        let a = |i: usize| u64::from(self.active[i]);
        [a(0), a(1), a(2), a(3), a(4), self.episodes]
    }
}

/// A count and its noun, in the right number ("1 runt", "56 runts", "0 CRC errors").
struct Count(u64, &'static str);

impl fmt::Display for Count {
    fn fmt(&self, w: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.0 == 1 { "" } else { "s" };
        write!(w, "{} {}{}", self.0, self.1, s)
    }
}

impl fmt::Display for Event {
    fn fmt(&self, w: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Raised(Problem::MismatchWeFull, l, f) => {
                write!(
                    w,
                    "duplex mismatch suspected: {}, {} and {} against {} received in 2 s, and \
                     no collision seen, at {} Mbps \
                     full duplex: the partner appears to be half duplex while we are {}. Fix: \
                     enable autonegotiation on both ends or force both the same",
                    Count(f.crc, "CRC error"),
                    Count(f.align, "alignment error"),
                    Count(f.runts, "runt"),
                    Count(f.rx_good, "good frame"),
                    l.speed,
                    if l.autoneg {
                        "at full without having negotiated it"
                    } else {
                        "forced to full"
                    }
                )
            }
            Event::Raised(Problem::MismatchWeHalf, l, f) => write!(
                w,
                "duplex mismatch suspected: {} ({}, {} dropped after 16 attempts) against \
                 {} sent in 2 s at {} Mbps half \
                 duplex: the partner appears to be full duplex while we are half{}. Fix: {}",
                Count(f.late, "late collision"),
                Count(f.collisions, "collision"),
                Count(f.excessive, "frame"),
                Count(f.tx_good, "frame"),
                l.speed,
                if l.autoneg && !l.lp_autoneg {
                    " (it did not negotiate, so we fell back to half duplex)"
                } else if !l.autoneg {
                    " (forced)"
                } else {
                    ""
                },
                if l.autoneg {
                    "enable autonegotiation on the partner, or force both ends the same"
                } else {
                    "enable autonegotiation on both ends, or force both the same"
                }
            ),
            Event::Raised(Problem::NoisyLink, l, f) => write!(
                w,
                "noisy link: {}, {} and {} against {} received in 2 s at {} Mbps {} duplex, \
                 which no duplex mismatch \
                 explains. Check the cable, its length and the connectors",
                Count(f.crc, "CRC error"),
                Count(f.align, "alignment error"),
                Count(f.runts, "runt"),
                Count(f.rx_good, "good frame"),
                l.speed,
                if l.full_duplex { "full" } else { "half" }
            ),
            Event::Raised(Problem::PauseStall, _, f) => write!(
                w,
                "flow-control stall: the partner sent {} in 2 s and we sent {}: it is \
                 holding our transmitter. The congestion is on its receive side \
                 (check the partner, or the switch port's flow control)",
                Count(f.pause_rx, "PAUSE frame"),
                Count(f.tx_good, "frame")
            ),
            Event::Raised(Problem::RxOverload, _, f) => write!(
                w,
                "receive overload: {} dropped for lack of receive buffers in 2 s with \
                 flow control off. Fix: enable it (ethtool -A <dev> autoneg on rx on tx on) \
                 or enlarge the receive ring (ethtool -G <dev> rx 256)",
                Count(f.rx_no_buffers, "frame")
            ),
            Event::Cleared(p, relink) => write!(
                w,
                "{} cleared{}",
                match p {
                    Problem::MismatchWeFull | Problem::MismatchWeHalf => "duplex mismatch",
                    Problem::NoisyLink => "noisy link",
                    Problem::PauseStall => "flow-control stall",
                    Problem::RxOverload => "receive overload",
                },
                if *relink {
                    " (the link changed)"
                } else {
                    ": the last two periods were clean"
                }
            ),
        }
    }
}

/// Adaptive IFS (e100.c's rule, after Intel's): on a half-duplex link that collides on more
/// than one frame in 32, the MAC waits longer between its own transmits, 5 units more each
/// period up to 60; once the traffic falls below the period's minimum (1000 frames at 100
/// Mb/s, 100 at 10) it comes back down by 5. Full duplex leaves it as it is (nothing collides,
/// and a new link starts from 0). `tx_frames` and `collisions` are one period's counts.
/// Returns the new value, which Configure byte 2 takes when it changed.
pub(crate) fn adaptive_ifs(ifs: u8, link: &Link, tx_frames: u64, collisions: u64) -> u8 {
    if link.full_duplex {
        return ifs;
    }
    let min_frames = if link.speed == 100 { 1000 } else { 100 };
    if tx_frames / 32 < collisions && tx_frames > min_frames {
        if ifs < 60 {
            return ifs + 5;
        }
    } else if tx_frames < min_frames && ifs >= 5 {
        return ifs - 5;
    }
    ifs
}
