/* SPDX-License-Identifier: GPL-2.0 */
/*
 * insncount: a QEMU TCG plugin that counts the guest instructions executed, by the address of
 * the translation block that executed them, between markers the guest places.
 *
 *   qemu-system-x86_64 ... -accel tcg,thread=single -plugin insncount.so,out=FILE[,mmio=on]
 *
 * Every translated block gets an inline counter (QEMU adds the block's instruction count to
 * it each time the block runs: no call out of the generated code). Blocks are keyed by their
 * first instruction's virtual address and their length, so the kernel's and the modules'
 * code (above 0xffff800000000000 on x86_64) is attributed exactly; user space shares one
 * address space per process and is only summed.
 *
 * Markers: the guest executes "nopl 0xE1005Axx(%rax,%rax,1)" (bytes 0f 1f 84 00 xx 5a 00 e1,
 * scripts/bench/mark.c). xx = 0 zeroes every counter; xx = 1..255 writes the counters gathered
 * since the previous marker to FILE as a section "@mark xx", one "address length count" line
 * per block that ran (count = executions x length = instructions), then zeroes them. Nothing
 * in a kernel or a compiler emits that exact NOP, and it is harmless without the plugin.
 *
 * Register accesses (mmio=on): every guest instruction gets a memory callback, which looks up
 * the access's physical address (qemu_plugin_get_hwaddr) and, for an access QEMU sends to a
 * device rather than to RAM (qemu_plugin_hwaddr_is_io), counts a read or a write against the 4
 * KiB physical page it falls in. Each "@mark xx" section then ends with an "io <page> <reads>
 * <writes> <device>" line per page accessed (device: the name of QEMU's memory region,
 * "eepro100-mmio" for an 8255x's CSR BAR), zeroed at the same markers as the blocks. At exit,
 * an "@iototal" section lists every page the whole boot accessed. scripts/bench/insns.py picks
 * the NIC's BAR page from what the guest says. RAM accesses cost one call and one TLB lookup
 * each, nothing else, but every load and store of the guest pays it: QEMU takes about twice the
 * CPU time, and the guest's slower pace moves the counts of work that time decides (ticks in a
 * phase, frames a flood's interrupt finds), so without mmio=on there are no callbacks at all.
 * Port I/O (x86 in/out) is not seen: QEMU emulates it in helpers that access the I/O address
 * space directly, not through the loads and stores that memory callbacks instrument.
 *
 * Counts are exact only with one vCPU thread (-accel tcg,thread=single, or -smp 1): the
 * inline additions are not atomic.
 */
#include <glib.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

struct block {
	uint64_t vaddr;
	uint64_t n_insns;
	uint64_t count; /* executions x n_insns, added inline */
};

struct io_page {
	uint64_t page; /* physical address, 4 KiB aligned */
	const char *device; /* the memory region's name (interned by QEMU) */
	uint64_t reads, writes; /* since the last marker */
	uint64_t all_reads, all_writes; /* since the boot */
};

static GHashTable *blocks; /* struct block * -> itself, keyed by (vaddr, n_insns) */
static GHashTable *io_pages; /* struct io_page * -> itself, keyed by page */
static GMutex lock;
static FILE *out;
static uint64_t dumps;
static bool count_io;

static guint block_hash(gconstpointer p)
{
	const struct block *b = p;

	return g_int64_hash(&b->vaddr) ^ (guint)b->n_insns;
}

static gboolean block_equal(gconstpointer a, gconstpointer b)
{
	const struct block *x = a, *y = b;

	return x->vaddr == y->vaddr && x->n_insns == y->n_insns;
}

static void zero_one(gpointer key, gpointer value, gpointer data)
{
	((struct block *)value)->count = 0;
}

static void dump_one(gpointer key, gpointer value, gpointer data)
{
	struct block *b = value;

	if (b->count) {
		fprintf(out, "%" PRIx64 " %" PRIu64 " %" PRIu64 "\n", b->vaddr, b->n_insns,
			b->count);
		b->count = 0;
	}
}

static void zero_io(gpointer key, gpointer value, gpointer data)
{
	struct io_page *p = value;

	p->reads = 0;
	p->writes = 0;
}

static void dump_io(gpointer key, gpointer value, gpointer data)
{
	struct io_page *p = value;

	if (p->reads || p->writes) {
		fprintf(out, "io %" PRIx64 " %" PRIu64 " %" PRIu64 " %s\n", p->page, p->reads,
			p->writes, p->device);
		p->reads = 0;
		p->writes = 0;
	}
}

static void dump_io_total(gpointer key, gpointer value, gpointer data)
{
	struct io_page *p = value;

	fprintf(out, "io %" PRIx64 " %" PRIu64 " %" PRIu64 " %s\n", p->page, p->all_reads,
		p->all_writes, p->device);
}

static void mem_access(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr,
		       void *udata)
{
	struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);
	uint64_t page;
	struct io_page *p;

	if (!hw || !qemu_plugin_hwaddr_is_io(hw))
		return;
	page = qemu_plugin_hwaddr_phys_addr(hw) & ~(uint64_t)0xfff;
	g_mutex_lock(&lock);
	p = g_hash_table_lookup(io_pages, &page);
	if (!p) {
		p = g_new0(struct io_page, 1);
		p->page = page;
		p->device = qemu_plugin_hwaddr_device_name(hw);
		g_hash_table_insert(io_pages, &p->page, p);
	}
	if (qemu_plugin_mem_is_store(info)) {
		p->writes++;
		p->all_writes++;
	} else {
		p->reads++;
		p->all_reads++;
	}
	g_mutex_unlock(&lock);
}

static void marker(unsigned int vcpu, void *udata)
{
	unsigned int code = GPOINTER_TO_UINT(udata);

	g_mutex_lock(&lock);
	if (code == 0) {
		g_hash_table_foreach(blocks, zero_one, NULL);
		g_hash_table_foreach(io_pages, zero_io, NULL);
	} else {
		fprintf(out, "@mark %u\n", code);
		g_hash_table_foreach(blocks, dump_one, NULL);
		g_hash_table_foreach(io_pages, dump_io, NULL);
		fprintf(out, "@end %u\n", code);
		fflush(out);
		dumps++;
	}
	g_mutex_unlock(&lock);
}

static const uint8_t magic[] = { 0x0f, 0x1f, 0x84, 0x00 };
static const uint8_t magic_hi[] = { 0x5a, 0x00, 0xe1 };

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct block key = { qemu_plugin_tb_vaddr(tb), qemu_plugin_tb_n_insns(tb), 0 };
	struct block *b;
	size_t i;

	g_mutex_lock(&lock);
	b = g_hash_table_lookup(blocks, &key);
	if (!b) {
		b = g_new(struct block, 1);
		*b = key;
		g_hash_table_insert(blocks, b, b);
	}
	g_mutex_unlock(&lock);
	/* The block's instructions, added when it runs; the block is never freed (a block
	 * translated again reuses its counter). */
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &b->count,
						 b->n_insns);

	for (i = 0; i < key.n_insns; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *d = qemu_plugin_insn_data(insn);

		if (count_io)
			qemu_plugin_register_vcpu_mem_cb(insn, mem_access, QEMU_PLUGIN_CB_NO_REGS,
							 QEMU_PLUGIN_MEM_RW, NULL);
		if (qemu_plugin_insn_size(insn) == 8 && !memcmp(d, magic, 4) &&
		    !memcmp(d + 5, magic_hi, 3))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, marker, QEMU_PLUGIN_CB_NO_REGS,
							       GUINT_TO_POINTER(d[4]));
	}
}

static void at_exit(qemu_plugin_id_t id, void *p)
{
	g_autofree char *msg = g_strdup_printf("insncount: %" PRIu64 " dumps, %u blocks, "
					       "%u I/O pages\n", dumps,
					       g_hash_table_size(blocks),
					       g_hash_table_size(io_pages));

	qemu_plugin_outs(msg);
	if (out && count_io) {
		g_mutex_lock(&lock);
		fprintf(out, "@iototal\n");
		g_hash_table_foreach(io_pages, dump_io_total, NULL);
		fprintf(out, "@end iototal\n");
		g_mutex_unlock(&lock);
	}
	if (out)
		fclose(out);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	const char *path = NULL;
	int i;

	for (i = 0; i < argc; i++) {
		if (g_str_has_prefix(argv[i], "out="))
			path = argv[i] + 4;
		else if (!strcmp(argv[i], "mmio=on"))
			count_io = true;
	}
	if (!path) {
		fprintf(stderr, "insncount: out=FILE is required\n");
		return -1;
	}
	out = fopen(path, "w");
	if (!out) {
		perror(path);
		return -1;
	}
	blocks = g_hash_table_new(block_hash, block_equal);
	io_pages = g_hash_table_new(g_int64_hash, g_int64_equal);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
