// SPDX-License-Identifier: GPL-2.0
//! An unsafe expression smuggled into dma_read!: the macro does not evaluate its arguments inside its own unsafe block.
//!
//! expect-error: E0133
//! expect-message: call to unsafe function

use kernel::prelude::*;

module! {
    type: M,
    name: "dma_read_unsafe_arg",
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

use kernel::dma::CoherentAllocation;

kernel::dma_struct! {
    struct Desc {
        status: u16,
        size: u16,
    }
}

/// # Safety
///
/// None; it only has to be `unsafe`.
unsafe fn index() -> usize {
    0
}

#[allow(dead_code)]
fn status(ring: &CoherentAllocation<Desc>) -> Result<u16> {
    kernel::dma_read!(ring, index(), status)
}
