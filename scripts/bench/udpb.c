// SPDX-License-Identifier: GPL-2.0
/*
 * udpb: fixed-count UDP workloads for the benchmark's guest.
 *
 *   udpb send HOST PORT COUNT SIZE   send COUNT datagrams of SIZE bytes (blocking socket: the
 *                                    qdisc and the driver set the pace, none is dropped here)
 *   udpb fetch HOST PORT COUNT SIZE GAP_US [IDLE_MS]
 *                                    ask HOST:PORT (scripts/bench/host.py) for COUNT datagrams
 *                                    of SIZE bytes GAP_US microseconds apart, on this socket,
 *                                    and receive them until COUNT or IDLE_MS (2000) of silence
 *
 * With UDPB_MARK=N in the environment, the transfer itself (not the setup, not the
 * request) is bracketed by the instruction counter's markers 0 and N (mark.h). With
 * UDPB_HOLD_MS=M, fetch reads nothing for M ms after its request (the burst meets a socket
 * that is not being read: past its receive buffer every datagram is a socket drop), then
 * reads what was kept.
 *
 * Prints "udpb sent N bytes B in T s host H" (H: the datagrams host.py counted from this
 * socket, asked for after the burst) or "udpb received N bytes B in T s sent S in U s" (T from
 * the first datagram to the last, S and U: what host.py says it sent, in how long).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "mark.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int usage(void)
{
	fprintf(stderr, "usage: udpb send HOST PORT COUNT SIZE\n"
			"       udpb fetch HOST PORT COUNT SIZE GAP_US [IDLE_MS]\n");
	return 2;
}

int main(int argc, char **argv)
{
	static char buf[65536];
	struct sockaddr_in to = { .sin_family = AF_INET };
	long count, size, i, got = 0, bytes = 0;
	double t0;
	int s, mark;

	if (argc < 6)
		return usage();
	if (inet_pton(AF_INET, argv[2], &to.sin_addr) != 1)
		return usage();
	to.sin_port = htons(atoi(argv[3]));
	count = atol(argv[4]);
	size = atol(argv[5]);
	if (count <= 0 || size <= 0 || size > (long)sizeof(buf))
		return usage();
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0 || connect(s, (struct sockaddr *)&to, sizeof(to)) < 0) {
		perror("udpb: socket");
		return 1;
	}
	memset(buf, 0x5a, sizeof(buf));
	mark = getenv("UDPB_MARK") ? atoi(getenv("UDPB_MARK")) : -1;
	t0 = now();
	if (!strcmp(argv[1], "send")) {
		if (mark > 0)
			bench_mark(0);
		for (i = 0; i < count; i++) {
			if (send(s, buf, size, 0) != size) {
				if (errno == ENOBUFS) { /* the qdisc was full: try again */
					i--;
					continue;
				}
				perror("udpb: send");
				return 1;
			}
		}
		double t = now() - t0;
		long host = -1;
		struct pollfd p = { .fd = s, .events = POLLIN };

		if (mark > 0)
			bench_mark(mark);
		/* How many reached the host: asked for once the queue has drained (a second). */
		usleep(1000000);
		if (send(s, "report", 6, 0) == 6 && poll(&p, 1, 2000) == 1) {
			ssize_t r = recv(s, buf, sizeof(buf) - 1, 0);

			if (r > 0) {
				buf[r] = 0;
				sscanf(buf, "report %ld", &host);
			}
		}
		printf("udpb sent %ld bytes %ld in %.3f s host %ld\n", count, count * size, t, host);
		return 0;
	}
	if (!strcmp(argv[1], "fetch") && argc >= 7) {
		int idle = argc > 7 ? atoi(argv[7]) : 2000;
		int rcvbuf = 1 << 20;
		struct pollfd p = { .fd = s, .events = POLLIN };
		int n;

		setsockopt(s, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
		n = snprintf(buf, sizeof(buf), "fetch %ld %ld %.3f", count, size, atof(argv[6]));
		if (send(s, buf, n, 0) != n) {
			perror("udpb: send request");
			return 1;
		}
		if (mark > 0)
			bench_mark(0);
		if (getenv("UDPB_HOLD_MS")) {
			long ms = atol(getenv("UDPB_HOLD_MS"));
			struct timespec hold = { .tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000L };

			nanosleep(&hold, NULL);
		}
		double first = 0, last = 0, sent_t = -1;
		long sent = -1;

		while (got < count && poll(&p, 1, idle) == 1) {
			ssize_t r = recv(s, buf, sizeof(buf) - 1, 0);

			if (r < 0) {
				perror("udpb: recv");
				return 1;
			}
			/* host.py's trailer after the burst: what it sent, in how long. */
			if (r < 64 && r > 4 && !memcmp(buf, "end ", 4)) {
				buf[r] = 0;
				sscanf(buf, "end %ld %lf", &sent, &sent_t);
				break;
			}
			last = now();
			if (!got)
				first = last;
			got++;
			bytes += r;
		}
		if (mark > 0)
			bench_mark(mark);
		/* Every datagram came (the loop ended before the trailer): the trailer still says
		 * at what rate they were sent. Read after the marker, so counts do not see the wait. */
		while (sent < 0 && got == count && poll(&p, 1, idle) == 1) {
			ssize_t r = recv(s, buf, sizeof(buf) - 1, 0);

			if (r < 64 && r > 4 && !memcmp(buf, "end ", 4)) {
				buf[r] = 0;
				sscanf(buf, "end %ld %lf", &sent, &sent_t);
			}
			if (r < 0)
				break;
		}
		printf("udpb received %ld bytes %ld in %.3f s sent %ld in %.3f s\n", got, bytes,
		       last - first, sent, sent_t);
		return got == count ? 0 : 3;
	}
	return usage();
}
