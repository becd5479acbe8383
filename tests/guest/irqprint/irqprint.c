// SPDX-License-Identifier: GPL-2.0
/*
 * irqprint: prints from hard-interrupt context, for the netconsole test.
 *
 * Loading it starts a hard-IRQ hrtimer on every online CPU; each fires every
 * period_us and prints "e100test-irq tag=TAG cpu=C seq=N end" until it has
 * printed count lines. netconsole sends each line through netpoll from inside
 * the timer interrupt, so the network driver's transmit (and, when netpoll
 * must wait, its poll) run in hard-IRQ context on a CPU that may be holding
 * the driver's locks in process or softirq context: a driver that takes them
 * without disabling interrupts deadlocks there, and lockdep says so.
 *
 * A test tool, not part of the driver.
 */
#include <linux/atomic.h>
#include <linux/cpu.h>
#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/smp.h>

static unsigned int count = 100;
module_param(count, uint, 0444);
MODULE_PARM_DESC(count, "lines each CPU prints");
static unsigned int period_us = 10000;
module_param(period_us, uint, 0444);
MODULE_PARM_DESC(period_us, "time between two lines of one CPU, in microseconds");
static char *tag = "none";
module_param(tag, charp, 0444);
MODULE_PARM_DESC(tag, "a word every line carries");

struct irqprint_cpu {
	struct hrtimer timer;
	unsigned int seq;
	bool started;
};
static DEFINE_PER_CPU(struct irqprint_cpu, irqprint);
static atomic_t not_in_hardirq = ATOMIC_INIT(0);

static enum hrtimer_restart irqprint_fire(struct hrtimer *t)
{
	struct irqprint_cpu *p = container_of(t, struct irqprint_cpu, timer);

	if (!in_hardirq())
		atomic_inc(&not_in_hardirq);
	p->seq++;
	pr_warn("e100test-irq tag=%s cpu=%d seq=%u end\n", tag,
		smp_processor_id(), p->seq);
	if (p->seq >= count)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime((u64)period_us * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void irqprint_start(void *unused)
{
	struct irqprint_cpu *p = this_cpu_ptr(&irqprint);

	hrtimer_init(&p->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	p->timer.function = irqprint_fire;
	p->started = true;
	hrtimer_start(&p->timer, ns_to_ktime((u64)period_us * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static int __init irqprint_init(void)
{
	if (!count || !period_us)
		return -EINVAL;
	cpus_read_lock();
	on_each_cpu(irqprint_start, NULL, 1);
	cpus_read_unlock();
	return 0;
}

static void __exit irqprint_exit(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct irqprint_cpu *p = per_cpu_ptr(&irqprint, cpu);

		if (p->started)
			hrtimer_cancel(&p->timer);
	}
	if (atomic_read(&not_in_hardirq))
		pr_err("irqprint: %d lines were not printed in hard-IRQ context\n",
		       atomic_read(&not_in_hardirq));
}

module_init(irqprint_init);
module_exit(irqprint_exit);
MODULE_DESCRIPTION("e100_rs test tool: printk from hard-IRQ context");
MODULE_LICENSE("GPL");
