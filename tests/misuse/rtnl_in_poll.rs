// SPDX-License-Identifier: GPL-2.0
//! RTNL taken in a NAPI poll (softirq): only a bus callback's Core device proves a context that may sleep; a poll has the bound parent only.
//!
//! expect-error: E0308
//! expect-message: expected `&Device<Core>`, found `&Device<Bound>`

use kernel::prelude::*;

module! {
    type: M,
    name: "rtnl_in_poll",
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
    dev::{rtnl_lock, Device},
    napi::{Poll, PollDone},
};

#[allow(dead_code)]
fn poll<'a>(dev: &Device, poll: Poll<'a, ()>) -> PollDone<'a> {
    let rtnl = rtnl_lock(dev.parent());
    drop(rtnl);
    poll.done(0, || {})
}
