// SPDX-License-Identifier: GPL-2.0

//! The PHY: finding it on the MDI bus, identifying it, and reading the link state.
//!
//! The 8255x reaches its PHY through the MDI control CSR (Management Data Interface, IEEE 802.3
//! clause 22). Intel boards put the PHY at address 1, so the scan tries 1 first, then 0 and
//! 2..31; every other address is then isolated and the chosen PHY un-isolated, last, so that
//! only it drives the MII.
//!
//! Kernel-independent (only `core`): register access goes through [`Mdio`], which the driver
//! implements on the CSR and the host tests implement on a simulated PHY.

/// Basic mode control register.
pub(crate) const MII_BMCR: u8 = 0x00;
/// Basic mode status register.
pub(crate) const MII_BMSR: u8 = 0x01;
/// PHY identifier, high 16 bits.
pub(crate) const MII_PHYSID1: u8 = 0x02;
/// PHY identifier, low 16 bits.
pub(crate) const MII_PHYSID2: u8 = 0x03;

/// Autonegotiation advertisement register.
pub(crate) const MII_ADVERTISE: u8 = 0x04;
/// Link partner ability register.
pub(crate) const MII_LPA: u8 = 0x05;

/// BMCR: 100 Mb/s when autonegotiation is off.
pub(crate) const BMCR_SPEED100: u16 = 0x2000;
/// BMCR: autonegotiation enabled.
pub(crate) const BMCR_ANENABLE: u16 = 0x1000;
/// BMCR: full duplex when autonegotiation is off.
pub(crate) const BMCR_FULLDPLX: u16 = 0x0100;
/// ADVERTISE/LPA technology bits.
pub(crate) const ADV_10HALF: u16 = 0x0020;
pub(crate) const ADV_10FULL: u16 = 0x0040;
pub(crate) const ADV_100HALF: u16 = 0x0080;
pub(crate) const ADV_100FULL: u16 = 0x0100;

/// BMCR: electrically isolate the PHY from the MII.
pub(crate) const BMCR_ISOLATE: u16 = 0x0400;
/// BMSR: link is up (latched low: read twice for the current state).
pub(crate) const BMSR_LSTATUS: u16 = 0x0004;

/// The highest PHY address on an MDI bus.
pub(crate) const MAX_ADDR: u8 = 31;

/// An MDI bus.
pub(crate) trait Mdio {
    /// Reads register `reg` of the PHY at `addr`; `None` if the bus did not answer in time.
    fn read(&mut self, addr: u8, reg: u8) -> Option<u16>;
    /// Writes `val` to register `reg` of the PHY at `addr`; `false` if the bus timed out.
    fn write(&mut self, addr: u8, reg: u8, val: u16) -> bool;
}

/// Known PHYs, by identifier as e100.c composes it (register 3 in the high half, register 2 in
/// the low half), with the silicon-revision nibble (bits 16-19) clear.
pub(crate) const KNOWN_PHYS: [(u32, &str); 9] = [
    (0x0000_03E0, "100A"),
    (0x0350_02A8, "100C"),
    (0x0150_02A8, "82555-TX"),
    (0x5C00_2000, "NSC-TX"),
    (0x0330_02A8, "82562-ET"),
    (0x0320_02A8, "82562-EM"),
    (0x0310_02A8, "82562-EK"),
    (0x0170_02A8, "82562-EH"),
    (0xd061_004d, "82552-V"),
];

/// Masks the silicon revision out of a [`Phy::id`].
pub(crate) const PHY_MODEL_MASK: u32 = 0xfff0_ffff;

/// The PHY that was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Phy {
    /// Its MDI address.
    pub(crate) addr: u8,
    /// Its identifier: register 3 (PHYSID2) in the high half, register 2 (PHYSID1, the OUI's
    /// top bits) in the low half, as e100.c composes it.
    pub(crate) id: u32,
}

impl Phy {
    /// The part's name, if it is one the 8255x boards carry.
    pub(crate) fn name(&self) -> &'static str {
        // The low nibble of register 3 is the silicon revision; the 82552's ID is matched whole,
        // as e100.c does.
        KNOWN_PHYS
            .iter()
            .find(|(id, _)| *id == self.id || *id == (self.id & PHY_MODEL_MASK))
            .map(|(_, n)| *n)
            .unwrap_or("unknown")
    }
}

/// The order the scan visits addresses: 1 (where Intel boards put the PHY), 0, then 2..31.
pub(crate) fn scan_order() -> impl Iterator<Item = u8> {
    [1u8, 0].into_iter().chain(2..=MAX_ADDR)
}

/// Whether a PHY answers at `addr`: an empty address reads all ones (bus pulled up) or, on some
/// MDI implementations, all zeros in both BMCR and BMSR.
fn present<M: Mdio>(m: &mut M, addr: u8) -> bool {
    let Some(bmcr) = m.read(addr, MII_BMCR) else {
        return false;
    };
    // BMSR twice: the first read returns latched bits.
    let _ = m.read(addr, MII_BMSR);
    let Some(bmsr) = m.read(addr, MII_BMSR) else {
        return false;
    };
    !(bmcr == 0xffff || (bmcr == 0 && bmsr == 0))
}

/// Finds the PHY and reads its identifier. The caller then selects it ([`select`]).
pub(crate) fn probe<M: Mdio>(m: &mut M) -> Option<Phy> {
    let addr = scan_order().find(|a| present(m, *a))?;
    let hi = m.read(addr, MII_PHYSID1)?; // OUI bits 3-18
    let lo = m.read(addr, MII_PHYSID2)?; // OUI bits 19-24, model, revision
    Some(Phy {
        addr,
        id: (u32::from(lo) << 16) | u32::from(hi),
    })
}

/// Makes `phy` the one PHY on the MII: isolates every other address, then clears ISOLATE on
/// `phy`, last, with the BMCR value read before any of it. The 82552 answers on every address
/// and mirrors its registers there, so the first step isolates it too and the last write is
/// what brings it back; e100.c does exactly this for the 82552 and, for other PHYs, clears the
/// bit in place during its loop, which ends in the same state. Writes to empty addresses are
/// harmless. Done at probe and on every bring-up (the chip's reset may reset the PHY), as
/// e100.c's `e100_phy_init` is. `None` if the MDI bus timed out on `phy`.
pub(crate) fn select<M: Mdio>(m: &mut M, phy: &Phy) -> Option<()> {
    let bmcr = m.read(phy.addr, MII_BMCR)?;
    for other in (0..=MAX_ADDR).filter(|a| *a != phy.addr) {
        m.write(other, MII_BMCR, BMCR_ISOLATE);
    }
    m.write(phy.addr, MII_BMCR, bmcr & !BMCR_ISOLATE)
        .then_some(())
}

/// Whether the link is up now (BMSR's link bit latches low, so it is read twice).
pub(crate) fn link_up<M: Mdio>(m: &mut M, phy: &Phy) -> Option<bool> {
    let _ = m.read(phy.addr, MII_BMSR)?;
    Some(m.read(phy.addr, MII_BMSR)? & BMSR_LSTATUS != 0)
}

/// Speed and duplex of a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LinkMode {
    /// Mb/s: 10 or 100.
    pub(crate) speed: u32,
    /// Full duplex.
    pub(crate) full_duplex: bool,
}

/// The mode a link runs at: with autonegotiation, the best technology both ends advertise
/// (IEEE 802.3 priority: 100FD, 100HD, 10FD, 10HD); without, what BMCR forces.
pub(crate) fn resolve(bmcr: u16, advertise: u16, lpa: u16) -> LinkMode {
    if bmcr & BMCR_ANENABLE == 0 {
        return LinkMode {
            speed: if bmcr & BMCR_SPEED100 != 0 { 100 } else { 10 },
            full_duplex: bmcr & BMCR_FULLDPLX != 0,
        };
    }
    // IEEE 802.3 Annex 28B priority order.
    const PRIORITY: [(u16, u32, bool); 4] = [
        (ADV_100FULL, 100, true),
        (ADV_100HALF, 100, false),
        (ADV_10FULL, 10, true),
        (ADV_10HALF, 10, false),
    ];
    let common = advertise & lpa;
    // Nothing in common: the link does not come up; report the lowest mode.
    let (speed, full_duplex) = PRIORITY
        .iter()
        .find(|(bit, _, _)| common & bit != 0)
        .map_or((10, false), |(_, s, f)| (*s, *f));
    LinkMode { speed, full_duplex }
}

/// Reads the PHY and resolves its link mode.
pub(crate) fn link_mode<M: Mdio>(m: &mut M, phy: &Phy) -> Option<LinkMode> {
    let bmcr = m.read(phy.addr, MII_BMCR)?;
    let adv = m.read(phy.addr, MII_ADVERTISE)?;
    let lpa = m.read(phy.addr, MII_LPA)?;
    Some(resolve(bmcr, adv, lpa))
}
