// SPDX-License-Identifier: GPL-2.0
//! Reading the multicast list without the address-list lock: the list's view can only be had
//! from the held lock, not made up.
//!
//! expect-error: E0451
//! expect-message: field `dev` of struct `AddrList` is private

use kernel::prelude::*;

module! {
    type: M,
    name: "mc_without_lock",
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

use kernel::net::dev::{AddrList, Device};

#[allow(dead_code)]
fn count(dev: &Device) -> usize {
    let list = AddrList { dev };
    list.mc_count()
}
