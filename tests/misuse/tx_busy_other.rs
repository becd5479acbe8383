// SPDX-License-Identifier: GPL-2.0
//! Returning as busy a buffer other than the one this start_xmit was given.
//!
//! expect-error: 
//! expect-message: lifetime may not live long enough

use kernel::prelude::*;

module! {
    type: M,
    name: "tx_busy_other",
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

use kernel::net::{dev::TxOutcome, skbuff::TxSkb};

#[allow(dead_code)]
fn xmit<'a, 'b>(skb: TxSkb<'a>, other: TxSkb<'b>) -> TxOutcome<'a> {
    drop(skb);
    TxOutcome::Busy(other)
}
