// SPDX-License-Identifier: GPL-2.0
//! A PCI device-ID table without its all-zero terminator (the PCI core's matching loop would run past it).
//!
//! expect-error: E0080
//! expect-message: a PCI device-ID table ends with an all-zero entry

use kernel::prelude::*;

module! {
    type: M,
    name: "id_table_unterminated",
    author: "e100_rs tests",
    description: "must not compile",
    license: "GPL",
}

struct M;

impl kernel::Module for M {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(M)
    }
}

use kernel::{bindings, pci};

static RAW: [bindings::pci_device_id; 2] = [
    bindings::pci_device_id {
        vendor: 0x8086,
        device: 0x1209,
        subvendor: !0,
        subdevice: !0,
        class: 0,
        class_mask: 0,
        driver_data: 0,
        override_only: 0,
    },
    bindings::pci_device_id {
        vendor: 0x8086,
        device: 0x1229,
        subvendor: !0,
        subdevice: !0,
        class: 0,
        class_mask: 0,
        driver_data: 1,
        override_only: 0,
    },
];
static INFO: [u8; 1] = [0];

#[allow(dead_code)]
const TABLE: pci::IdTable<u8> = pci::IdTable::new(&RAW, &INFO);

#[allow(dead_code)]
fn entries() -> usize {
    TABLE.len()
}
