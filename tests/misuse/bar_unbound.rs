// SPDX-License-Identifier: GPL-2.0
//! Touching a BAR through a device that is not known to be bound.
//!
//! expect-error: E0308
//! expect-message: expected `&Device<Bound>`

use kernel::prelude::*;

module! {
    type: M,
    name: "bar_unbound",
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

use kernel::{device::Device, devres::Devres, pci::Bar};

#[allow(dead_code)]
fn read_status(dev: &Device, bar: &Devres<Bar<4>>) -> Result<u8> {
    Ok(bar.access(dev)?.read8(0))
}
