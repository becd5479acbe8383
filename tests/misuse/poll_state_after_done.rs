// SPDX-License-Identifier: GPL-2.0
//! Writing the poll state (the receive ring) after `Poll::done`, which may have completed NAPI
//! and let the next poll start on another CPU with the same state: the state is borrowed from
//! the poll that `done` takes.
//!
//! expect-error: E0505
//! expect-message: cannot move out of `poll` because it is borrowed

use kernel::prelude::*;

module! {
    type: M,
    name: "poll_state_after_done",
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
fn after<'a>(mut poll: Poll<'a, Option<KVec<u8>>>) -> PollDone<'a> {
    let Some((_rx, ring)) = poll.receiver_and_state() else {
        return poll.done(0, || {});
    };
    let done = poll.done(0, || {});
    *ring = None;
    done
}
