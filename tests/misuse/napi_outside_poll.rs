// SPDX-License-Identifier: GPL-2.0
//! Poll-only NAPI operations outside the poll: a Poll cannot be made (so no GRO, no NAPI-completion, no napi_consume_skb).
//!
//! expect-error: E0624
//! expect-message: associated function `new` is private

use kernel::prelude::*;

module! {
    type: M,
    name: "napi_outside_poll",
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
fn from_interrupt(skb: SkBuff) {
    // SAFETY: none possible; the point is that the constructor is not reachable.
    let poll = unsafe { Poll::new(core::ptr::null_mut(), 64) };
    poll.gro_receive(skb);
}
