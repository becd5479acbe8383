// SPDX-License-Identifier: GPL-2.0
//! A device-shared structure with a field that rejects some bit patterns (a device may write any).
//!
//! expect-error: E0277
//! expect-message: the trait bound `bool: FromBytes` is not satisfied

use kernel::prelude::*;

module! {
    type: M,
    name: "dma_struct_bool",
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
    struct Flags {
        done: bool,
        pad: [u8; 3],
    }
}
