// SPDX-License-Identifier: GPL-2.0

#include <linux/bug.h>

void rust_helper_warn_on(bool cond)
{
	WARN_ON(cond);
}
