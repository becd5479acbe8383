// SPDX-License-Identifier: GPL-2.0
//! Setting a DMA mask from safe code (it must not race allocations).
//!
//! expect-error: E0133
//! expect-message: call to unsafe function

use kernel::prelude::*;

module! {
    type: M,
    name: "dma_mask_safe",
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

use kernel::dma::{set_mask_and_coherent, DmaMask};

#[allow(dead_code)]
fn widen(dev: &kernel::device::Device<kernel::device::Bound>) -> Result {
    set_mask_and_coherent(dev, DmaMask::new::<64>())
}
