/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's side of scripts/bench/insncount.c: bench_mark(n) executes the marker NOP with
 * code n (0 zeroes the plugin's counters, 1-9 writes them out as section n). Without the
 * plugin it does nothing. The code is an immediate, hence one NOP per value.
 */
#ifndef BENCH_MARK_H
#define BENCH_MARK_H

#define BENCH_MARK_NOP(n) \
	asm volatile(".byte 0x0f, 0x1f, 0x84, 0x00, " #n ", 0x5a, 0x00, 0xe1" ::: "memory")

static inline int bench_mark(int n)
{
	switch (n) {
	case 0: BENCH_MARK_NOP(0); break;
	case 1: BENCH_MARK_NOP(1); break;
	case 2: BENCH_MARK_NOP(2); break;
	case 3: BENCH_MARK_NOP(3); break;
	case 4: BENCH_MARK_NOP(4); break;
	case 5: BENCH_MARK_NOP(5); break;
	case 6: BENCH_MARK_NOP(6); break;
	case 7: BENCH_MARK_NOP(7); break;
	case 8: BENCH_MARK_NOP(8); break;
	case 9: BENCH_MARK_NOP(9); break;
	default: return -1;
	}
	return 0;
}

#endif
