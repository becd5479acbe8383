// SPDX-License-Identifier: GPL-2.0
//! A descriptor field read past the end of the header view: its offset is checked when compiled.
//!
//! expect-error: E0080
//! expect-message: field past the end of the header

use kernel::prelude::*;

module! {
    type: M,
    name: "rx_head_past_end",
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

use kernel::net::skbuff::RxMapping;

/// Public, so that it is compiled (monomorphised) whether or not anything calls it.
pub fn count(m: &RxMapping) -> Option<u16> {
    m.read_head::<16, _>(|h| h.le16::<15>()).ok()
}
