// SPDX-License-Identifier: GPL-2.0
//! Forging a bound device from any device reference.
//!
//! expect-error: E0308
//! expect-message: mismatched types

use kernel::prelude::*;

module! {
    type: M,
    name: "forge_bound",
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

use kernel::device::{Bound, Device};

#[allow(dead_code)]
fn promote(dev: &Device) -> &Device<Bound> {
    dev
}
