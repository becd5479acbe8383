#!/usr/bin/env python3
"""Runs a command in a process group of its own and leaves nothing of that group behind.

  scripts/pgroup.py CMD [ARG...]

The command (scripts/test.sh) and everything it starts (QEMU, iperf3, the host services) share
one new process group. This wrapper stays in the caller's group, so a Ctrl-C at the terminal
or a TERM from CI reaches it; it forwards INT, TERM and HUP to the whole group. When the
command exits, for whatever reason, whatever is left in the group gets TERM and, a few
seconds later, KILL, so an interrupted or crashed run never leaves a QEMU running to skew the
next run; and should this wrapper itself be killed outright, the command gets TERM
(PR_SET_PDEATHSIG) and stops its group. Exits with the command's status (128 + signal if it
was killed).
"""
import ctypes
import os
import signal
import sys
import time

PR_SET_PDEATHSIG = 1


def alive(pgid):
    try:
        os.killpg(pgid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def sweep(pgid):
    """TERM, then KILL, whatever remains in the group."""
    for sig, wait in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 2.0)):
        if not alive(pgid):
            return
        try:
            os.killpg(pgid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and alive(pgid):
            time.sleep(0.1)


def main():
    if len(sys.argv) < 2:
        print("usage: pgroup.py CMD [ARG...]", file=sys.stderr)
        return 2
    # Block the forwarded signals until the handlers know the child's group.
    sigs = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    signal.pthread_sigmask(signal.SIG_BLOCK, sigs)
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:
        os.setpgid(0, 0)
        # Should this wrapper be killed outright (SIGKILL), the command gets TERM, and its own
        # trap stops the group.
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        if os.getppid() != parent:
            os._exit(143)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, sigs)
        os.environ["E100_RS_PGROUP"] = str(os.getpid())
        try:
            os.execvp(sys.argv[1], sys.argv[1:])
        except OSError as e:
            print(f"pgroup.py: {sys.argv[1]}: {e}", file=sys.stderr)
            os._exit(127)
    # The child may not have run setpgid yet: do it from here too (whichever runs first wins).
    try:
        os.setpgid(pid, pid)
    except (PermissionError, ProcessLookupError):
        pass

    def forward(signum, _frame):
        try:
            os.killpg(pid, signum)
        except ProcessLookupError:
            pass

    for s in sigs:
        signal.signal(s, forward)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, sigs)
    while True:
        try:
            _, status = os.waitpid(pid, 0)
            break
        except InterruptedError:
            continue
    sweep(pid)
    if os.WIFSIGNALED(status):
        return 128 + os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


if __name__ == "__main__":
    sys.exit(main())
