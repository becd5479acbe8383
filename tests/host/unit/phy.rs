use crate::phy::{self, Mdio, Phy, BMCR_ISOLATE, MII_BMCR};
use std::collections::HashMap;

/// An MDI bus with PHYs at some addresses; empty addresses read `empty`.
struct Bus {
    phys: HashMap<u8, [u16; 32]>,
    empty: u16,
    writes: Vec<(u8, u8, u16)>,
    link_latched_low: bool,
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
            r[reg as usize] = val;
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

#[test]
fn finds_qemu_phy_at_address_1() {
    let mut bus = Bus {
        phys: HashMap::from([(1, qemu_phy())]),
        empty: 0,
        writes: vec![],
        link_latched_low: false,
    };
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
    assert_eq!(phy::link_up(&mut bus, &p), Some(true));
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
    let mut bus = Bus {
        phys: HashMap::from([(1, regs)]),
        empty: 0,
        writes: vec![],
        link_latched_low: false,
    };
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
    assert_eq!(phy::link_up(&mut bus, &p), Some(true));
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
