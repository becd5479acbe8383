// SPDX-License-Identifier: GPL-2.0
//! A look-alike type standing in for a CoherentAllocation in dma_read!, whose safe methods would hand the macro's unsafe block a made-up pointer.
//!
//! expect-error: E0308
//! expect-message: mismatched types

use kernel::prelude::*;

module! {
    type: M,
    name: "dma_read_fake_type",
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

kernel::dma_struct! {
    struct Desc {
        status: u16,
        size: u16,
    }
}

struct Fake;

#[allow(dead_code)]
impl Fake {
    fn item_from_index(&self, _i: usize) -> Result<*mut Desc> {
        Ok(0x1000 as *mut Desc)
    }
}

#[allow(dead_code)]
fn status(fake: &Fake) -> Result<u16> {
    kernel::dma_read!(fake, 0, status)
}
