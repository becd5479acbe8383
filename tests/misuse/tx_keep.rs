// SPDX-License-Identifier: GPL-2.0
//! Keeping the transmit buffer past the start_xmit call that gave it.
//!
//! expect-error: 
//! expect-message: lifetime may not live long enough

use kernel::prelude::*;

module! {
    type: M,
    name: "tx_keep",
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

use kernel::net::skbuff::TxSkb;

#[allow(dead_code)]
fn xmit<'a>(kept: &mut Option<TxSkb<'static>>, skb: TxSkb<'a>) {
    *kept = Some(skb);
}
