// SPDX-License-Identifier: GPL-2.0
//! Keeping the poll context past the poll.
//!
//! expect-error: 
//! expect-message: lifetime may not live long enough

use kernel::prelude::*;

module! {
    type: M,
    name: "poll_escape",
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

use kernel::net::napi::Poll;

#[allow(dead_code)]
fn stash<'a>(slot: &mut Option<&'static Poll<'static>>, poll: &'a Poll<'a>) {
    *slot = Some(poll);
}
