// SPDX-License-Identifier: GPL-2.0
/*
 * The host's TSC frequency in kHz, measured against CLOCK_MONOTONIC_RAW over 200 ms.
 *
 * Under TCG a guest's TSC is the host's counter (QEMU's rdtsc helper reads it, with one offset
 * for every vCPU). Left to its own calibration against the emulated PIT (no HPET or PM timer to
 * check against without ACPI), a guest kernel on a busy host now and then finds no rate, marks
 * the TSC unstable and runs on the jiffies clocksource, with no high-resolution timers and
 * timestamps in whole ticks. scripts/qemu-run.sh passes this value as tsc_early_khz= (with
 * tsc=reliable, for the other way a guest lost its TSC). Built and run by host_tsc_khz
 * (scripts/common.sh); basic/guest-clock-tsc checks the guest's clocksource.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* A TSC reading and the time it was taken: the tightest of a few brackets, so a preemption
 * between the two clocks does not skew it. */
static void sample(uint64_t *ns, uint64_t *tsc)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 16; i++) {
		uint64_t a = now_ns(), c = __rdtsc(), b = now_ns();

		if (b - a < best) {
			best = b - a;
			*ns = a + (b - a) / 2;
			*tsc = c;
		}
	}
}

int main(void)
{
	const struct timespec wait = { 0, 200000000 };
	uint64_t n0, n1, c0, c1;

	sample(&n0, &c0);
	nanosleep(&wait, NULL);
	sample(&n1, &c1);
	if (n1 <= n0 || c1 <= c0)
		return 1;
	printf("%llu\n", (unsigned long long)((c1 - c0) * 1000000u / (n1 - n0)));
	return 0;
}
