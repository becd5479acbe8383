// SPDX-License-Identifier: GPL-2.0
//! A resource reached without the bound device, under an RCU guard a sleep could end: not offered.
//!
//! expect-error: E0599
//! expect-message: no method named `try_access` found

use kernel::prelude::*;

module! {
    type: M,
    name: "devres_try_access",
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

use kernel::devres::Devres;

#[allow(dead_code)]
fn peek(d: &Devres<u32>) -> u32 {
    d.try_access().map_or(0, |v| *v)
}
