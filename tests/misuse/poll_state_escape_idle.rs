// SPDX-License-Identifier: GPL-2.0
//! Keeping the poll state past the closure that lends it while the interface is down (once the
//! closure returns, `open` may enable NAPI and the poll own the state): the borrow cannot
//! leave the closure.
//!
//! expect-error: E0521
//! expect-message: borrowed data escapes outside of closure

use kernel::prelude::*;

module! {
    type: M,
    name: "poll_state_escape_idle",
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

use kernel::net::dev::{Device, Operations, Rtnl};

#[allow(dead_code)]
fn keep_idle<'a, T: Operations>(
    dev: &Device,
    rtnl: &Rtnl,
    kept: &mut Option<&'a mut T::PollState>,
) {
    let _ = dev.with_napi_idle::<T, _>(rtnl, |state| *kept = Some(state));
}
