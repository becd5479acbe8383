// SPDX-License-Identifier: GPL-2.0
//! Keeping the CPU view of mapped receive bytes past read_with, after they are synced back to the device.
//!
//! expect-error: 
//! expect-message: lifetime may not live long enough

use kernel::prelude::*;

module! {
    type: M,
    name: "rx_view_escape",
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

use kernel::net::skbuff::RxMapping;

#[allow(dead_code)]
fn peek(m: &RxMapping) -> Option<u8> {
    let view = m.read_with(0, 16, |v| v).ok()?;
    Some(view.u8(0))
}
