// SPDX-License-Identifier: GPL-2.0

//! ethtool operations.
//!
//! Link settings and pause go through [`phy`]: a request is checked against what the PHY and
//! the MAC can do before anything is written, so a refused request (`EINVAL`) leaves the device
//! as it was. An accepted one is applied to the PHY and drops carrier; the watchdog reports the
//! new link and reconfigures the MAC (duplex, flow control) when it comes up.

use crate::{desc, diag, eeprom, hw, phy, rings, stats, EepromPins, LinkCtl, Nic, Rfa, DRV_NAME};
use core::sync::atomic::Ordering;
use kernel::net::{
    dev::{Device, Rtnl},
    ethtool::{self, Duplex, LinkKsettings, LinkModes, PauseParam, PhysId, RingParam, WolOpts},
};
use kernel::prelude::*;
use kernel::{delay, dma_read, dma_write, netdev_info};

/// `ethtool -e` reports this magic, as e100.c does, and `ethtool -E` wants it.
const EEPROM_MAGIC: u32 = 0x1234;

/// The PHY registers in `ethtool -d` (0 to 0x1c), after the SCB word.
const REGS_PHY: usize = 0x1d;
/// `ethtool -d`'s size: e100.c's layout, so dumps of both drivers compare word for word (the
/// SCB's status and command word, the PHY registers from 0x1c down to 0, the Dump command's
/// buffer).
const REGS_LEN: usize = (1 + REGS_PHY) * 4 + crate::DUMP_WORDS * 4;

/// The `ethtool -S` names: the C driver's 31, in its order, then the diagnosis state.
const STAT_NAMES: [&str; stats::STAT_NAMES.len() + diag::STAT_NAMES.len()] = {
    let mut a = [""; stats::STAT_NAMES.len() + diag::STAT_NAMES.len()];
    let mut i = 0;
    while i < stats::STAT_NAMES.len() {
        a[i] = stats::STAT_NAMES[i];
        i += 1;
    }
    while i < a.len() {
        a[i] = diag::STAT_NAMES[i - stats::STAT_NAMES.len()];
        i += 1;
    }
    a
};

/// The technology bits of ADVERTISE/LPA and their link modes.
const TECH: [(u16, LinkModes); 4] = [
    (phy::ADV_10HALF, LinkModes::M10_HALF),
    (phy::ADV_10FULL, LinkModes::M10_FULL),
    (phy::ADV_100HALF, LinkModes::M100_HALF),
    (phy::ADV_100FULL, LinkModes::M100_FULL),
];

/// ADVERTISE/LPA bits (technologies and pause) as link modes.
fn modes(reg: u16) -> LinkModes {
    let mut m = TECH
        .iter()
        .filter(|(b, _)| reg & b != 0)
        .fold(LinkModes::NONE, |a, (_, l)| a | *l);
    if reg & phy::ADV_PAUSE != 0 {
        m = m | LinkModes::PAUSE;
    }
    if reg & phy::ADV_PAUSE_ASYM != 0 {
        m = m | LinkModes::ASYM_PAUSE;
    }
    m
}

/// Link modes as ADVERTISE technology bits (pause is `ethtool -A`'s business).
fn tech_bits(m: LinkModes) -> u16 {
    TECH.iter()
        .filter(|(_, l)| m.contains(*l))
        .fold(0, |a, (b, _)| a | b)
}

/// `ethtool -t`'s tests: e100.c's names, in its order.
const TESTS: [&str; 5] = [
    "Link test     (on/offline)",
    "Eeprom test   (on/offline)",
    "Self test        (offline)",
    "Mac loopback     (offline)",
    "Phy loopback     (offline)",
];

/// Configure's loopback modes (byte 10 bits 6-7), as e100.c names them.
const LB_MAC: u8 = 1;
const LB_PHY: u8 = 3;
/// The loopback frame's length.
const LB_LEN: usize = crate::LB_WORDS * 4;

/// Byte `k` of the loopback frame: to and from `mac`, the local experimental EtherType
/// 0x88b5, then a counting pattern (a frame that cannot be mistaken for another).
fn lb_byte(mac: &[u8; 6], k: usize) -> u8 {
    match k {
        0..=5 => mac[k],
        6..=11 => mac[k - 6],
        12 => 0x88,
        13 => 0xb5,
        _ => k as u8,
    }
}

impl Nic {
    /// e100.c's loopback test: the hardware brought up with Configure in loopback `mode` (the
    /// PHY's loopback bit too for [`LB_PHY`]), one frame sent, and the test passes if the
    /// frame is found in the receive ring, byte for byte. The interface is down (its rings
    /// freed), RTNL held; the hardware is left reset and the rings freed again.
    fn loopback_test(&self, dev: &Device, rfa: &mut Rfa, mode: u8) -> Result {
        // The ICH parts' PHY loopback does not work: e100.c tests the MAC loopback instead.
        let mode = if self.ich && mode == LB_PHY {
            LB_MAC
        } else {
            mode
        };
        self.loopback.store(mode, Ordering::Relaxed);
        let r = self.loopback_run(dev, rfa, mode);
        if mode == LB_PHY {
            let _ = self.with_mdio(dev.parent(), |m| {
                phy::Mdio::write(m, self.phy.addr, phy::MII_BMCR, 0)
            });
        }
        self.loopback.store(0, Ordering::Relaxed);
        self.down(dev, rfa);
        r
    }

    fn loopback_run(&self, dev: &Device, rfa: &mut Rfa, mode: u8) -> Result {
        self.up_with(dev, rfa, true)?;
        let bound = dev.parent();
        if mode == LB_PHY
            && !self.with_mdio(bound, |m| {
                phy::Mdio::write(m, self.phy.addr, phy::MII_BMCR, phy::BMCR_LOOPBACK)
            })?
        {
            return Err(ETIMEDOUT);
        }
        let mac = dev.mac_addr();
        let mut frame = [0u8; LB_LEN];
        for (k, b) in frame.iter_mut().enumerate() {
            *b = lb_byte(&mac, k);
        }
        let mut words = [0u32; crate::LB_WORDS];
        for (i, w) in words.iter_mut().enumerate() {
            let k = 4 * i;
            *w = u32::from_ne_bytes([
                lb_byte(&mac, k),
                lb_byte(&mac, k + 1),
                lb_byte(&mac, k + 2),
                lb_byte(&mac, k + 3),
            ]);
        }
        dma_write!(self.mem, 0, lb_frame = words)?;
        let io = self.csr(bound)?;
        {
            let mut cu = self.cu.lock();
            let ring = cu.ring.as_mut().ok_or(ENODEV)?;
            let body = desc::tx_body(
                ring.next_cb_addr(),
                self.mem_addr(core::mem::offset_of!(crate::Mem, lb_frame)),
                LB_LEN as u16,
                crate::TX_THRESHOLD,
            );
            // Before the CU can complete it (see `Nic::command`).
            self.tx_busy.store(true, Ordering::Relaxed);
            ring.issue(io, desc::tx_command(self.mac, false), body.words())?;
        }
        // e100.c gives it 10 ms; a slow emulator gets up to 100.
        for _ in 0..10 {
            delay::msleep(10);
            if rfa.as_ref().is_some_and(|r| r.holds_frame(&frame)) {
                return Ok(());
            }
        }
        Err(EIO)
    }

    /// Marks the start or the end of an ethtool rebuild of the hardware, under `link` (see
    /// `rebuilding`): a watchdog run in flight finishes before the rebuild starts.
    pub(crate) fn rebuild(&self, on: bool) {
        let _ctl = self.link.lock();
        self.rebuilding.store(on, Ordering::Relaxed);
    }

    /// Applies `cfg` to the PHY and records it. With `reset` the PHY is reset first, as e100.c
    /// does for `ethtool -s`: the reset is polled with the MDI bus released and sleeping in
    /// between (up to 500 ms, IEEE 802.3 22.2.4.1.1), and the quirks the reset cleared are set
    /// again. `EIO` for a PHY that does not answer or stays in reset.
    fn apply_link(
        &self,
        dev: &Device,
        ctl: &mut LinkCtl,
        cfg: phy::LinkConfig,
        reset: bool,
    ) -> Result {
        let bound = dev.parent();
        if reset {
            self.with_mdio(bound, |m| phy::reset_start(m, &self.phy))?
                .ok_or(EIO)?;
            let mut done = false;
            for _ in 0..100 {
                delay::msleep(5);
                if self
                    .with_mdio(bound, |m| phy::reset_done(m, &self.phy))?
                    .ok_or(EIO)?
                {
                    done = true;
                    break;
                }
            }
            if !done {
                return Err(EIO);
            }
        }
        self.with_mdio(bound, |m| {
            phy::quirks(m, &self.phy, self.mdix, !cfg.autoneg)?;
            phy::apply(m, &self.phy, &cfg)
        })?
        .ok_or(EIO)?;
        ctl.cfg = cfg;
        self.link_reset(dev, ctl);
        Ok(())
    }
}

#[vtable]
impl ethtool::Operations for Nic {
    fn get_drvinfo(&self, _dev: &Device, info: &mut ethtool::DrvInfo) {
        info.set_driver(DRV_NAME);
        info.set_bus_info(self.pdev.name());
    }

    fn get_link(&self, dev: &Device) -> bool {
        self.link_up(dev.parent())
    }

    fn get_link_ksettings(&self, dev: &Device, k: &mut LinkKsettings) -> Result {
        let ctl = self.link.lock();
        let st = self.phy_state(dev.parent()).ok_or(EIO)?;
        let pause = if self.mac_pause() {
            LinkModes::PAUSE | LinkModes::ASYM_PAUSE
        } else {
            LinkModes::NONE
        };
        let base = LinkModes::AUTONEG | LinkModes::TP | LinkModes::MII;
        k.set_mii_port(self.phy.addr);
        k.set_supported(modes(ctl.abilities) | base | pause);
        // ADVERTISE as it stands, also with autonegotiation off: `ethtool -s DEV autoneg on`
        // asks for exactly what we report here.
        let adv = modes(st.advertise) | LinkModes::TP | LinkModes::MII;
        k.set_advertising(if st.autoneg {
            adv | LinkModes::AUTONEG
        } else {
            adv
        });
        if st.autoneg && st.up {
            let lp = modes(st.lpa);
            k.set_lp_advertising(if st.lp_autoneg {
                lp | LinkModes::AUTONEG
            } else {
                lp
            });
        }
        k.set_autoneg(st.autoneg);
        if st.up || !st.autoneg {
            k.set_speed(Some(st.mode.speed));
            k.set_duplex(if st.mode.full_duplex {
                Duplex::Full
            } else {
                Duplex::Half
            });
        }
        Ok(())
    }

    fn set_link_ksettings(&self, dev: &Device, k: &LinkKsettings) -> Result {
        if self.non_mii.is_some() {
            // Nothing to set: the adapter's link is what it is.
            return Err(EOPNOTSUPP);
        }
        // mii.c's checks: an MII port, our PHY's address.
        if k.mii_port() != Some(self.phy.addr) {
            return Err(EINVAL);
        }
        // MDI/MDI-X is the PHY's own business (automatic where the part has it, e100.c's
        // rule): a forced crossover, or automatic where there is none, cannot be had.
        match k.mdix_request() {
            Some(Some(_)) => return Err(EOPNOTSUPP),
            Some(None) if matches!(self.mdix, phy::Mdix::Off) => return Err(EOPNOTSUPP),
            _ => {}
        }
        let mut ctl = self.link.lock();
        let mut cfg = ctl.cfg;
        cfg.autoneg = k.autoneg();
        if cfg.autoneg {
            let adv = k.advertising().ok_or(EINVAL)?;
            cfg.advertise = tech_bits(adv);
        } else {
            let full = match k.duplex() {
                Duplex::Full => true,
                Duplex::Half => false,
                Duplex::Unknown => return Err(EINVAL),
            };
            cfg.forced = phy::LinkMode {
                speed: k.speed().ok_or(EINVAL)?,
                full_duplex: full,
            };
            // Pause cannot be negotiated without autonegotiation: keep what was asked, forced.
            cfg.pause_autoneg = false;
        }
        phy::check(&cfg, ctl.abilities).ok_or(EINVAL)?;
        if cfg.autoneg && !ctl.cfg.autoneg && self.mac_pause() {
            // Back to autonegotiation: pause is negotiated again.
            cfg.pause_autoneg = true;
        }
        self.apply_link(dev, &mut ctl, cfg, true)
    }

    fn nway_reset(&self, dev: &Device) -> Result {
        if self.non_mii.is_some() {
            return Err(EOPNOTSUPP);
        }
        let mut ctl = self.link.lock();
        if !self
            .with_mdio(dev.parent(), |m| phy::restart_an(m, &self.phy))?
            .ok_or(EIO)?
        {
            return Err(EINVAL);
        }
        self.link_reset(dev, &mut ctl);
        Ok(())
    }

    fn get_pauseparam(&self, _dev: &Device, p: &mut PauseParam) {
        if !self.mac_pause() {
            return;
        }
        let c = self.link.lock().cfg;
        p.set(c.pause_autoneg, c.pause.rx, c.pause.tx);
    }

    fn set_pauseparam(&self, dev: &Device, p: &PauseParam) -> Result {
        if !self.mac_pause() {
            // The 82557 has no flow control, nor a board without an MII PHY.
            return Err(EOPNOTSUPP);
        }
        let mut ctl = self.link.lock();
        let mut cfg = ctl.cfg;
        if p.autoneg() && !cfg.autoneg {
            // Nothing to negotiate pause with on a forced link.
            return Err(EINVAL);
        }
        if !p.autoneg() && !p.rx() {
            // The MAC obeys every PAUSE it receives at full duplex; only negotiation (not
            // advertising symmetric pause) keeps a partner from sending them.
            return Err(EINVAL);
        }
        cfg.pause_autoneg = p.autoneg();
        cfg.pause = phy::Pause {
            rx: p.rx(),
            tx: p.tx(),
        };
        if cfg == ctl.cfg {
            // Nothing new: only make sure the PHY says it (it may have been reset meanwhile).
            if self
                .with_mdio(dev.parent(), |m| phy::ensure(m, &self.phy, &cfg))?
                .ok_or(EIO)?
            {
                self.link_reset(dev, &mut ctl);
            }
            return Ok(());
        }
        // A pause change needs a new negotiation (or, forced, a new Configure), not a PHY reset.
        self.apply_link(dev, &mut ctl, cfg, false)
    }

    fn get_pause_stats(&self, _dev: &Device, s: &mut ethtool::PauseStats) {
        let t = self.cu.lock().totals;
        if t.dumps == 0 || !self.mac_pause() {
            return;
        }
        s.set_tx_pause_frames(t.tx_fc_pause);
        s.set_rx_pause_frames(t.rx_fc_pause);
    }

    fn get_eth_ctrl_stats(&self, _dev: &Device, s: &mut ethtool::EthCtrlStats) {
        let t = self.cu.lock().totals;
        if t.dumps == 0 || !self.mac_pause() {
            return;
        }
        // PAUSE is the only MAC control frame the 8255x sends or understands.
        s.set_mac_control_frames_transmitted(t.tx_fc_pause);
        s.set_mac_control_frames_received(t.rx_fc_pause + t.rx_fc_unsupported);
        s.set_unsupported_opcodes_received(t.rx_fc_unsupported);
    }

    fn get_wol(&self, _dev: &Device) -> (WolOpts, WolOpts) {
        if !self.wol_capable {
            return (WolOpts::NONE, WolOpts::NONE);
        }
        let on = self.wol.load(Ordering::Relaxed);
        (
            WolOpts::MAGIC,
            if on { WolOpts::MAGIC } else { WolOpts::NONE },
        )
    }

    /// Magic packet only (the 8255x's wake-up logic knows no other event), on a part that
    /// can ([`hw::wol_capable`]); the ethtool core refuses anything outside what `get_wol`
    /// reports (EINVAL) before asking. The running interface keeps magic-packet wake-up off in
    /// Configure: the MAC is armed when the system sleeps or powers off (`Nic::arm_wake`), and
    /// the PCI core arms PME# per the device's wake-up setting, which this keeps in step.
    fn set_wol(&self, dev: &Device, opts: WolOpts) -> Result {
        let magic = if opts == WolOpts::MAGIC {
            true
        } else if opts == WolOpts::NONE {
            false
        } else {
            return Err(EOPNOTSUPP);
        };
        if !self.wol_capable {
            return if magic { Err(EOPNOTSUPP) } else { Ok(()) };
        }
        let parent = dev.parent();
        if parent.may_wakeup() != magic {
            parent.set_wakeup_enable(magic)?;
        }
        self.wol.store(magic, Ordering::Relaxed);
        Ok(())
    }

    fn get_msglevel(&self, _dev: &Device) -> u32 {
        self.msg_enable.load(core::sync::atomic::Ordering::Relaxed)
    }

    fn set_msglevel(&self, _dev: &Device, level: u32) {
        self.msg_enable
            .store(level, core::sync::atomic::Ordering::Relaxed);
    }

    const STATS: &'static [&'static str] = &STAT_NAMES;

    /// `start_xmit` timestamps every frame as it hands it to the CU.
    const SOFTWARE_TX_TIMESTAMPS: bool = true;

    fn get_ethtool_stats(&self, _dev: &Device, data: &mut [u64]) {
        let (sw, totals) = {
            // The counters need no lock; the CU lock's guard is released at the end of its
            // statement.
            let sw = self.counters.snapshot();
            let totals = self.cu.lock().totals;
            (sw, totals)
        };
        let d = self.link.lock().diag.stats();
        let values = Iterator::chain(stats::ethtool_values(&sw, &totals).into_iter(), d);
        for (slot, v) in data.iter_mut().zip(values) {
            *slot = v;
        }
    }

    fn get_eth_mac_stats(&self, _dev: &Device, s: &mut ethtool::EthMacStats) {
        let t = self.cu.lock().totals;
        // Only counters the hardware keeps; with no completed dump there are none to show.
        if t.dumps == 0 {
            return;
        }
        s.set_frames_transmitted_ok(t.hw_tx_good);
        s.set_frames_received_ok(t.hw_rx_good);
        s.set_single_collision_frames(t.tx_single_collisions);
        s.set_multiple_collision_frames(t.tx_multiple_collisions);
        s.set_frame_check_sequence_errors(t.rx_crc_errors);
        s.set_alignment_errors(t.rx_frame_errors);
        s.set_frames_with_deferred_xmissions(t.tx_deferred);
        s.set_late_collisions(t.tx_window_errors);
        s.set_frames_aborted_due_to_xs_colls(t.tx_aborted_errors);
        s.set_frames_lost_due_to_int_mac_xmit_error(t.tx_fifo_errors);
        s.set_carrier_sense_errors(t.tx_carrier_errors);
        s.set_frames_lost_due_to_int_mac_rcv_error(t.rx_over_errors);
    }

    fn get_eeprom_len(&self, _dev: &Device) -> usize {
        self.eeprom.lock().len() * 2
    }

    fn get_eeprom(&self, _dev: &Device, offset: usize, data: &mut [u8]) -> Result<u32> {
        // The core has checked `offset + data.len()` against the length above.
        let e = self.eeprom.lock();
        let bytes = e.words().iter().flat_map(|w| w.to_le_bytes());
        for (d, b) in data.iter_mut().zip(bytes.skip(offset)) {
            *d = b;
        }
        Ok(EEPROM_MAGIC)
    }

    fn set_eeprom(&self, dev: &Device, magic: u32, offset: usize, data: &[u8]) -> Result {
        if magic != EEPROM_MAGIC {
            return Err(EINVAL);
        }
        let io = self.csr(dev.parent())?;
        let mut e = self.eeprom.lock();
        let mut new = e.clone();
        let words = new.update(offset, data).ok_or(EINVAL)?;
        // The changed words, then the checksum word; 30 ms each (enable, write, disable).
        for w in Iterator::chain(words, core::iter::once(new.len() - 1)) {
            if !eeprom::write_word(
                &mut EepromPins(io),
                new.addr_bits(),
                w as u16,
                new.word(w),
                || delay::msleep(10),
            ) {
                return Err(EOPNOTSUPP);
            }
        }
        // Read the part back: a write that did not take (a write-protected part, a model that
        // cannot set bits) must not leave a cache that lies about it.
        let back = eeprom::Eeprom::load(&mut EepromPins(io));
        if back.words() != new.words() {
            *e = back;
            return Err(EIO);
        }
        *e = new;
        Ok(())
    }

    fn get_ringparam(&self, _dev: &Device, r: &mut RingParam) {
        r.set_max(rings::RFDS.2, rings::CBS.2);
        r.set_pending(
            self.rx_count.load(Ordering::Relaxed),
            self.tx_count.load(Ordering::Relaxed),
        );
    }

    fn set_ringparam(&self, dev: &Device, r: &RingParam, rtnl: &Rtnl) -> Result {
        if r.has_other_rings() {
            return Err(EINVAL);
        }
        // e100.c's limits; below the minimum it takes the minimum, as e100.c does.
        let (rx, tx) = r.pending();
        let new = (
            rx.clamp(rings::RFDS.1, rings::RFDS.2),
            tx.clamp(rings::CBS.1, rings::CBS.2),
        );
        let old = (
            self.rx_count.swap(new.0, Ordering::Relaxed),
            self.tx_count.swap(new.1, Ordering::Relaxed),
        );
        if new == old {
            return Ok(());
        }
        // Down with the old rings, up with the new ones. If the new ones cannot be had, the old
        // sizes come back. The watchdog keeps off meanwhile.
        self.rebuild(true);
        let res = dev.with_napi_disabled::<Nic, _>(rtnl, |rfa| {
            self.down(dev, rfa);
            let r = self.up(dev, rfa);
            if r.is_err() {
                self.down(dev, rfa);
                self.rx_count.store(old.0, Ordering::Relaxed);
                self.tx_count.store(old.1, Ordering::Relaxed);
                if let Err(e) = self.up(dev, rfa) {
                    self.down(dev, rfa);
                    self.retry_up(dev, e);
                }
            }
            r
        });
        self.rebuild(false);
        if let Some(Err(e)) = res {
            return Err(e);
        }
        netdev_info!(dev, "Ring Param settings: rx: {}, tx {}\n", new.0, new.1);
        Ok(())
    }

    fn get_regs_len(&self, _dev: &Device) -> usize {
        REGS_LEN
    }

    fn get_regs(&self, dev: &Device, data: &mut [u8]) -> u32 {
        let version = (1 << 24) | u32::from(self.pdev.revision());
        let bound = dev.parent();
        let Ok(io) = self.csr(bound) else {
            return version;
        };
        let mut words = [0u32; 1 + REGS_PHY + crate::DUMP_WORDS];
        words[0] = (u32::from(io.read8(hw::SCB_CMD_HI)) << 24)
            | (u32::from(io.read8(hw::SCB_CMD_LO)) << 16)
            | u32::from(io.read16(hw::SCB_STATUS));
        let _ = self.with_mdio(bound, |m| {
            for (i, w) in words[1..=REGS_PHY].iter_mut().enumerate() {
                *w = phy::Mdio::read(m, self.phy.addr, (REGS_PHY - 1 - i) as u8)
                    .map_or(0, u32::from);
            }
        });
        // The Dump command, while the CB ring exists; the chip has 10 ms to write the buffer.
        let _ = dma_write!(self.mem, 0, dump_buf = [0; crate::DUMP_WORDS]);
        let issued = {
            let mut cu = self.cu.lock();
            cu.ring.is_some()
                && self
                    .command(
                        &mut cu,
                        io,
                        desc::CbCmd::Dump,
                        &desc::dump_body(
                            self.mem_addr(core::mem::offset_of!(crate::Mem, dump_buf)),
                        ),
                    )
                    .is_ok()
        };
        if issued {
            delay::msleep(10);
            if let Ok(d) = dma_read!(self.mem, 0, dump_buf) {
                for (w, v) in words[1 + REGS_PHY..].iter_mut().zip(d.iter()) {
                    *w = *v;
                }
            }
        }
        // The C driver's buffer is an array of CPU-order words holding the device's bytes.
        for (out, w) in data.chunks_mut(4).zip(words.iter()) {
            for (o, b) in out.iter_mut().zip(w.to_ne_bytes()) {
                *o = b;
            }
        }
        version
    }

    const TESTS: &'static [&'static str] = &TESTS;

    fn self_test(&self, dev: &Device, offline: bool, results: &mut [u64], rtnl: &Rtnl) -> bool {
        let bound = dev.parent();
        // 0 passes; the offline tests read 0 when not asked for, as in e100.c.
        let mut r = [0u64; 5];
        r[0] = u64::from(!self.link_up(bound));
        r[1] = match self.csr(bound) {
            Ok(io) => u64::from(!eeprom::Eeprom::load(&mut EepromPins(io)).checksum_ok()),
            Err(_) => 1,
        };
        if offline {
            // The watchdog keeps off the hardware (and off the carrier) meanwhile.
            self.rebuild(true);
            let running = dev.is_running();
            // Failed unless they run to a result.
            r[2..].fill(1);
            let run = |rfa: &mut Rfa| {
                if running {
                    self.down(dev, rfa);
                }
                r[2] = u64::from(self.self_test(bound).is_err());
                r[3] = u64::from(self.loopback_test(dev, rfa, LB_MAC).is_err());
                r[4] = u64::from(self.loopback_test(dev, rfa, LB_PHY).is_err());
                // The user's link settings back (the PHY loopback overwrote BMCR).
                let mut ctl = self.link.lock();
                let cfg = ctl.cfg;
                let _ = self.apply_link(dev, &mut ctl, cfg, true);
                drop(ctl);
                if running && self.up(dev, rfa).is_err() {
                    self.down(dev, rfa);
                }
            };
            // The receive ring is NAPI's: lent with NAPI disabled while up, or while down.
            let _ = if running {
                dev.with_napi_disabled::<Nic, _>(rtnl, run)
            } else {
                dev.with_napi_idle::<Nic, _>(rtnl, run)
            };
            self.rebuild(false);
            // As e100.c does, give the link its time to come back (up to 4 s) before
            // returning, so that what follows the test finds the interface as it was.
            for _ in 0..40 {
                if self.link_up(bound) {
                    break;
                }
                delay::msleep(100);
            }
        }
        for (o, v) in results.iter_mut().zip(r) {
            *o = v;
        }
        r.iter().all(|v| *v == 0)
    }

    fn set_phys_id(&self, dev: &Device, state: PhysId) -> Result<u32> {
        let led = match state {
            // Blink twice a second, driven by the core.
            PhysId::Active => return Ok(2),
            PhysId::On => phy::Led::On,
            PhysId::Off => phy::Led::Off,
            PhysId::Inactive => phy::Led::Normal,
        };
        let (reg, val) = phy::led_write(&self.phy, self.mac >= crate::Mac::M82559_D101M, led);
        if self.with_mdio(dev.parent(), |m| {
            phy::Mdio::write(m, self.phy.addr, reg, val)
        })? {
            Ok(())
        } else {
            Err(ETIMEDOUT)
        }
        .map(|()| 0)
    }
}
