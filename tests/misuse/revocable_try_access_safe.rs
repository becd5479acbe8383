// SPDX-License-Identifier: GPL-2.0
//! A revocable object's RCU guard taken without promising not to sleep under it.
//!
//! expect-error: E0133
//! expect-message: call to unsafe function

use kernel::prelude::*;

module! {
    type: M,
    name: "revocable_try_access_safe",
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

use kernel::revocable::Revocable;

#[allow(dead_code)]
fn peek(r: &Revocable<u32>) -> u32 {
    r.try_access().map_or(0, |v| *v)
}
