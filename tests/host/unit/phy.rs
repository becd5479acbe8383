use crate::phy::{self, Mdio, Phy, BMCR_ISOLATE, MII_BMCR};
use std::collections::HashMap;

/// An MDI bus with PHYs at some addresses; empty addresses read `empty`.
struct Bus {
    phys: HashMap<u8, [u16; 32]>,
    empty: u16,
    writes: Vec<(u8, u8, u16)>,
    link_latched_low: bool,
}

impl Bus {
    /// A bus with these PHYs (address, registers); other addresses read `empty` (0).
    fn with<const N: usize>(phys: [(u8, [u16; 32]); N]) -> Self {
        Bus {
            phys: HashMap::from(phys),
            empty: 0,
            writes: vec![],
            link_latched_low: false,
        }
    }
}

impl Mdio for Bus {
    fn read(&mut self, addr: u8, reg: u8) -> Option<u16> {
        let Some(regs) = self.phys.get(&addr) else {
            return Some(self.empty);
        };
        let mut v = regs[reg as usize];
        if reg == 1 && self.link_latched_low {
            v &= !phy::BMSR_LSTATUS;
            self.link_latched_low = false;
        }
        Some(v)
    }
    fn write(&mut self, addr: u8, reg: u8, val: u16) -> bool {
        self.writes.push((addr, reg, val));
        if let Some(r) = self.phys.get_mut(&addr) {
            // BMCR's reset and restart bits clear themselves, as on a real PHY.
            r[reg as usize] = if reg == 0 { val & !0x8200 } else { val };
        }
        true
    }
}

/// QEMU's i82559er PHY: address 1, BMCR 0x3000, BMSR 0x782d, ID 0x02a8:0x0154.
fn qemu_phy() -> [u16; 32] {
    let mut r = [0u16; 32];
    r[0] = 0x3000;
    r[1] = 0x782d;
    r[2] = 0x02a8;
    r[3] = 0x0154;
    r
}

/// QEMU's PHY as the scan finds it.
const QEMU_PHY_AT_1: Phy = Phy {
    addr: 1,
    id: 0x0154_02a8,
};

#[test]
fn finds_qemu_phy_at_address_1() {
    let mut bus = Bus::with([(1, qemu_phy())]);
    let p = phy::probe(&mut bus).expect("phy");
    assert_eq!(
        p,
        Phy {
            addr: 1,
            id: 0x0154_02a8
        }
    );
    assert_eq!(p.name(), "82555-TX"); // model 0x15, revision 4
    assert!(bus.writes.is_empty(), "discovery only reads");
    phy::select(&mut bus, &p).unwrap();
    assert_eq!(bus.writes, select_writes(1, 0x3000));
    assert!(phy::link_state(&mut bus, &p).unwrap().up);
}

/// The writes of selecting the PHY at `addr` whose BMCR reads `bmcr`: ISOLATE to every other
/// address in order, then the PHY's own BMCR with ISOLATE cleared, last (e100.c's order for the
/// 82552; for other PHYs it clears the bit in place, which ends in the same state).
fn select_writes(addr: u8, bmcr: u16) -> Vec<(u8, u8, u16)> {
    let mut w: Vec<_> = (0..32u8)
        .filter(|a| *a != addr)
        .map(|a| (a, MII_BMCR, BMCR_ISOLATE))
        .collect();
    w.push((addr, MII_BMCR, bmcr & !BMCR_ISOLATE));
    w
}

#[test]
fn isolated_phy_is_unisolated_last() {
    // A PHY that comes out of reset isolated (or was isolated by an earlier scan) is brought
    // back onto the MII.
    let mut regs = qemu_phy();
    regs[0] |= BMCR_ISOLATE;
    let mut bus = Bus::with([(1, regs)]);
    let p = phy::probe(&mut bus).unwrap();
    phy::select(&mut bus, &p).unwrap();
    assert_eq!(bus.writes.last(), Some(&(1, MII_BMCR, 0x3000)));
    assert_eq!(bus.phys[&1][0] & BMCR_ISOLATE, 0);
    assert_eq!(p.addr, 1);
}

/// The 82552: answers on every address with the same registers (one register file, mirrored).
struct Mirrored {
    regs: [u16; 32],
    writes: Vec<(u8, u8, u16)>,
}

impl Mdio for Mirrored {
    fn read(&mut self, _addr: u8, reg: u8) -> Option<u16> {
        Some(self.regs[reg as usize])
    }
    fn write(&mut self, addr: u8, reg: u8, val: u16) -> bool {
        self.writes.push((addr, reg, val));
        self.regs[reg as usize] = val;
        true
    }
}

#[test]
fn mirrored_82552_ends_unisolated() {
    let mut regs = [0u16; 32];
    regs[0] = 0x1000; // autonegotiation on
    regs[1] = 0x7809;
    regs[2] = 0x004d;
    regs[3] = 0xd061;
    let mut bus = Mirrored {
        regs,
        writes: vec![],
    };
    let p = phy::probe(&mut bus).unwrap();
    phy::select(&mut bus, &p).unwrap();
    assert_eq!(
        p,
        Phy {
            addr: 1,
            id: 0xd061_004d
        }
    );
    assert_eq!(p.name(), "82552-V");
    // Isolating address 0, 2..31 isolated the 82552 itself; the last write undoes it with the
    // BMCR read before the isolation.
    assert_eq!(bus.writes, select_writes(1, 0x1000));
    assert_eq!(bus.regs[0] & BMCR_ISOLATE, 0);
}

#[test]
fn scan_order_is_1_0_then_2_to_31() {
    let v: Vec<u8> = phy::scan_order().collect();
    assert_eq!(&v[..3], &[1, 0, 2]);
    assert_eq!(v.len(), 32);
    assert_eq!(*v.last().unwrap(), 31);
}

#[test]
fn second_phy_is_isolated_and_first_in_scan_order_wins() {
    let mut a = qemu_phy();
    a[2] = 0x0150 >> 4; // arbitrary
    let mut bus = Bus {
        phys: HashMap::from([(0, a), (7, qemu_phy())]),
        empty: 0xffff,
        writes: vec![],
        link_latched_low: false,
    };
    let p = phy::probe(&mut bus).unwrap();
    assert_eq!(p.addr, 0);
    phy::select(&mut bus, &p).unwrap();
    assert_eq!(bus.writes, select_writes(0, 0x3000));
    assert_eq!(bus.phys[&7][0], BMCR_ISOLATE, "the second PHY is isolated");
}

#[test]
fn empty_bus_finds_nothing() {
    for empty in [0u16, 0xffff] {
        let mut bus = Bus {
            phys: HashMap::new(),
            empty,
            writes: vec![],
            link_latched_low: false,
        };
        assert_eq!(phy::probe(&mut bus), None);
    }
}

#[test]
fn latched_link_down_is_read_through() {
    let mut bus = Bus {
        phys: HashMap::from([(1, qemu_phy())]),
        empty: 0,
        writes: vec![],
        link_latched_low: true,
    };
    let p = Phy { addr: 1, id: 0 };
    let st = phy::link_state(&mut bus, &p).unwrap();
    assert!(st.up, "the second read is the current state");
    assert!(
        st.was_down,
        "the first, latched, read says the link went down in between"
    );
    assert!(!phy::link_state(&mut bus, &p).unwrap().was_down);
}

#[test]
fn names_known_phys() {
    assert_eq!(
        Phy {
            addr: 1,
            id: 0x0150_02A8
        }
        .name(),
        "82555-TX"
    );
    assert_eq!(
        Phy {
            addr: 1,
            id: 0x015B_02A8
        }
        .name(),
        "82555-TX"
    );
    assert_eq!(
        Phy {
            addr: 1,
            id: 0xd061_004d
        }
        .name(),
        "82552-V"
    );
    assert_eq!(
        Phy {
            addr: 1,
            id: 0x0154_02a9
        }
        .name(),
        "unknown"
    );
}

#[test]
fn resolves_autoneg_by_priority_and_forced_modes() {
    use crate::phy::{resolve, LinkMode};
    let an = 0x1000;
    // QEMU: advertise 0x05e1, partner 0x41fe -> 100 full.
    assert_eq!(
        resolve(an, 0x05e1, 0x41fe),
        LinkMode {
            speed: 100,
            full_duplex: true
        }
    );
    // Only half duplex in common.
    assert_eq!(
        resolve(an, 0x00a1, 0x00a1),
        LinkMode {
            speed: 100,
            full_duplex: false
        }
    );
    assert_eq!(
        resolve(an, 0x0061, 0x0041),
        LinkMode {
            speed: 10,
            full_duplex: true
        }
    );
    // Forced: BMCR speed/duplex bits, whatever the partner says.
    assert_eq!(
        resolve(0x2100, 0, 0x41fe),
        LinkMode {
            speed: 100,
            full_duplex: true
        }
    );
    assert_eq!(
        resolve(0x0000, 0x05e1, 0x41fe),
        LinkMode {
            speed: 10,
            full_duplex: false
        }
    );
}

use crate::phy::{
    abilities, check, pause_advert, resolve_pause, state_from, LinkConfig, LinkMode, Pause,
    ADV_100FULL, ADV_100HALF, ADV_10FULL, ADV_10HALF, ADV_PAUSE, ADV_PAUSE_ASYM,
};

const P: u16 = ADV_PAUSE;
const A: u16 = ADV_PAUSE_ASYM;

#[test]
fn pause_resolution_is_table_28b_3() {
    // (local, partner) -> (rx, tx), written out from IEEE 802.3 table 28B-3.
    let table: [(u16, u16, bool, bool); 16] = [
        (0, 0, false, false),
        (0, A, false, false),
        (0, P, false, false),
        (0, P | A, false, false),
        (A, 0, false, false),
        (A, A, false, false),
        (A, P, false, false),
        (A, P | A, false, true), // we only send; the partner obeys
        (P, 0, false, false),
        (P, A, false, false),
        (P, P, true, true),
        (P, P | A, true, true),
        (P | A, 0, false, false),
        (P | A, A, true, false), // we only obey; the partner only sends
        (P | A, P, true, true),
        (P | A, P | A, true, true),
    ];
    for (l, p, rx, tx) in table {
        assert_eq!(
            resolve_pause(true, l, p),
            Pause { rx, tx },
            "local {l:#x} partner {p:#x}"
        );
        assert_eq!(
            resolve_pause(false, l, p),
            Pause::default(),
            "half duplex never pauses"
        );
    }
}

#[test]
fn pause_advertisement_is_linux_mapping() {
    assert_eq!(pause_advert(Pause { rx: true, tx: true }), P);
    assert_eq!(
        pause_advert(Pause {
            rx: true,
            tx: false
        }),
        P | A
    );
    assert_eq!(
        pause_advert(Pause {
            rx: false,
            tx: true
        }),
        A
    );
    assert_eq!(
        pause_advert(Pause {
            rx: false,
            tx: false
        }),
        0
    );
}

#[test]
fn state_resolves_negotiated_forced_and_parallel_detected_links() {
    // Both negotiated, both everything + pause: 100/full, pause both ways.
    let s = state_from(0x1000, 0x782d, 0x05e1, 0x45e1, 0x0001);
    assert!(s.up && s.autoneg && s.lp_autoneg);
    assert_eq!(
        s.mode,
        LinkMode {
            speed: 100,
            full_duplex: true
        }
    );
    assert_eq!(s.pause, Pause { rx: true, tx: true });
    // Partner forced to 100/full: parallel detection sets only 100TX in LPA; half duplex, no
    // pause whatever LPA claims.
    let s = state_from(0x1000, 0x782d, 0x05e1, 0x0080, 0x0000);
    assert!(!s.lp_autoneg);
    assert_eq!(
        s.mode,
        LinkMode {
            speed: 100,
            full_duplex: false
        }
    );
    assert_eq!(s.pause, Pause::default());
    // Forced 100/full ourselves: BMCR says it all.
    let s = state_from(0x2100, 0x7809, 0x05e1, 0, 0);
    assert!(!s.autoneg && !s.up);
    assert_eq!(
        s.mode,
        LinkMode {
            speed: 100,
            full_duplex: true
        }
    );
    // Forced 10/half.
    assert_eq!(
        state_from(0x0000, 0x782d, 0x01e1, 0, 0).mode,
        LinkMode {
            speed: 10,
            full_duplex: false
        }
    );
}

#[test]
fn requests_the_phy_cannot_do_are_refused() {
    let all = abilities(0x782d);
    assert_eq!(all, ADV_10HALF | ADV_10FULL | ADV_100HALF | ADV_100FULL);
    let mut c = LinkConfig::new(all, true);
    assert!(check(&c, all).is_some());
    c.advertise = 0;
    assert!(check(&c, all).is_none(), "nothing to advertise");
    c.advertise = ADV_100FULL;
    assert!(
        check(&c, ADV_10HALF | ADV_10FULL).is_none(),
        "a 10 Mb/s-only PHY"
    );
    c.autoneg = false;
    c.forced = LinkMode {
        speed: 1000,
        full_duplex: true,
    };
    assert!(check(&c, all).is_none(), "no 1000 Mb/s");
    c.forced = LinkMode {
        speed: 100,
        full_duplex: false,
    };
    assert!(check(&c, all).is_some());
    assert!(check(&c, ADV_10HALF).is_none());
}

#[test]
fn config_registers() {
    let mut c = LinkConfig::new(0x01e0, true);
    // Keeps the next-page bit, sets the selector, tech and symmetric pause.
    assert_eq!(c.advertise_reg(0x8000), 0x8000 | 0x0001 | 0x01e0 | P);
    c.pause = Pause {
        rx: false,
        tx: true,
    };
    assert_eq!(c.advertise_reg(0x05e1), 0x0001 | 0x01e0 | A);
    c.pause_autoneg = false;
    assert_eq!(
        c.advertise_reg(0x05e1),
        0x01e1,
        "forced pause advertises none"
    );
    // Autoneg: enable + restart, isolate and power-down cleared, loopback kept.
    assert_eq!(c.bmcr(0x4c00), 0x4000 | 0x1000 | 0x0200);
    c.autoneg = false;
    c.forced = LinkMode {
        speed: 100,
        full_duplex: true,
    };
    assert_eq!(c.bmcr(0x3000), 0x2100);
    c.forced = LinkMode {
        speed: 10,
        full_duplex: false,
    };
    assert_eq!(c.bmcr(0x3300), 0x0000);
}

#[test]
fn reset_then_apply_advertises_then_sets_bmcr() {
    let mut bus = Bus::with([(1, qemu_phy())]);
    let p = QEMU_PHY_AT_1;
    let mut c = LinkConfig::new(0x01e0, true);
    c.autoneg = false;
    c.forced = LinkMode {
        speed: 100,
        full_duplex: true,
    };
    phy::reset_start(&mut bus, &p).unwrap();
    assert_eq!(phy::reset_done(&mut bus, &p), Some(true));
    phy::apply(&mut bus, &p, &c).unwrap();
    assert_eq!(
        bus.writes,
        [
            (1, MII_BMCR, 0x8000),
            (1, 4, 0x01e1 | P),
            (1, MII_BMCR, 0x2100)
        ]
    );
    // A PHY stuck in reset says so; the caller's poll gives up, nothing hangs here.
    struct Stuck;
    impl Mdio for Stuck {
        fn read(&mut self, _a: u8, _r: u8) -> Option<u16> {
            Some(0x8000)
        }
        fn write(&mut self, _a: u8, _r: u8, _v: u16) -> bool {
            true
        }
    }
    assert_eq!(phy::reset_done(&mut Stuck, &p), Some(false));
}

#[test]
fn ensure_writes_only_what_differs() {
    let mut bus = Bus::with([(1, qemu_phy())]);
    let p = QEMU_PHY_AT_1;
    let c = LinkConfig::new(0x01e0, true);
    // The PHY advertises what the default configuration wants: nothing to write.
    let adv = c.advertise_reg(0);
    bus.writes.clear();
    phy::Mdio::write(&mut bus, 1, 4, adv);
    phy::Mdio::write(&mut bus, 1, MII_BMCR, 0x1000);
    bus.writes.clear();
    assert_eq!(phy::ensure(&mut bus, &p, &c), Some(false));
    assert!(bus.writes.is_empty());
    // QEMU's PHY as reset leaves it, autonegotiating with BMCR's 100 Mb/s bit set (which
    // autonegotiation ignores): nothing to write, no negotiation restarted.
    phy::Mdio::write(&mut bus, 1, MII_BMCR, 0x3000);
    bus.writes.clear();
    assert_eq!(phy::ensure(&mut bus, &p, &c), Some(false));
    assert!(bus.writes.is_empty());
    // A PHY that lost its PAUSE bits (a reset, another driver): advertised again, AN restarted.
    phy::Mdio::write(&mut bus, 1, 4, 0x01e1);
    bus.writes.clear();
    assert_eq!(phy::ensure(&mut bus, &p, &c), Some(true));
    assert_eq!(bus.writes, [(1, 4, adv), (1, MII_BMCR, 0x1200)]);
}

#[test]
fn mdix_follows_e100c_rule() {
    let p = QEMU_PHY_AT_1;
    let mut bus = Bus::with([(1, qemu_phy())]);
    phy::quirks(&mut bus, &p, phy::Mdix::Off, false).unwrap();
    assert!(bus.writes.is_empty());
    phy::quirks(&mut bus, &p, phy::Mdix::Always, false).unwrap();
    assert_eq!(bus.writes, [(1, 0x1c, 0x0080)]);
    bus.writes.clear();
    // Forced: auto-switching off.
    phy::quirks(&mut bus, &p, phy::Mdix::Always, true).unwrap();
    assert_eq!(bus.writes, [(1, 0x1c, 0)]);
    bus.writes.clear();
    // ICH with the EEPROM bit: only if TPISTATUS bit 15 says the PHY can (this one reads 0).
    phy::quirks(&mut bus, &p, phy::Mdix::IfCapable, false).unwrap();
    assert!(bus.writes.is_empty());
}

#[test]
fn restart_only_with_autoneg_and_82552_hook() {
    let mut regs = qemu_phy();
    regs[0] = 0x1000;
    let mut bus = Bus::with([(1, regs)]);
    let p = QEMU_PHY_AT_1;
    assert_eq!(phy::restart_an(&mut bus, &p), Some(true));
    assert_eq!(bus.writes, [(1, MII_BMCR, 0x1200)]);
    bus.phys.get_mut(&1).unwrap()[0] = 0x2100;
    assert_eq!(phy::restart_an(&mut bus, &p), Some(false));
    // The 82552 gets 100/full added to an autonegotiation BMCR write when it advertises it.
    let v = Phy {
        addr: 1,
        id: phy::PHY_82552_V,
    };
    bus.phys.get_mut(&1).unwrap()[4] = 0x05e1;
    bus.writes.clear();
    phy::write_bmcr(&mut bus, &v, 0x1200).unwrap();
    assert_eq!(bus.writes, [(1, MII_BMCR, 0x3300)]);
    bus.phys.get_mut(&1).unwrap()[4] = 0x00a1;
    bus.writes.clear();
    phy::write_bmcr(&mut bus, &v, 0x1200).unwrap();
    assert_eq!(bus.writes, [(1, MII_BMCR, 0x3200)]);
    bus.writes.clear();
    phy::write_bmcr(&mut bus, &v, 0x0100).unwrap();
    assert_eq!(
        bus.writes,
        [(1, MII_BMCR, 0x0100)],
        "forced writes untouched"
    );
}

#[test]
fn board_without_mii_phy_is_recognised_from_the_eeprom() {
    // Word 6, bits 8-11: 0 no such PHY, 3 82503, 6 80C24; 1 (82553) is an MII PHY.
    assert_eq!(
        phy::NonMii::from_eeprom(0x0000),
        Some(phy::NonMii::NoSuchPhy)
    );
    assert_eq!(phy::NonMii::from_eeprom(0x0301), Some(phy::NonMii::I82503));
    assert_eq!(phy::NonMii::from_eeprom(0xf6ff), Some(phy::NonMii::S80C24));
    assert_eq!(phy::NonMii::from_eeprom(0x0100), None);
    assert_eq!(phy::NonMii::from_eeprom(0x0700), None);
}

#[test]
fn emulated_mii_is_a_link_up_at_10_half_that_ignores_writes() {
    let mut m = phy::EmulatedMii;
    let p = phy::EmulatedMii::PHY;
    let st = phy::link_state(&mut m, &p).unwrap();
    // Up, no partner page: parallel detection at 10 Mb/s, half duplex (what e100.c reports),
    // and no flow control.
    assert!(st.up && !st.was_down && st.autoneg && !st.lp_autoneg);
    assert_eq!(
        st.mode,
        LinkMode {
            speed: 10,
            full_duplex: false
        }
    );
    assert_eq!(st.pause, phy::Pause::default());
    // The configuration the driver builds for such a board (no flow control) is already what
    // the emulation advertises: bring-up writes nothing, and a reset completes at once.
    let bmsr = phy::Mdio::read(&mut m, 0, phy::MII_BMSR).unwrap();
    let c = LinkConfig::new(phy::abilities(bmsr), false);
    assert_eq!(phy::ensure(&mut m, &p, &c), Some(false));
    phy::reset_start(&mut m, &p).unwrap();
    assert_eq!(phy::reset_done(&mut m, &p), Some(true));
    // 100 Mb/s is refused: the emulation only has 10.
    let mut c100 = c;
    c100.autoneg = false;
    c100.forced = LinkMode {
        speed: 100,
        full_duplex: true,
    };
    assert_eq!(phy::check(&c100, phy::abilities(bmsr)), None);
}

#[test]
fn every_bmcr_write_goes_through_the_82552_hook() {
    // An SIOCSMIIREG write of BMCR (at the PHY's address, or any: the 82552 answers at all)
    // gets the hook's speed and duplex, as e100.c's MDIO writes all do; other registers and
    // other PHYs are written as given.
    let mut regs = qemu_phy();
    regs[4] = 0x05e1;
    let mut bus = Bus::with([(1, regs)]);
    let v = Phy {
        addr: 1,
        id: phy::PHY_82552_V,
    };
    assert!(phy::write_reg(&mut bus, &v, 1, MII_BMCR, 0x1200));
    assert!(phy::write_reg(&mut bus, &v, 5, MII_BMCR, 0x1200));
    assert!(phy::write_reg(&mut bus, &v, 1, 4, 0x0101));
    assert!(phy::write_reg(
        &mut bus,
        &QEMU_PHY_AT_1,
        1,
        MII_BMCR,
        0x1200
    ));
    assert_eq!(
        bus.writes,
        [
            (1, MII_BMCR, 0x3300),
            (5, MII_BMCR, 0x3300),
            (1, 4, 0x0101),
            (1, MII_BMCR, 0x1200)
        ]
    );
}

#[test]
fn the_82552_sleeps_with_reverse_autonegotiation() {
    let mut regs = qemu_phy();
    regs[0x14] = 0x0001;
    let mut bus = Bus::with([(1, regs)]);
    let v = Phy {
        addr: 1,
        id: phy::PHY_82552_V,
    };
    phy::sleep_mode(&mut bus, &v, true).unwrap();
    phy::sleep_mode(&mut bus, &v, false).unwrap();
    phy::sleep_mode(&mut bus, &QEMU_PHY_AT_1, true).unwrap();
    assert_eq!(bus.writes, [(1, 0x14, 0x0601), (1, 0x14, 0x0401)]);
}
