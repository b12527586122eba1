#!/usr/bin/env python3
"""A debugger's accesses through the gdbstub change no descriptor (qemu/run-tests.sh, variant 6).

    gdb-debug.py GDB_SOCKET SERIAL_LOG NAME

The bare-metal program built with -DVARIANT=6 prints the VA it maps, the
page's PA and the address of its gdb_done flag ("# debug-va VA pa PA
done ADDR"), then "# debug: ready", and waits at EL1 with both stages
on. This script then drives gdb-multiarch against QEMU's gdbstub: it
reads the VA (x), writes it (set), asks whether it is tagged
(qIsAddressTagged), reads its allocation tag (qMemTags), writes it
(QMemTags), reads it again and detaches. Then, as a client of its own
(gdb drops replies it did not ask for), it sends two qMemTags packets
the stub must refuse (two granules: E02; tag type 2: E03) and a good
one, each of which must get one reply (the stub once answered a refused
packet twice), sets gdb_done and detaches. It prints one TAP
line per reply it checks; the program itself then checks the
descriptors and the TLB. Exits 0 when it could run gdb, whatever the
replies were; 1 when it could not (no "ready" within 30 s, no gdb, gdb
failing) or when what the checks stand on does not hold (gdb's own
memory write through the gdbstub does not read back), with a "#" line
that says why.
"""
import re
import socket
import subprocess
import sys
import time

GDB_WROTE = 0x6764627772697465      # haft-test.c GDB_WROTE
TAG = 5


def tap(ok, name, what, detail=""):
    print(("ok - " if ok else "not ok - ") + name + ": " + what +
          (": " + detail if detail and not ok else ""))


def main():
    sock, log, name = sys.argv[1:4]
    va = done = None
    for _ in range(300):
        try:
            text = open(log, errors="replace").read()
        except FileNotFoundError:
            text = ""
        m = re.search(r"# debug-va (0x[0-9a-f]+) pa (0x[0-9a-f]+) "
                      r"done (0x[0-9a-f]+)", text)
        if m and "# debug: ready" in text:
            va, done = m.group(1), m.group(3)
            break
        time.sleep(0.1)
    if va is None:
        print("# the program did not say it was ready within 30 s")
        return 1
    v = int(va, 16)
    cmds = [
        "set pagination off", "set confirm off",
        "set architecture aarch64",
        "target remote " + sock,
        "x/1gx " + va,
        "set {unsigned long}%s = %#x" % (va, GDB_WROTE),
        "x/1gx " + va,
        "maint packet qIsAddressTagged:%x" % v,
        "maint packet qMemTags:%x,1:1" % v,
        "maint packet QMemTags:%x,10:1:%02x" % (v, TAG),
        "maint packet qMemTags:%x,1:1" % v,
        "detach",
    ]
    args = ["gdb-multiarch", "-nx", "-batch"]
    for c in cmds:
        args += ["-ex", c]
    try:
        r = subprocess.run(args, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        print("# gdb-multiarch could not run: %s" % e)
        return 1
    out = r.stdout + r.stderr
    for line in out.splitlines():
        print("#   gdb: " + line)
    received = re.findall(r'received: "([^"]*)"', out)
    words = re.findall(r":\s+(0x[0-9a-f]+)\s*$", out, re.M)
    if len(received) != 4 or len(words) != 2:
        print("# gdb did not give the 2 reads and 4 replies expected")
        return 1
    # What the checks stand on, asserted rather than counted: gdb's own
    # memory write through the gdbstub reached the page.
    if int(words[1], 16) != GDB_WROTE:
        print("# gdb's write through the gdbstub did not read back: "
              "expected %#x, seen %s" % (GDB_WROTE, words[1]))
        return 1
    tap(received[0] == "01", name,
        "gdb: qIsAddressTagged: the page is Tagged",
        "expected 01, seen " + received[0])
    tap(received[2] == "OK", name,
        "gdb: QMemTags: the tag write is accepted",
        "expected OK, seen " + received[2])
    tap(received[3] == "m%02x" % TAG, name,
        "gdb: qMemTags reads back the tag written (%d)" % TAG,
        "expected m%02x, seen %s (before the write %s)" %
        (TAG, received[3], received[1]))
    # gdb drops a reply it did not ask for, so the refused packets go
    # through a client of our own that keeps every reply.
    try:
        replies, wrote = raw_session(sock, v, int(done, 16))
    except OSError as e:
        print("# the gdbstub did not take a second session: %s" % e)
        return 1
    if wrote != ["OK"]:
        print("# the second session could not set gdb_done: %s" % wrote)
        return 1
    for what, want, seen in zip(
            ["qMemTags for two granules: one reply, E02",
             "qMemTags for tag type 2: one reply, E03",
             "qMemTags after them: one reply, the tag (m%02x)" % TAG],
            [["E02"], ["E03"], ["m%02x" % TAG]], replies):
        tap(seen == want, name, "gdbstub: " + what,
            "expected %s, seen %s" % (want, seen))
    return 0


def frames(data):
    """The packets in DATA, a stream of the remote protocol."""
    return re.findall(r"\$([^#]*)#[0-9a-fA-F]{2}", data)


def raw_session(sock, va, done):
    """Send the qMemTags packets the stub must refuse, and a good one,
    each answered by every reply that comes within a second; then set
    gdb_done and detach. Returns the three lists of replies."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(sock)
    s.settimeout(1.0)

    def exchange(pkt):
        s.sendall(b"$%s#%02x" % (pkt.encode(), sum(pkt.encode()) & 0xff))
        data = ""
        while True:
            try:
                chunk = s.recv(4096)
            except (socket.timeout, ConnectionResetError):
                break
            if not chunk:
                break
            data += chunk.decode(errors="replace")
        replies = frames(data)
        for _ in replies:
            s.sendall(b"+")     # ignored once QStartNoAckMode is on
        return replies

    exchange("QStartNoAckMode")
    out = [exchange("qMemTags:%x,2:1" % va),
           exchange("qMemTags:%x,1:2" % va),
           exchange("qMemTags:%x,1:1" % va)]
    wrote = exchange("M%x,8:%s" % (done, "01" + "00" * 7))
    # D;1: the stub keeps gdb's multiprocess mode (pid 1). The program
    # then ends, and QEMU with it, maybe before the reply.
    try:
        exchange("D;1")
    except OSError:
        pass
    s.close()
    return out, wrote


sys.exit(main())
