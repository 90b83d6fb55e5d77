#!/usr/bin/env python3
"""What copying a shard's keys costs the servers alone: no mover, no workload.

Starts two redis-servers on free loopback ports (temp dirs, killed at the end, also on failure),
loads N string keys of 100 random letters into the source (one in ten with a TTL of an hour),
then measures each server's CPU time (utime + stime from /proc/PID/stat) for:

  1. one SCAN pass over the source (COUNT 1000), as the mover makes per source;
  2. a quarter of the keys copied with MIGRATE ... COPY REPLACE KEYS, batches of 1,000;
  3. the same keys copied with DUMP + PTTL on the source and RESTORE ... REPLACE on the target,
     pipelined in batches of 1,000 (this script is the client: its own CPU is not counted).

It prints the CPU per key scanned and per key moved, and the servers' total per key moved when a
quarter of the keys move (four keys scanned for each): the floor under a copy rate on a machine
where the servers share the cores with the application (docs/performance.md, "Adding a node under
load"). The clock tick is 10 ms: with the default N each figure carries about 5 %.

    tools/copy-floor.py [N]        # N keys in the source, default 333,333 (a third of 1,000,000)

Needs redis-server and redis-cli on the PATH.
"""
import os
import random
import shutil
import socket
import string
import subprocess
import sys
import tempfile
import time


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(directory):
    os.makedirs(directory)
    port = free_port()
    process = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--dir", directory],
        stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port)).close()
            return process, port
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit(f"copy-floor: redis-server on port {port} did not answer within 10 s"
                     f" (exit status {process.poll()})")


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def command(*arguments):
    parts = [b"*%d\r\n" % len(arguments)]
    for argument in arguments:
        data = argument if isinstance(argument, bytes) else str(argument).encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(parts)


def pipe(port, data):
    result = subprocess.run(["redis-cli", "-p", str(port), "--pipe"], input=data,
                            capture_output=True, check=True)
    last = result.stdout.decode().strip().splitlines()[-1]
    if "errors: 0," not in last:
        raise SystemExit(f"copy-floor: redis-cli --pipe reported: {last}")


class Connection:
    """A blocking RESP connection: send bytes, read one reply at a time."""

    def __init__(self, port):
        self.socket = socket.create_connection(("127.0.0.1", port))
        self.reader = self.socket.makefile("rb")

    def send(self, data):
        self.socket.sendall(data)

    def read(self):
        line = self.reader.readline()
        kind = line[:1]
        if kind == b"*":
            return [self.read() for _ in range(int(line[1:]))]
        if kind == b"$":
            length = int(line[1:])
            return None if length < 0 else self.reader.read(length + 2)[:-2]
        if kind == b"-":
            raise SystemExit(f"copy-floor: the server answered {line.decode().strip()}")
        return line[1:-2]

    def close(self):
        self.socket.close()


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 333_333
    work = tempfile.mkdtemp(prefix="jumpgate-copy-floor-")
    servers = []
    try:
        source, source_port = start_server(os.path.join(work, "source"))
        servers.append(source)
        target, target_port = start_server(os.path.join(work, "target"))
        servers.append(target)
        value = "".join(random.choice(string.ascii_letters) for _ in range(100)).encode()
        pipe(source_port, b"".join(
            command("SET", f"key:{n}", value, "PX", 3_600_000) if n % 10 == 0
            else command("SET", f"key:{n}", value) for n in range(count)))

        scanner = Connection(source_port)
        before = cpu_seconds(source.pid)
        cursor, scanned = b"0", 0
        while True:
            scanner.send(command("SCAN", cursor, "COUNT", 1000))
            cursor, keys = scanner.read()
            scanned += len(keys)
            if cursor == b"0":
                break
        scan = cpu_seconds(source.pid) - before
        scanner.close()
        print(f"SCAN of {scanned:,} keys: source {scan:.2f} s CPU, "
              f"{scan / scanned * 1e6:.2f} us per key scanned")

        moved = [f"key:{n}" for n in range(0, count, 4)]
        batches = [moved[at:at + 1000] for at in range(0, len(moved), 1000)]
        source_before, target_before = cpu_seconds(source.pid), cpu_seconds(target.pid)
        pipe(source_port, b"".join(
            command("MIGRATE", "127.0.0.1", target_port, "", 0, 5000, "COPY", "REPLACE", "KEYS",
                    *batch) for batch in batches))
        migrate = (cpu_seconds(source.pid) - source_before, cpu_seconds(target.pid) - target_before)

        reader, writer = Connection(source_port), Connection(target_port)
        source_before, target_before = cpu_seconds(source.pid), cpu_seconds(target.pid)
        for batch in batches:
            reader.send(b"".join(command("DUMP", key) + command("PTTL", key) for key in batch))
            restores = []
            for key in batch:
                payload, ttl = reader.read(), int(reader.read())
                restores.append(command("RESTORE", key, max(ttl, 0), payload, "REPLACE"))
            writer.send(b"".join(restores))
            for _ in batch:
                writer.read()
        dump = (cpu_seconds(source.pid) - source_before, cpu_seconds(target.pid) - target_before)
        reader.close()
        writer.close()

        per_scanned = scan / scanned * 1e6
        for name, (on_source, on_target) in (("MIGRATE", migrate), ("DUMP+PTTL / RESTORE", dump)):
            source_us, target_us = on_source / len(moved) * 1e6, on_target / len(moved) * 1e6
            print(f"{name} of {len(moved):,} keys in batches of 1,000: source {source_us:.2f} + "
                  f"target {target_us:.2f} us per key moved; with the SCAN (4 keys scanned per key "
                  f"moved): {4 * per_scanned + source_us + target_us:.2f} us of server CPU per key "
                  f"moved, {(4 * per_scanned + source_us + target_us) / 10:.2f} cores at 100,000 "
                  f"keys/s")
    finally:
        for server in servers:
            server.kill()
            server.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
