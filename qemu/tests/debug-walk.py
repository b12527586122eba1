#!/usr/bin/env python3
"""A debug translation must change no descriptor (qemu/run-tests.sh, variant 5).

    debug-walk.py QMP_SOCKET SERIAL_LOG NAME

The bare-metal program built with -DVARIANT=5 prints the addresses of the
descriptors a walk of its DEBUG_VA uses ("# debug-desc NAME ADDR"), the
VA and the PA it maps ("# debug-va VA pa PA"), then "# debug: ready" and
waits at EL1 with stage 1 and stage 2 on, HA and HAFT at both. This
script then, through QEMU's monitor (QMP human-monitor-command), reads
each descriptor from physical memory (xp), translates the VA as a debugger
does (gva2gpa, then x, a read through the same translation), reads the
descriptors again, and prints one TAP line per descriptor, named
"NAME: ...". It ends the run with QMP quit. Exits 0 when it could run
the checks, whatever they found; 1 when it could not, or when what they
stand on does not hold (a descriptor with AF set before, gva2gpa not
reaching the page), with a "#" line that says which.
"""
import json
import re
import socket
import sys
import time


def tap(ok, name, what, detail=""):
    print(("ok - " if ok else "not ok - ") + name + ": " + what +
          (": " + detail if detail and not ok else ""))


class Qmp:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buf = b""
        self.read()                     # greeting
        self.cmd("qmp_capabilities")

    def read(self):
        while b"\n" not in self.buf:
            data = self.sock.recv(65536)
            if not data:
                raise EOFError("QMP connection closed")
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def cmd(self, name, **args):
        self.sock.sendall(json.dumps({"execute": name,
                                      "arguments": args}).encode() + b"\n")
        while True:
            r = self.read()
            if "return" in r or "error" in r:
                return r

    def hmp(self, line):
        r = self.cmd("human-monitor-command", **{"command-line": line})
        if "error" in r:
            raise RuntimeError(line + ": " + r["error"].get("desc", ""))
        return r["return"]


def main():
    sock_path, log_path, name = sys.argv[1:4]
    descs, va, pa = [], None, None
    deadline = time.time() + 50
    while True:
        try:
            text = open(log_path, errors="replace").read()
        except FileNotFoundError:
            text = ""
        if "# debug: ready" in text:
            break
        if "Bail out!" in text or time.time() > deadline:
            tap(False, name, "the program reached its wait at EL1",
                "not seen in " + log_path)
            return 1
        time.sleep(0.2)
    for m in re.finditer(r"^# debug-desc (\S+) (0x[0-9a-f]+)", text, re.M):
        descs.append((m.group(1), int(m.group(2), 16)))
    m = re.search(r"^# debug-va (0x[0-9a-f]+) pa (0x[0-9a-f]+)", text, re.M)
    if m:
        va, pa = int(m.group(1), 16), int(m.group(2), 16)
    if not descs or va is None:
        tap(False, name, "the program printed its descriptors and VA")
        return 1

    qmp = Qmp(sock_path)

    def read_descs():
        vals = {}
        for d, addr in descs:
            out = qmp.hmp("xp /1gx 0x%x" % addr)
            vals[d] = int(out.split(":")[1].split()[0], 16)
        return vals

    # What the checks stand on (a failure here is the setup's, exit 1):
    # every descriptor starts with AF clear, and gva2gpa really walks
    # both stages to the page.
    before = read_descs()
    for d, _ in descs:
        if before[d] & (1 << 10):
            print("# %s has AF set before the debug translation: 0x%x"
                  % (d, before[d]))
            return 1
    gpa = qmp.hmp("gva2gpa 0x%x" % va)
    seen = re.search(r"gpa:\s*(0x[0-9a-f]+)", gpa)
    if seen is None or int(seen.group(1), 16) != pa:
        print("# gva2gpa 0x%x: expected 0x%x, seen %r" % (va, pa, gpa.strip()))
        return 1
    qmp.hmp("x /1gx 0x%x" % va)
    after = read_descs()
    for d, _ in descs:
        tap(after[d] == before[d], name,
            "a debug translation (gva2gpa, x) leaves %s unchanged" % d,
            "expected 0x%x, seen 0x%x" % (before[d], after[d]))
    try:
        qmp.cmd("quit")
    except EOFError:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
