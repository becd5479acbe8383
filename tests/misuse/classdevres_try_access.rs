// SPDX-License-Identifier: GPL-2.0
//! A registration (ClassDevres) reached without a bus callback's device, under an RCU guard a sleep could end: not offered.
//!
//! expect-error: E0599
//! expect-message: no method named `try_access` found

use kernel::prelude::*;

module! {
    type: M,
    name: "classdevres_try_access",
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

use kernel::devres::ClassDevres;

#[allow(dead_code)]
fn peek(d: &ClassDevres<u32>) -> u32 {
    d.try_access().map_or(0, |v| *v)
}
