// SPDX-License-Identifier: GPL-2.0
//! A packed device-shared structure (its fields would be misaligned for the volatile accessors).
//!
//! expect-error: 
//! expect-message: no rules expected

use kernel::prelude::*;

module! {
    type: M,
    name: "dma_struct_packed",
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
    #[repr(packed)]
    struct Packed {
        status: u16,
        link: u32,
    }
}
