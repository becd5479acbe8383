// SPDX-License-Identifier: GPL-2.0
//! Keeping a poll's `Receiver` past `Poll::done`, which may have completed NAPI (another poll
//! may run by then): the receiver borrows the poll that `done` takes.
//!
//! expect-error: E0505
//! expect-message: cannot move out of `poll` because it is borrowed

use kernel::prelude::*;

module! {
    type: M,
    name: "receiver_after_done",
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

use kernel::net::napi::{Poll, PollDone, Receiver};

#[allow(dead_code)]
fn after<'a>(poll: Poll<'a>) -> PollDone<'a> {
    let rx: Option<Receiver<'_>> = poll.receiver();
    let done = poll.done(0, || {});
    let _ = rx.map(|r| r.budget());
    done
}
