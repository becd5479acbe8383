// SPDX-License-Identifier: GPL-2.0
//! Mapping a BAR outside a bound context.
//!
//! expect-error: E0599
//! expect-message: no method named `iomap_region_sized` found

use kernel::prelude::*;

module! {
    type: M,
    name: "iomap_unbound",
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

use kernel::pci;

#[allow(dead_code)]
fn map(pdev: &pci::Device) -> Result {
    let _bar = pdev.iomap_region_sized::<4>(0, kernel::c_str!("x"))?;
    Ok(())
}
