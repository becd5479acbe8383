// SPDX-License-Identifier: GPL-2.0
//! Writing into the buffer start_xmit was given: it may be a clone TCP keeps.
//!
//! expect-error: E0599
//! expect-message: no method named `write_head` found for struct `TxSkb

use kernel::prelude::*;

module! {
    type: M,
    name: "tx_write",
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

#[allow(dead_code)]
fn xmit(skb: kernel::net::skbuff::TxSkb<'_>) {
    let mut skb = skb;
    let _ = skb.write_head(0, &[0u8; 4]);
}
