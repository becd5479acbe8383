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

    fn get_link(&self, _dev: &Device) -> bool {
        self.link_up()
    }

    fn get_sset_count(&self, _dev: &Device, sset: u32) -> Result<usize> {
        match sset {
            ethtool::SS_STATS => Ok(stats::STAT_NAMES.len()),
            _ => Err(EOPNOTSUPP),
        }
    }

    fn get_strings(&self, _dev: &Device, sset: u32, data: &mut [u8]) {
        if sset == ethtool::SS_STATS {
            ethtool::fill_strings(data, &stats::STAT_NAMES);
        }
    }

    fn get_ethtool_stats(&self, _dev: &Device, data: &mut [u64]) {
        let _bh = bh::disable();
        let sw = *self.counters.lock();
        let totals = self.cu.lock().totals;
        for (d, v) in data.iter_mut().zip(stats::ethtool_values(&sw, &totals)) {
            *d = v;
        }
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
