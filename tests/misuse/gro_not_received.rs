// SPDX-License-Identifier: GPL-2.0
//! Handing GRO a buffer that was not received (a transmit buffer, or one never bound to the interface).
//!
//! expect-error: E0308
//! expect-message: expected `RxFrame`, found `SkBuff`

use kernel::prelude::*;

module! {
    type: M,
    name: "gro_not_received",
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

use kernel::net::{napi::Poll, skbuff::SkBuff};

#[allow(dead_code)]
fn loop_back(poll: &Poll<'_>, sent: SkBuff) {
    poll.gro_receive(sent);
}
