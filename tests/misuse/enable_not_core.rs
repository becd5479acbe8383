// SPDX-License-Identifier: GPL-2.0
//! Enabling a PCI device outside a bus callback (it needs the Core context).
//!
//! expect-error: E0599
//! expect-message: no method named `enable_device` found

use kernel::prelude::*;

module! {
    type: M,
    name: "enable_not_core",
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

use kernel::{device::Bound, pci};

#[allow(dead_code)]
fn enable(pdev: &pci::Device<Bound>) -> Result {
    pdev.enable_device()
}
