// SPDX-License-Identifier: GPL-2.0
//! Reading the multicast list without the address-list lock.
//!
//! expect-error: E0599
//! expect-message: no method named `for_each_mc` found for reference `&kernel::net::dev::Device`

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

use kernel::net::dev::Device;

#[allow(dead_code)]
fn count(dev: &Device) -> usize {
    let mut n = 0;
    dev.for_each_mc(|_| n += 1);
    n
}
