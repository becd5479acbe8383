// SPDX-License-Identifier: GPL-2.0

//! ethtool operations.

use crate::{stats, Nic, DRV_NAME};
use kernel::net::{dev::Device, ethtool};
use kernel::prelude::*;
use kernel::sync::bh;

/// `ethtool -e` reports this magic, as e100.c does.
const EEPROM_MAGIC: u32 = 0x1234;

#[vtable]
impl ethtool::Operations for Nic {
    fn get_drvinfo(&self, _dev: &Device, info: &mut ethtool::DrvInfo) {
        info.set_driver(DRV_NAME);
        info.set_bus_info(self.pdev.name());
    }

    fn get_link(&self, dev: &Device) -> bool {
        self.link_up(dev.parent())
    }

    const STATS: &'static [&'static str] = &stats::STAT_NAMES;

    fn get_ethtool_stats(&self, _dev: &Device, data: &mut [u64]) {
        let _bh = bh::disable();
        let sw = *self.counters.lock();
        let totals = self.cu.lock().totals;
        for (d, v) in data.iter_mut().zip(stats::ethtool_values(&sw, &totals)) {
            *d = v;
        }
    }

    fn get_eth_mac_stats(&self, _dev: &Device, s: &mut ethtool::EthMacStats) {
        let _bh = bh::disable();
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
        self.eeprom.len() * 2
    }

    fn get_eeprom(&self, _dev: &Device, offset: usize, data: &mut [u8]) -> Result<u32> {
        // The core has checked `offset + data.len()` against the length above.
        let bytes = self.eeprom.words().iter().flat_map(|w| w.to_le_bytes());
        for (d, b) in data.iter_mut().zip(bytes.skip(offset)) {
            *d = b;
        }
        Ok(EEPROM_MAGIC)
    }
}
