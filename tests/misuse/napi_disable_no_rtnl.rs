// SPDX-License-Identifier: GPL-2.0
//! Disabling NAPI without holding RTNL: the proof cannot be forged.
//!
//! expect-error: E0423
//! expect-message: cannot initialize a tuple struct which contains private fields

use kernel::prelude::*;

module! {
    type: M,
    name: "napi_disable_no_rtnl",
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
fn quiesce<T: Operations>(dev: &Device) {
    let fake = Rtnl(core::marker::PhantomData);
    let _ = dev.with_napi_disabled::<T, _>(&fake, |_| ());
}
