// SPDX-License-Identifier: GPL-2.0
//! An unsafe expression smuggled into one of the values of dma_write!'s several-field form.
//!
//! expect-error: E0133
//! expect-message: call to unsafe function

use kernel::prelude::*;

module! {
    type: M,
    name: "dma_write_multi_unsafe_val",
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
unsafe fn size() -> u16 {
    1522
}

#[allow(dead_code)]
fn set(ring: &CoherentAllocation<Desc>) -> Result {
    kernel::dma_write!(ring, 0, { status = 0, size = size() })
}
