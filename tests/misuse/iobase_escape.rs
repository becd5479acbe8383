// SPDX-License-Identifier: GPL-2.0
//! Keeping a register window's address (`IoBase`) past the borrow of its `Io`, after which the
//! mapping may be gone.
//!
//! expect-error: 
//! expect-message: lifetime may not live long enough

use kernel::prelude::*;

module! {
    type: M,
    name: "iobase_escape",
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

use kernel::io::{Io, IoBase};

#[allow(dead_code)]
fn keep<'a>(io: &'a Io<16>) -> IoBase<'static, 16> {
    io.base()
}
