// SPDX-License-Identifier: GPL-2.0
/*
 * rawpkt: raw Ethernet frames for the pair suite's receive-filter tests. Built static for the
 * test guest.
 *
 *   rawpkt serve IFACE
 *	Answers requests from the peer guest: "SEND <seq> <dst> <n> <round>" makes it send n
 *	frames of EtherType 0x88b6 to the MAC address <dst>, then "DONE <seq> <round>" to the
 *	requester's own address; "QUIT" ends it (exit 0) after a "BYE" to the requester. Exits 1
 *	after 120 s without a request.
 *   rawpkt request IFACE PEER DST N [ROUNDS]
 *	Asks PEER for N frames to DST and prints "<got> <rounds>": how many distinct ones this
 *	interface received before the DONE (a frame that the NIC filtered out never reaches the
 *	packet socket), and in how many rounds. While some are missing and fewer than ROUNDS
 *	(default 1) rounds were answered, it asks for all N again. A request without a DONE is
 *	retried (5 times in all, 2 s apart); exit 1 if none is answered.
 *   rawpkt quit IFACE PEER
 *	Sends QUIT to PEER until it answers BYE (5 tries, 2 s apart; exit 1 if it never does).
 *   rawpkt unjoined IFACE [CANDIDATE...]
 *	Prints a multicast address (the first CANDIDATE that fits, or one from 01:00:5e:7f:ee:xx)
 *	that IFACE has not joined and whose 8255x multicast hash bucket (bits 2-7 of the
 *	big-endian CRC-32 of the address, as the chip and QEMU's model compute it) is not used by
 *	any address it has joined (/proc/net/dev_mcast), so the imperfect hash filter cannot let
 *	it through.
 *   rawpkt flood IFACE N
 *	Sends N broadcast frames of EtherType 0x88b6 as fast as the stack takes them, without
 *	waiting when the queue is full (to fill a transmit ring); prints how many it took.
 *   rawpkt icmp-len IFACE N
 *	Prints, for each of the next N ICMP echo replies received, its length and whether the
 *	frame ends with its IP packet ("no-fcs") or with a correct FCS after it ("fcs-ok").
 *   rawpkt damaged IFACE
 *	Until SIGTERM (or 10 minutes), judges every frame IFACE receives, then prints
 *	"<damaged> <all>": how many were damaged, and how many there were in all. Damaged: shorter than the 60-byte minimum (QEMU
 *	pads every good frame to 60, so a shorter one is a fragment), or IPv4 with a header that
 *	is not one (version, length, checksum) or a packet longer than the frame (cut short).
 *	Only a NIC that saves bad frames passes such frames up.
 *   rawpkt txstamp HOST PORT N
 *	Sends N UDP datagrams to HOST:PORT asking for software transmit timestamps
 *	(SO_TIMESTAMPING with SOF_TIMESTAMPING_TX_SOFTWARE, which only the driver's
 *	skb_tx_timestamp() gives) and prints how many came back on the error queue within 2 s
 *	of each send.
 *   rawpkt malformed IFACE PEER
 *	Asks PEER (scripts/raw-peer.py, a host process on the guest's dgram wire) once for its
 *	malformed frames: runts, legal frames at both limits, oversize frames up to 60000 bytes,
 *	headerless fragments and garbage IPv4. Prints, for each data frame from PEER this
 *	interface received before the DONE, "<index>:<length>" (the index is the byte after the
 *	EtherType); exit 1 without a DONE in 5 s. Not retried: every frame must be sent once, so
 *	that the guest's counters can be held to the exact numbers.
 *   rawpkt bucket-mates MAC N
 *	Prints N multicast addresses (from 01:00:5e:7f:10:00 on) other than MAC that fall in
 *	MAC's hash bucket: joining them adds no bucket to the filter.
 *
 * Requests and DONE use the IEEE local experimental EtherType 0x88b5; the data frames 0x88b6.
 * Data frames carry "<seq> <index>" so that a retried request is not counted twice.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/errqueue.h>
#include <linux/if_packet.h>
#include <linux/net_tstamp.h>
#include <netinet/in.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define ETH_CTRL 0x88b5
#define ETH_DATA 0x88b6
#define MAX_N 1000

static int ifindex;
static unsigned char own[6];

static int parse_mac(const char *s, unsigned char *m)
{
	return sscanf(s, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &m[0], &m[1], &m[2], &m[3], &m[4],
		      &m[5]) == 6 ? 0 : -1;
}

static int open_sock(const char *ifname)
{
	struct sockaddr_ll sll = { 0 };
	struct ifreq ifr = { 0 };
	int fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));

	if (fd < 0) {
		perror("socket");
		exit(2);
	}
	strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
	if (ioctl(fd, SIOCGIFINDEX, &ifr) < 0) {
		perror("SIOCGIFINDEX");
		exit(2);
	}
	ifindex = ifr.ifr_ifindex;
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0) {
		perror("SIOCGIFHWADDR");
		exit(2);
	}
	memcpy(own, ifr.ifr_hwaddr.sa_data, 6);
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = ifindex;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		perror("bind");
		exit(2);
	}
	return fd;
}

static void send_frame(int fd, const unsigned char *dst, int type, const char *payload)
{
	unsigned char f[ETH_ZLEN + 64] = { 0 };
	size_t len = strlen(payload);
	struct sockaddr_ll to = { 0 };

	if (len > 64)
		len = 64;
	memcpy(f, dst, 6);
	memcpy(f + 6, own, 6);
	f[12] = type >> 8;
	f[13] = type & 0xff;
	memcpy(f + 14, payload, len);
	to.sll_family = AF_PACKET;
	to.sll_ifindex = ifindex;
	to.sll_halen = 6;
	memcpy(to.sll_addr, dst, 6);
	/* Padded to the Ethernet minimum here, so the test does not depend on who pads. */
	while (sendto(fd, f, 14 + len < ETH_ZLEN ? ETH_ZLEN : 14 + len, 0, (struct sockaddr *)&to,
		      sizeof(to)) < 0) {
		if (errno != ENOBUFS && errno != EAGAIN) {
			perror("sendto");
			exit(2);
		}
		usleep(1000);
	}
}

/* Receives one frame not sent by us; 0 on timeout. */
static ssize_t recv_frame(int fd, unsigned char *buf, size_t size, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct sockaddr_ll from;
	socklen_t fl = sizeof(from);
	ssize_t n;

	if (poll(&p, 1, timeout_ms) <= 0)
		return 0;
	n = recvfrom(fd, buf, size - 1, 0, (struct sockaddr *)&from, &fl);
	if (n < 14 || from.sll_pkttype == PACKET_OUTGOING)
		return -1;
	buf[n] = 0;
	return n;
}

static int type_of(const unsigned char *f)
{
	return f[12] << 8 | f[13];
}

static int serve(int fd)
{
	unsigned char f[2048];

	time_t last = time(NULL);

	for (;;) {
		ssize_t n = recv_frame(fd, f, sizeof(f), 1000);
		unsigned char dst[6];
		char mac[32], reply[64];
		unsigned long seq;
		int count, round, i;

		if (time(NULL) - last > 120) {
			fprintf(stderr, "rawpkt serve: no request in 120 s\n");
			return 1;
		}
		if (n <= 0 || type_of(f) != ETH_CTRL || memcmp(f, own, 6))
			continue;
		last = time(NULL);
		if (!strncmp((char *)f + 14, "QUIT", 4)) {
			/* Thrice: the client waits for one, and a frame can be lost. */
			for (i = 0; i < 3; i++)
				send_frame(fd, f + 6, ETH_CTRL, "BYE");
			return 0;
		}
		if (sscanf((char *)f + 14, "SEND %lu %31s %d %d", &seq, mac, &count, &round) != 4 ||
		    parse_mac(mac, dst) || count < 0 || count > MAX_N)
			continue;
		for (i = 0; i < count; i++) {
			char p[32];

			snprintf(p, sizeof(p), "%lu %d", seq, i);
			send_frame(fd, dst, ETH_DATA, p);
		}
		snprintf(reply, sizeof(reply), "DONE %lu %d", seq, round);
		send_frame(fd, f + 6, ETH_CTRL, reply);
	}
}

static int request(int fd, const unsigned char *peer, const char *dst, int count, int rounds)
{
	static unsigned char seen[MAX_N];
	unsigned long seq = (unsigned long)time(NULL) * 1000 + (getpid() % 1000);
	unsigned char f[2048];
	int tries = 0, round = 0, got = 0;

	while (round < rounds && got < count && tries < 5) {
		char req[80], done[48];
		struct timespec t0, t;
		int answered = 0;

		snprintf(req, sizeof(req), "SEND %lu %s %d %d", seq, dst, count, round);
		snprintf(done, sizeof(done), "DONE %lu %d", seq, round);
		send_frame(fd, peer, ETH_CTRL, req);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (;;) {
			ssize_t n;
			unsigned long s;
			int i;

			clock_gettime(CLOCK_MONOTONIC, &t);
			if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 > 2000)
				break;
			n = recv_frame(fd, f, sizeof(f), 200);
			if (n <= 0)
				continue;
			if (type_of(f) == ETH_CTRL && !strcmp((char *)f + 14, done)) {
				answered = 1;
				break;
			}
			if (type_of(f) == ETH_DATA &&
			    sscanf((char *)f + 14, "%lu %d", &s, &i) == 2 && s == seq && i >= 0 &&
			    i < count && !seen[i]) {
				seen[i] = 1;
				got++;
			}
		}
		if (answered)
			round++;
		else
			tries++;
	}
	if (!round) {
		fprintf(stderr, "rawpkt request: no DONE from the peer after %d tries (%d frames seen)\n",
			tries, got);
		return 1;
	}
	printf("%d %d\n", got, round);
	return 0;
}

/* Frames can be lost (the C driver's junk-extended frames are dropped as over-length): ask
 * until the server confirms. */
static int quit(int fd, const unsigned char *peer)
{
	unsigned char f[2048];
	int tries, polls;

	for (tries = 0; tries < 5; tries++) {
		send_frame(fd, peer, ETH_CTRL, "QUIT");
		for (polls = 0; polls < 10; polls++) {
			ssize_t n = recv_frame(fd, f, sizeof(f), 200);

			if (n > 0 && type_of(f) == ETH_CTRL && !memcmp(f, own, 6) &&
			    !strncmp((char *)f + 14, "BYE", 3))
				return 0;
		}
	}
	fprintf(stderr, "rawpkt quit: no BYE from the peer after 5 tries\n");
	return 1;
}

/* The 8255x multicast hash: bits 2-7 of the CRC-32 of the address, computed MSB first. */
static unsigned bucket(const unsigned char *m)
{
	uint32_t crc = 0xffffffff;
	int i, j;

	for (i = 0; i < 6; i++) {
		unsigned char b = m[i];

		for (j = 0; j < 8; j++) {
			int carry = ((crc & 0x80000000) ? 1 : 0) ^ (b & 1);

			crc <<= 1;
			b >>= 1;
			if (carry)
				crc = (crc ^ 0x04c11db6) | carry;
		}
	}
	return (crc >> 2) & 0x3f;
}

static int unjoined(const char *ifname, int ncand, char **cand)
{
	char line[256], name[IFNAMSIZ + 1], hex[64];
	unsigned long long used = 0;
	unsigned char m[6];
	int idx, users, global, i;
	FILE *f = fopen("/proc/net/dev_mcast", "r");

	if (!f) {
		perror("/proc/net/dev_mcast");
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%d %16s %d %d %63s", &idx, name, &users, &global, hex) != 5 ||
		    strcmp(name, ifname) || strlen(hex) != 12)
			continue;
		for (i = 0; i < 6; i++)
			sscanf(hex + 2 * i, "%2hhx", &m[i]);
		used |= 1ULL << bucket(m);
	}
	fclose(f);
	for (i = 0; i < ncand; i++) {
		if (parse_mac(cand[i], m) || !(m[0] & 1))
			continue;
		if (!(used & (1ULL << bucket(m)))) {
			printf("%s\n", cand[i]);
			return 0;
		}
	}
	/* Candidates from the IPv4 range 239.255.x.y (administratively scoped). */
	for (i = 1; ncand == 0 && i < 256; i++) {
		unsigned char c[6] = { 0x01, 0x00, 0x5e, 0x7f, 0xee, (unsigned char)i };

		if (!(used & (1ULL << bucket(c)))) {
			printf("%02x:%02x:%02x:%02x:%02x:%02x\n", c[0], c[1], c[2], c[3], c[4], c[5]);
			return 0;
		}
	}
	fprintf(stderr, "rawpkt unjoined: every hash bucket is in use\n");
	return 1;
}

static int bucket_mates(const char *mac, int n)
{
	unsigned char m[6];
	unsigned b;
	int hi, lo;

	if (parse_mac(mac, m) || n < 1)
		return 2;
	b = bucket(m);
	for (hi = 0x10; hi < 0x100 && n > 0; hi++) {
		for (lo = 0; lo < 0x100 && n > 0; lo++) {
			unsigned char c[6] = { 0x01, 0x00, 0x5e, 0x7f, (unsigned char)hi,
					       (unsigned char)lo };

			if (bucket(c) != b || !memcmp(c, m, 6))
				continue;
			printf("%02x:%02x:%02x:%02x:%02x:%02x\n", c[0], c[1], c[2], c[3], c[4],
			       c[5]);
			n--;
		}
	}
	return n ? 1 : 0;
}

static int flood(int fd, int n)
{
	static const unsigned char bcast[6] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	unsigned char f[ETH_ZLEN] = { 0 };
	struct sockaddr_ll to = { 0 };
	int i, took = 0;

	memcpy(f, bcast, 6);
	memcpy(f + 6, own, 6);
	f[12] = ETH_DATA >> 8;
	f[13] = ETH_DATA & 0xff;
	to.sll_family = AF_PACKET;
	to.sll_ifindex = ifindex;
	to.sll_halen = 6;
	memcpy(to.sll_addr, bcast, 6);
	for (i = 0; i < n; i++)
		if (sendto(fd, f, sizeof(f), MSG_DONTWAIT, (struct sockaddr *)&to, sizeof(to)) > 0)
			took++;
	printf("%d\n", took);
	return 0;
}

/* CRC-32 (IEEE 802.3), bitwise: the FCS of a frame. */
static uint32_t crc32_ieee(const unsigned char *p, size_t n)
{
	uint32_t c = 0xffffffff;
	int k;

	while (n--) {
		c ^= *p++;
		for (k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320 & -(c & 1));
	}
	return ~c;
}

/*
 * The next n ICMP echo replies received: for each, "LEN no-fcs" when the frame is its IP
 * packet and no more, "LEN fcs-ok" when 4 more bytes follow that are the frame's FCS
 * (CRC-32, little-endian), "LEN fcs-bad" or "LEN odd" otherwise. 10 s at most.
 */
static int icmp_len(int fd, int n)
{
	unsigned char f[2048];
	time_t end = time(NULL) + 10;
	int got = 0;

	while (got < n && time(NULL) < end) {
		ssize_t len = recv_frame(fd, f, sizeof(f), 1000);
		size_t ip;
		uint32_t fcs;

		if (len < 14 + 20 + 8 || type_of(f) != 0x0800 || f[14 + 9] != 1 || f[14 + 20] != 0)
			continue;
		ip = (size_t)f[16] << 8 | f[17];
		got++;
		if ((size_t)len == 14 + ip) {
			printf("%zd no-fcs\n", len);
		} else if ((size_t)len == 14 + ip + 4) {
			fcs = f[len - 4] | f[len - 3] << 8 | f[len - 2] << 16 | (uint32_t)f[len - 1] << 24;
			printf("%zd %s\n", len, fcs == crc32_ieee(f, len - 4) ? "fcs-ok" : "fcs-bad");
		} else {
			printf("%zd odd\n", len);
		}
	}
	return got == n ? 0 : 1;
}

/* Whether a received frame of n bytes is damaged (see "damaged" above). */
static int is_damaged(const unsigned char *f, ssize_t n)
{
	const unsigned char *ip = f + 14;
	unsigned int ihl, sum = 0, i;

	if (n < ETH_ZLEN)
		return 1;
	if (type_of(f) != 0x0800)
		return 0;
	ihl = (ip[0] & 0x0f) * 4u;
	if (ip[0] >> 4 != 4 || ihl < 20 || 14 + ihl > (size_t)n ||
	    14 + (size_t)(ip[2] << 8 | ip[3]) > (size_t)n)
		return 1;
	for (i = 0; i < ihl; i += 2)
		sum += ip[i] << 8 | ip[i + 1];
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum != 0xffff;
}

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static int damaged_frames(int fd)
{
	unsigned char f[2048];
	time_t end = time(NULL) + 600;
	unsigned long bad = 0, all = 0;
	struct sigaction sa = { .sa_handler = on_term };

	sigaction(SIGTERM, &sa, NULL);
	while (!stop && time(NULL) < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct sockaddr_ll from;
		socklen_t fl = sizeof(from);
		ssize_t n;

		if (poll(&p, 1, 200) <= 0)
			continue;
		/* MSG_TRUNC: the whole length, even of a GRO-merged packet larger than f. */
		n = recvfrom(fd, f, sizeof(f), MSG_TRUNC, (struct sockaddr *)&from, &fl);
		if (n < 0 || from.sll_pkttype == PACKET_OUTGOING)
			continue;
		all++;
		bad += is_damaged(f, n);
	}
	printf("%lu %lu\n", bad, all);
	return 0;
}

static int txstamp(const char *host, int port, int n)
{
	int flags = SOF_TIMESTAMPING_TX_SOFTWARE | SOF_TIMESTAMPING_SOFTWARE |
		    SOF_TIMESTAMPING_OPT_ID | SOF_TIMESTAMPING_OPT_TSONLY;
	struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons(port) };
	int fd = socket(AF_INET, SOCK_DGRAM, 0), got = 0, i;

	if (fd < 0 || inet_pton(AF_INET, host, &to.sin_addr) != 1 ||
	    setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPING, &flags, sizeof(flags)) < 0) {
		perror("txstamp: socket");
		return 1;
	}
	for (i = 0; i < n; i++) {
		char data[64], ctl[512];
		struct iovec iov = { .iov_base = data, .iov_len = sizeof(data) };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
				    .msg_control = ctl, .msg_controllen = sizeof(ctl) };
		struct pollfd pf = { .fd = fd, .events = 0 };
		struct cmsghdr *c;

		snprintf(data, sizeof(data), "e100test-txstamp %d", i);
		if (sendto(fd, data, strlen(data), 0, (struct sockaddr *)&to, sizeof(to)) < 0) {
			perror("txstamp: sendto");
			return 1;
		}
		/* The timestamp comes back as POLLERR on the socket's error queue. */
		if (poll(&pf, 1, 2000) != 1 || recvmsg(fd, &m, MSG_ERRQUEUE) < 0)
			continue;
		for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_TIMESTAMPING) {
				struct timespec *ts = (struct timespec *)CMSG_DATA(c);

				if (ts[0].tv_sec || ts[0].tv_nsec) {
					got++;
					break;
				}
			}
		}
	}
	printf("%d\n", got);
	return 0;
}

static int malformed(int fd, const unsigned char *peer)
{
	unsigned char f[2048];
	unsigned long seq = (unsigned long)time(NULL) * 1000 + (getpid() % 1000);
	char req[48], done[48];
	struct timespec t0, t;

	snprintf(req, sizeof(req), "MALFORMED %lu", seq);
	snprintf(done, sizeof(done), "DONE %lu 0", seq);
	send_frame(fd, peer, ETH_CTRL, req);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		ssize_t n;

		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 5) {
			fprintf(stderr, "rawpkt malformed: no DONE from the peer in 5 s\n");
			return 1;
		}
		n = recv_frame(fd, f, sizeof(f), 200);
		if (n <= 0 || memcmp(f + 6, peer, 6))
			continue;
		if (type_of(f) == ETH_CTRL && !strcmp((char *)f + 14, done))
			break;
		if (type_of(f) == ETH_DATA && n > 14)
			printf("%d:%zd ", f[14], n);
	}
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	unsigned char peer[6];
	int fd;

	if (argc >= 4 && !strcmp(argv[1], "bucket-mates"))
		return bucket_mates(argv[2], atoi(argv[3]));
	if (argc >= 3 && !strcmp(argv[1], "unjoined"))
		return unjoined(argv[2], argc - 3, argv + 3);
	if (argc >= 3 && !strcmp(argv[1], "serve"))
		return serve(open_sock(argv[2]));
	if (argc >= 6 && !strcmp(argv[1], "request") && !parse_mac(argv[3], peer)) {
		unsigned char d[6];
		int rounds = argc >= 7 ? atoi(argv[6]) : 1;

		if (parse_mac(argv[4], d) || atoi(argv[5]) < 1 || atoi(argv[5]) > MAX_N ||
		    rounds < 1) {
			fprintf(stderr, "bad DST, N or ROUNDS\n");
			return 2;
		}
		fd = open_sock(argv[2]);
		return request(fd, peer, argv[4], atoi(argv[5]), rounds);
	}
	if (argc >= 4 && !strcmp(argv[1], "flood") && atoi(argv[3]) > 0)
		return flood(open_sock(argv[2]), atoi(argv[3]));
	if (argc >= 5 && !strcmp(argv[1], "txstamp") && atoi(argv[4]) > 0)
		return txstamp(argv[2], atoi(argv[3]), atoi(argv[4]));
	if (argc >= 3 && !strcmp(argv[1], "damaged"))
		return damaged_frames(open_sock(argv[2]));
	if (argc >= 4 && !strcmp(argv[1], "icmp-len") && atoi(argv[3]) > 0)
		return icmp_len(open_sock(argv[2]), atoi(argv[3]));
	if (argc >= 4 && !strcmp(argv[1], "malformed") && !parse_mac(argv[3], peer))
		return malformed(open_sock(argv[2]), peer);
	if (argc >= 4 && !strcmp(argv[1], "quit") && !parse_mac(argv[3], peer))
		return quit(open_sock(argv[2]), peer);
	fprintf(stderr, "usage: rawpkt serve IFACE | request IFACE PEER DST N | quit IFACE PEER |"
			" unjoined IFACE | flood IFACE N | damaged IFACE | icmp-len IFACE N |"
			" txstamp HOST PORT N | malformed IFACE PEER\n");
	return 2;
}
