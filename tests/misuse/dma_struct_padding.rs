// SPDX-License-Identifier: GPL-2.0
//! A device-shared structure with padding (the device would see uninitialised bytes).
//!
//! expect-error: E0080
//! expect-message: has padding

use kernel::prelude::*;

module! {
    type: M,
    name: "dma_struct_padding",
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
    struct Bad {
        status: u8,
        link: u32,
    }
}
