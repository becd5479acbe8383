// SPDX-License-Identifier: GPL-2.0
//! Answering ethtool's string count separately from the names (they could disagree): the count comes from the one STATS table.
//!
//! expect-error: E0438
//! expect-message: method `get_sset_count` is not a member of trait

use kernel::prelude::*;

module! {
    type: M,
    name: "ethtool_sset_count",
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

use kernel::net::{
    dev::{AddrList, Device, Operations, TxOutcome},
    napi::{Poll, PollDone},
    skbuff::TxSkb,
};

struct Nic;

#[vtable]
impl Operations for Nic {
    type PollState = ();

    fn open(&self, _dev: &Device, _state: &mut ()) -> Result {
        Ok(())
    }

    fn stop(&self, _dev: &Device, _state: &mut ()) -> Result {
        Ok(())
    }

    fn start_xmit<'a>(&self, _dev: &Device, skb: TxSkb<'a>) -> TxOutcome<'a> {
        // A real driver would map it into its ring's `TxSlots` here.
        drop(skb);
        TxOutcome::Ok
    }

    fn set_rx_mode(&self, _dev: &Device, addrs: &AddrList<'_>) {
        let mut n = 0;
        addrs.for_each_mc(|_| n += 1);
        let _ = n;
    }

    fn poll<'a>(&self, _dev: &Device, poll: Poll<'a>) -> PollDone<'a> {
        poll.done(0, || {})
    }
}

#[vtable]
impl kernel::net::ethtool::Operations for Nic {
    const STATS: &'static [&'static str] = &["rx_packets"];

    fn get_sset_count(&self, _dev: &Device, _sset: u32) -> Result<usize> {
        Ok(2)
    }
}
