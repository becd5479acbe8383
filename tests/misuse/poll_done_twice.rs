// SPDX-License-Identifier: GPL-2.0
//! Completing NAPI twice in one poll: `Poll::done` takes the poll, so a second call is a use of
//! a moved value.
//!
//! expect-error: E0382
//! expect-message: use of moved value: `poll`

use kernel::prelude::*;

module! {
    type: M,
    name: "poll_done_twice",
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
fn twice<'a>(poll: Poll<'a>) -> PollDone<'a> {
    let _first = poll.done(0, || {});
    poll.done(0, || {})
}
