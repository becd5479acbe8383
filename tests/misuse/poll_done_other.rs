// SPDX-License-Identifier: GPL-2.0
//! Ending a poll with another poll's `PollDone` (so this one's NAPI is never completed):
//! a `PollDone` stands only for the poll that made it, even one of a poll that outlives this
//! one (the lifetime is invariant).
//!
//! expect-error: 
//! expect-message: lifetime may not live long enough

use kernel::prelude::*;

module! {
    type: M,
    name: "poll_done_other",
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

use kernel::net::napi::{Poll, PollDone};

#[allow(dead_code)]
fn other<'a, 'b: 'a>(_poll: Poll<'a>, earlier: PollDone<'b>) -> PollDone<'a> {
    earlier
}
