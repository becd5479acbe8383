// SPDX-License-Identifier: GPL-2.0

#include <linux/irqflags.h>
#include <linux/spinlock.h>

unsigned long rust_helper_spin_lock_irqsave(spinlock_t *lock)
{
	unsigned long flags;

	spin_lock_irqsave(lock, flags);
	return flags;
}

void rust_helper_spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
	spin_unlock_irqrestore(lock, flags);
}

bool rust_helper_irqs_disabled(void)
{
	return irqs_disabled();
}
