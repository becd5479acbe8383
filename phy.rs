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
/// Autonegotiation expansion register.
pub(crate) const MII_EXPANSION: u8 = 0x06;
/// 82555 status and control (register 16): bit 1 set at 100 Mb/s, bit 0 at full duplex; bit 15
/// says the PHY can switch MDI/MDI-X (e100.c's `MII_TPISTATUS`).
pub(crate) const MII_TPISTATUS: u8 = 0x10;
/// NSC DP83840: congestion control register.
pub(crate) const MII_NSC_CONG: u8 = 0x17;
/// LED control (the 82552 has its own override register).
const MII_LED_CONTROL: u8 = 0x1b;
const MII_82552_LED_OVERRIDE: u8 = 0x19;
/// 82555 and later: special control (MDI/MDI-X automatic switching).
pub(crate) const MII_NCONFIG: u8 = 0x1c;

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

/// BMCR: reset the PHY (self-clearing).
pub(crate) const BMCR_RESET: u16 = 0x8000;
/// BMCR: restart autonegotiation (self-clearing).
pub(crate) const BMCR_ANRESTART: u16 = 0x0200;
/// BMCR: power down.
pub(crate) const BMCR_PDOWN: u16 = 0x0800;
/// ADVERTISE/LPA: symmetric PAUSE.
pub(crate) const ADV_PAUSE: u16 = 0x0400;
/// ADVERTISE/LPA: asymmetric PAUSE.
pub(crate) const ADV_PAUSE_ASYM: u16 = 0x0800;
/// ADVERTISE/LPA: the four 10/100 technology bits.
pub(crate) const ADV_TECH: u16 = ADV_10HALF | ADV_10FULL | ADV_100HALF | ADV_100FULL;
/// ADVERTISE: the IEEE 802.3 selector field.
pub(crate) const ADV_CSMA: u16 = 0x0001;
/// BMSR abilities.
pub(crate) const BMSR_10HALF: u16 = 0x0800;
pub(crate) const BMSR_10FULL: u16 = 0x1000;
pub(crate) const BMSR_100HALF: u16 = 0x2000;
pub(crate) const BMSR_100FULL: u16 = 0x4000;
/// EXPANSION: the link partner is autonegotiation-able (clear after parallel detection).
pub(crate) const EXPANSION_NWAY: u16 = 0x0001;
/// NSC congestion control register: TX ready, congestion control enable.
const NSC_CONG_TXREADY: u16 = 0x0400;
const NSC_CONG_ENABLE: u16 = 0x0100;
/// NCONFIG: automatic MDI/MDI-X switching.
const NCONFIG_AUTO_SWITCH: u16 = 0x0080;
/// TPISTATUS: the PHY can switch MDI/MDI-X.
const TPISTATUS_MDIX_ABLE: u16 = 0x8000;
/// The 82552's ID, matched whole as e100.c does.
pub(crate) const PHY_82552_V: u32 = 0xd061_004d;
/// The NSC DP83840's ID (model bits).
pub(crate) const PHY_NSC_TX: u32 = 0x5C00_2000;

/// BMCR: electrically isolate the PHY from the MII.
pub(crate) const BMCR_ISOLATE: u16 = 0x0400;
/// BMCR: loopback (the PHY returns what the MAC sends; the offline self-test).
pub(crate) const BMCR_LOOPBACK: u16 = 0x4000;
/// BMSR: link is up (latched low: read twice for the current state).
pub(crate) const BMSR_LSTATUS: u16 = 0x0004;
/// BMSR: the PHY can autonegotiate.
pub(crate) const BMSR_ANEGCAPABLE: u16 = 0x0008;
/// BMSR: autonegotiation complete.
pub(crate) const BMSR_ANEGCOMPLETE: u16 = 0x0020;

/// The highest PHY address on an MDI bus.
pub(crate) const MAX_ADDR: u8 = 31;

/// An MDI bus.
pub(crate) trait Mdio {
    /// Reads register `reg` of the PHY at `addr`; `None` if the bus did not answer in time.
    fn read(&mut self, addr: u8, reg: u8) -> Option<u16>;
    /// Writes `val` to register `reg` of the PHY at `addr`; `false` if the bus timed out.
    fn write(&mut self, addr: u8, reg: u8, val: u16) -> bool;
}

/// A board without an MII PHY (an 82503 serial interface, or a Seeq 80C24 AutoDUPLEX adapter
/// behind it), which no scan finds: the EEPROM's PHY interface type (word 6, bits 8-11) says
/// so, and e100.c then emulates the registers a driver reads. The 8255x is then configured
/// for the 82503 serial interface (Configure's MII bit clear); its duplex follows the
/// adapter's FDX# pin, which software cannot read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NonMii {
    /// "No such PHY" (e100.c's `NoSuchPhy`).
    NoSuchPhy,
    /// Intel 82503 serial interface.
    I82503,
    /// Seeq 80C24 (the one case e100.c reports as tested).
    S80C24,
}

impl NonMii {
    /// The board's non-MII interface from EEPROM word 6, or `None` if the EEPROM names an
    /// MII PHY (then a scan that finds nothing is a fault).
    pub(crate) fn from_eeprom(word6: u16) -> Option<NonMii> {
        match (word6 >> 8) & 0x0f {
            0 => Some(NonMii::NoSuchPhy),
            3 => Some(NonMii::I82503),
            6 => Some(NonMii::S80C24),
            _ => None,
        }
    }

    /// The name for the probe message.
    pub(crate) fn name(self) -> &'static str {
        match self {
            NonMii::NoSuchPhy => "no PHY",
            NonMii::I82503 => "82503",
            NonMii::S80C24 => "80C24",
        }
    }
}

/// The register file e100_rs presents for a board without an MII PHY: a link that is always
/// up at 10 Mb/s, as e100.c's emulation reports it. Nothing negotiates and the duplex is the
/// adapter's (its FDX# pin drives the MAC), so no partner page is claimed: the resolution
/// reads it as parallel detection at 10 Mb/s, half duplex, which is also what e100.c (through
/// mii.c) reports. The driver offers no link or flow-control settings on such a board and
/// does not diagnose its duplex. Writes are accepted and change nothing; the identifier reads
/// 0 (e100.c's reads all ones; nothing depends on it) and registers not listed read all ones,
/// as from an empty address.
pub(crate) struct EmulatedMii;

impl EmulatedMii {
    /// The PHY "address" of the emulation (e100.c uses 0).
    pub(crate) const PHY: Phy = Phy { addr: 0, id: 0 };
}

impl Mdio for EmulatedMii {
    fn read(&mut self, _addr: u8, reg: u8) -> Option<u16> {
        Some(match reg {
            MII_BMCR => BMCR_ANENABLE | BMCR_FULLDPLX,
            MII_BMSR => {
                BMSR_LSTATUS | BMSR_ANEGCAPABLE | BMSR_ANEGCOMPLETE | BMSR_10HALF | BMSR_10FULL
            }
            MII_PHYSID1 | MII_PHYSID2 => 0,
            MII_ADVERTISE => ADV_10HALF | ADV_10FULL | ADV_CSMA,
            MII_LPA | MII_EXPANSION => 0,
            _ => 0xffff,
        })
    }

    fn write(&mut self, _addr: u8, _reg: u8, _val: u16) -> bool {
        true
    }
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
    write_bmcr(m, phy, bmcr & !BMCR_ISOLATE)
}

/// Speed and duplex of a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LinkMode {
    /// Mb/s: 10 or 100.
    pub(crate) speed: u32,
    /// Full duplex.
    pub(crate) full_duplex: bool,
}

/// IEEE 802.3 annex 28B priority order of the technologies a 10/100 PHY can resolve to.
const PRIORITY: [(u16, LinkMode); 4] = [
    (
        ADV_100FULL,
        LinkMode {
            speed: 100,
            full_duplex: true,
        },
    ),
    (
        ADV_100HALF,
        LinkMode {
            speed: 100,
            full_duplex: false,
        },
    ),
    (
        ADV_10FULL,
        LinkMode {
            speed: 10,
            full_duplex: true,
        },
    ),
    (
        ADV_10HALF,
        LinkMode {
            speed: 10,
            full_duplex: false,
        },
    ),
];

/// The mode a link runs at: with autonegotiation, the best technology both ends advertise
/// (IEEE 802.3 priority: 100FD, 100HD, 10FD, 10HD); without, what BMCR forces.
pub(crate) fn resolve(bmcr: u16, advertise: u16, lpa: u16) -> LinkMode {
    if bmcr & BMCR_ANENABLE == 0 {
        return LinkMode {
            speed: if bmcr & BMCR_SPEED100 != 0 { 100 } else { 10 },
            full_duplex: bmcr & BMCR_FULLDPLX != 0,
        };
    }
    // Nothing in common: the link does not come up; report the lowest mode.
    PRIORITY
        .iter()
        .find(|(bit, _)| advertise & lpa & bit != 0)
        .map_or(
            LinkMode {
                speed: 10,
                full_duplex: false,
            },
            |(_, m)| *m,
        )
}

/// Flow control in each direction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Pause {
    /// PAUSE frames received are obeyed.
    pub(crate) rx: bool,
    /// PAUSE frames are sent.
    pub(crate) tx: bool,
}

/// The pause bits to advertise for what the user wants (IEEE 802.3 annex 28B.3, as Linux maps
/// it): both ways symmetric PAUSE; receive only symmetric and asymmetric (a partner that can
/// only send will then send); transmit only asymmetric.
pub(crate) fn pause_advert(want: Pause) -> u16 {
    match (want.rx, want.tx) {
        (true, true) => ADV_PAUSE,
        (true, false) => ADV_PAUSE | ADV_PAUSE_ASYM,
        (false, true) => ADV_PAUSE_ASYM,
        (false, false) => 0,
    }
}

/// Resolves flow control from both ends' advertisements (IEEE 802.3 table 28B-3). Only a
/// full-duplex link pauses.
pub(crate) fn resolve_pause(full_duplex: bool, local: u16, partner: u16) -> Pause {
    if !full_duplex {
        return Pause::default();
    }
    if local & partner & ADV_PAUSE != 0 {
        Pause { rx: true, tx: true }
    } else if local & partner & ADV_PAUSE_ASYM != 0 {
        // One end symmetric + asymmetric, the other asymmetric only: PAUSE flows from the
        // asymmetric-only end to the other.
        Pause {
            rx: local & ADV_PAUSE != 0,
            tx: partner & ADV_PAUSE != 0,
        }
    } else {
        Pause::default()
    }
}

/// What the user asked of the link (`ethtool -s`, `ethtool -A`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LinkConfig {
    /// Autonegotiate (else force `forced`).
    pub(crate) autoneg: bool,
    /// The technologies to advertise (ADVERTISE bits 5-8).
    pub(crate) advertise: u16,
    /// The mode to force with autonegotiation off.
    pub(crate) forced: LinkMode,
    /// Negotiate flow control (else `pause` applies as set, on a full-duplex link).
    pub(crate) pause_autoneg: bool,
    /// The flow control wanted.
    pub(crate) pause: Pause,
}

impl LinkConfig {
    /// The default: autonegotiate everything the PHY can do, flow control both ways when the
    /// MAC has it.
    pub(crate) fn new(abilities: u16, mac_pause: bool) -> Self {
        LinkConfig {
            autoneg: true,
            advertise: abilities & ADV_TECH,
            forced: LinkMode {
                speed: 100,
                full_duplex: false,
            },
            pause_autoneg: mac_pause,
            pause: Pause {
                rx: mac_pause,
                tx: mac_pause,
            },
        }
    }

    /// The ADVERTISE register for this configuration, keeping the bits of `old` it does not
    /// own (next page, remote fault, the selector).
    pub(crate) fn advertise_reg(&self, old: u16) -> u16 {
        let keep = old & !(ADV_TECH | ADV_PAUSE | ADV_PAUSE_ASYM);
        let pause = if self.pause_autoneg {
            pause_advert(self.pause)
        } else {
            0
        };
        keep | ADV_CSMA | self.advertise | pause
    }

    /// The BMCR for this configuration, keeping nothing of the old value but what it does not
    /// own (loopback, collision test): ISOLATE, power-down and reset clear.
    pub(crate) fn bmcr(&self, old: u16) -> u16 {
        let keep = old
            & !(BMCR_RESET
                | BMCR_ANENABLE
                | BMCR_ANRESTART
                | BMCR_SPEED100
                | BMCR_FULLDPLX
                | BMCR_ISOLATE
                | BMCR_PDOWN);
        if self.autoneg {
            keep | BMCR_ANENABLE | BMCR_ANRESTART
        } else {
            keep | if self.forced.speed == 100 {
                BMCR_SPEED100
            } else {
                0
            } | if self.forced.full_duplex {
                BMCR_FULLDPLX
            } else {
                0
            }
        }
    }
}

/// The technologies a PHY has, from BMSR, as ADVERTISE bits.
pub(crate) fn abilities(bmsr: u16) -> u16 {
    [
        (BMSR_10HALF, ADV_10HALF),
        (BMSR_10FULL, ADV_10FULL),
        (BMSR_100HALF, ADV_100HALF),
        (BMSR_100FULL, ADV_100FULL),
    ]
    .iter()
    .filter(|(b, _)| bmsr & b != 0)
    .fold(0, |a, (_, t)| a | t)
}

/// Validates an `ethtool -s` request against the PHY's `abilities` (ADVERTISE bits):
/// `None` when the PHY cannot do it (the caller answers `EINVAL` and changes nothing).
pub(crate) fn check(cfg: &LinkConfig, abilities: u16) -> Option<()> {
    if cfg.autoneg {
        // Something to advertise, and nothing the PHY lacks.
        (cfg.advertise != 0
            && cfg.advertise & !abilities & ADV_TECH == 0
            && cfg.advertise & !ADV_TECH == 0)
            .then_some(())
    } else {
        let bit = PRIORITY.iter().find(|(_, m)| *m == cfg.forced)?.0;
        (abilities & bit != 0).then_some(())
    }
}

/// The link as the PHY reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LinkState {
    /// Link up now.
    pub(crate) up: bool,
    /// The link went down since BMSR was last read (its link bit latches low).
    pub(crate) was_down: bool,
    /// The resolved (or forced) speed and duplex.
    pub(crate) mode: LinkMode,
    /// Autonegotiation on.
    pub(crate) autoneg: bool,
    /// What we advertise (ADVERTISE).
    pub(crate) advertise: u16,
    /// What the partner advertised (LPA), 0 when it did not autonegotiate.
    pub(crate) lpa: u16,
    /// The partner autonegotiated (clear after parallel detection or with autoneg off).
    pub(crate) lp_autoneg: bool,
    /// The resolved flow control (before any forced setting the MAC applies).
    pub(crate) pause: Pause,
}

/// Reads the whole link state: BMSR (twice: link latches low), BMCR, ADVERTISE, LPA and the
/// expansion register. With autonegotiation on, the mode is resolved from both ends' pages,
/// or, after parallel detection (the partner did not negotiate), from the one technology bit
/// the PHY detected, at half duplex, as IEEE 802.3 28.2.3.1 requires.
pub(crate) fn link_state<M: Mdio>(m: &mut M, phy: &Phy) -> Option<LinkState> {
    let latched = m.read(phy.addr, MII_BMSR)?;
    let bmsr = m.read(phy.addr, MII_BMSR)?;
    let bmcr = m.read(phy.addr, MII_BMCR)?;
    let adv = m.read(phy.addr, MII_ADVERTISE)?;
    let lpa = m.read(phy.addr, MII_LPA)?;
    let exp = m.read(phy.addr, MII_EXPANSION)?;
    let mut st = state_from(bmcr, bmsr, adv, lpa, exp);
    st.was_down = latched & BMSR_LSTATUS == 0;
    Some(st)
}

/// [`link_state`] on register values.
pub(crate) fn state_from(bmcr: u16, bmsr: u16, adv: u16, lpa: u16, exp: u16) -> LinkState {
    let autoneg = bmcr & BMCR_ANENABLE != 0;
    let lp_autoneg = autoneg && exp & EXPANSION_NWAY != 0;
    let mut mode = resolve(bmcr, adv, lpa);
    if autoneg && !lp_autoneg {
        // Parallel detection: half duplex, at whatever speed was detected.
        mode.full_duplex = false;
    }
    let pause = if lp_autoneg {
        resolve_pause(mode.full_duplex, adv, lpa)
    } else {
        Pause::default()
    };
    LinkState {
        up: bmsr & BMSR_LSTATUS != 0,
        was_down: false,
        mode,
        autoneg,
        advertise: adv,
        lpa: if lp_autoneg { lpa } else { lpa & ADV_TECH },
        lp_autoneg,
        pause,
    }
}

/// Starts a PHY reset (e100.c resets the PHY for `ethtool -s`). The reset bit clears itself
/// within 500 ms on every PHY (IEEE 802.3 22.2.4.1.1): poll [`reset_done`], sleeping in
/// between (not holding the MDI bus), then re-apply [`quirks`] and [`apply`] the configuration,
/// which the reset cleared.
pub(crate) fn reset_start<M: Mdio>(m: &mut M, phy: &Phy) -> Option<()> {
    m.write(phy.addr, MII_BMCR, BMCR_RESET).then_some(())
}

/// Whether a reset started with [`reset_start`] is over.
pub(crate) fn reset_done<M: Mdio>(m: &mut M, phy: &Phy) -> Option<bool> {
    Some(m.read(phy.addr, MII_BMCR)? & BMCR_RESET == 0)
}

/// Applies `cfg`: the advertisement first, then BMCR (restarting autonegotiation, or forcing
/// the mode). `None` on an MDI timeout.
pub(crate) fn apply<M: Mdio>(m: &mut M, phy: &Phy, cfg: &LinkConfig) -> Option<()> {
    let adv = m.read(phy.addr, MII_ADVERTISE)?;
    m.write(phy.addr, MII_ADVERTISE, cfg.advertise_reg(adv))
        .then_some(())?;
    let bmcr = m.read(phy.addr, MII_BMCR)?;
    write_bmcr(m, phy, cfg.bmcr(bmcr))
}

/// Applies `cfg` only if the PHY does not already do it (its advertisement, or its BMCR mode
/// bits, differ): at bring-up, so that the configuration the driver reports (the default one
/// included, which advertises PAUSE where the MAC can do it) is what the PHY negotiates, without
/// restarting a negotiation that already says the right thing. With autonegotiation on, BMCR's
/// speed and duplex bits mean nothing (QEMU's PHY leaves 100 Mb/s set there) and are not
/// compared. Returns whether it wrote.
pub(crate) fn ensure<M: Mdio>(m: &mut M, phy: &Phy, cfg: &LinkConfig) -> Option<bool> {
    const MODE: u16 = BMCR_ANENABLE | BMCR_ISOLATE | BMCR_PDOWN;
    let mode = if cfg.autoneg {
        MODE
    } else {
        MODE | BMCR_SPEED100 | BMCR_FULLDPLX
    };
    let adv = m.read(phy.addr, MII_ADVERTISE)?;
    let bmcr = m.read(phy.addr, MII_BMCR)?;
    if adv == cfg.advertise_reg(adv) && bmcr & mode == cfg.bmcr(bmcr) & mode {
        return Some(false);
    }
    apply(m, phy, cfg)?;
    Some(true)
}

/// Restarts autonegotiation (`ethtool -r`); `Some(false)` when it is off (nothing to restart).
pub(crate) fn restart_an<M: Mdio>(m: &mut M, phy: &Phy) -> Option<bool> {
    let bmcr = m.read(phy.addr, MII_BMCR)?;
    if bmcr & BMCR_ANENABLE == 0 {
        return Some(false);
    }
    write_bmcr(m, phy, (bmcr | BMCR_ANRESTART) & !BMCR_ISOLATE)?;
    Some(true)
}

/// Where automatic MDI/MDI-X switching is set up (e100.c's rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mdix {
    /// Not at all.
    Off,
    /// Always: the 82550 and later.
    Always,
    /// If the PHY says it can (TPISTATUS bit 15): an ICH part whose EEPROM enables it.
    IfCapable,
}

/// The per-PHY set-up e100.c does after selecting the PHY: the NSC DP83840's congestion
/// control off, and MDI/MDI-X auto-switching per `mdix`, on for an autonegotiated link and off
/// for a forced one (`forced`).
pub(crate) fn quirks<M: Mdio>(m: &mut M, phy: &Phy, mdix: Mdix, forced: bool) -> Option<()> {
    if phy.id & PHY_MODEL_MASK == PHY_NSC_TX {
        let cong = m.read(phy.addr, MII_NSC_CONG)?;
        m.write(
            phy.addr,
            MII_NSC_CONG,
            (cong | NSC_CONG_TXREADY) & !NSC_CONG_ENABLE,
        )
        .then_some(())?;
    }
    let set = match mdix {
        Mdix::Off => false,
        Mdix::Always => true,
        Mdix::IfCapable => m.read(phy.addr, MII_TPISTATUS)? & TPISTATUS_MDIX_ABLE != 0,
    };
    if set {
        let v = if forced { 0 } else { NCONFIG_AUTO_SWITCH };
        m.write(phy.addr, MII_NCONFIG, v).then_some(())?;
    }
    Some(())
}

/// Writes BMCR of `phy`, through [`write_reg`]'s hook.
pub(crate) fn write_bmcr<M: Mdio>(m: &mut M, phy: &Phy, val: u16) -> Option<()> {
    write_reg(m, phy, phy.addr, MII_BMCR, val).then_some(())
}

/// Writes register `reg` at MDI address `addr` (an `SIOCSMIIREG`, or the driver's own) through
/// `phy`'s write hook, as e100.c sends every MDIO write through its PHY's. The 82552 sometimes
/// fails to negotiate 100 Mb/s although it advertises it, unless a BMCR write that enables or
/// restarts autonegotiation also carries the best advertised speed and duplex: that is added
/// (at any address: the 82552 answers on all of them). Whether the write completed.
pub(crate) fn write_reg<M: Mdio>(m: &mut M, phy: &Phy, addr: u8, reg: u8, mut val: u16) -> bool {
    if reg == MII_BMCR && phy.id == PHY_82552_V && val & (BMCR_ANRESTART | BMCR_ANENABLE) != 0 {
        let Some(adv) = m.read(phy.addr, MII_ADVERTISE) else {
            return false;
        };
        if adv & ADV_100FULL != 0 {
            val |= BMCR_SPEED100 | BMCR_FULLDPLX;
        } else if adv & ADV_100HALF != 0 {
            val |= BMCR_SPEED100;
        }
    }
    m.write(addr, reg, val)
}

/// The 82552's SmartSpeed register, and its reverse-autonegotiation bits (e100.c's
/// `E100_82552_SMARTSPEED`, `E100_82552_REV_ANEG`, `E100_82552_ANEG_NOW`).
const MII_82552_SMARTSPEED: u8 = 0x14;
const SMARTSPEED_REV_ANEG: u16 = 0x0200;
const SMARTSPEED_ANEG_NOW: u16 = 0x0400;

/// Before the system sleeps with wake-up armed: the 82552 renegotiates down to the lowest
/// common speed (reverse autonegotiation, "now"), to save power while it waits, as e100.c does;
/// [`sleep_mode`] with `false` turns it off again at resume. Nothing on other PHYs. `None` on
/// an MDI timeout.
pub(crate) fn sleep_mode<M: Mdio>(m: &mut M, phy: &Phy, on: bool) -> Option<()> {
    if phy.id != PHY_82552_V {
        return Some(());
    }
    let v = m.read(phy.addr, MII_82552_SMARTSPEED)?;
    let v = if on {
        v | SMARTSPEED_REV_ANEG | SMARTSPEED_ANEG_NOW
    } else {
        v & !SMARTSPEED_REV_ANEG
    };
    m.write(phy.addr, MII_82552_SMARTSPEED, v).then_some(())
}

/// What `ethtool -p` wants of the LEDs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Led {
    /// Lit.
    On,
    /// Dark.
    Off,
    /// Back to showing link and activity.
    Normal,
}

/// The LED register of `phy` and the value that does `led` (e100.c's values: the 82552's
/// override register; elsewhere register 0x1b, where "on" differs before the 82559).
pub(crate) fn led_write(phy: &Phy, mac_82559: bool, led: Led) -> (u8, u16) {
    if phy.id == PHY_82552_V {
        let v = match led {
            Led::On => 0x000f,
            Led::Off => 0x000a,
            Led::Normal => 0,
        };
        return (MII_82552_LED_OVERRIDE, v);
    }
    let v = match led {
        Led::On if mac_82559 => 0x05,
        Led::On => 0x07,
        Led::Off => 0x04,
        Led::Normal => 0,
    };
    (MII_LED_CONTROL, v)
}
