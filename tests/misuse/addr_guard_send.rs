// SPDX-License-Identifier: GPL-2.0
//! Sending the address-list lock guard to another thread (it must be released on the CPU that took it).
//!
//! expect-error: E0277
//! expect-message: cannot be sent between threads safely

use kernel::prelude::*;

module! {
    type: M,
    name: "addr_guard_send",
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

fn needs_send<T: Send>(_t: T) {}

#[allow(dead_code)]
fn hand_over(dev: &Device) {
    needs_send(dev.lock_addrs());
}
