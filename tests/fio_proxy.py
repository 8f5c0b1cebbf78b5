#!/usr/bin/env python3
# A hostile fio server for tests/t_guest.sh: a proxy between fio's client and a real
# `fio --server` that speaks fio's wire protocol (server.h: a 24-byte little-endian
# header, version, opcode, flags, tag, pdu_len, then CRC-16/ARC of the header's first
# 20 bytes and of the payload) and abuses the client's trust in its server:
#   - after the server's first command it asks the client for a local file
#     (FIO_NET_CMD_SENDFILE, the path in a 256-byte field), and records the client's
#     reply (never passed on to the real server, which did not ask);
#   - it renames every log the server sends back (FIO_NET_CMD_IOLOG: the name field,
#     found where the server put the log's name) to a path of its choosing, which the
#     client would create as "PATH.HOST".
# Usage: fio_proxy.py LISTEN_PORT SERVER_PORT FILE_TO_ASK PATH_TO_WRITE REPORT MARKER
# The report gets a line per event: "asked PATH", "reply error=E bytes=N leaked=yes|no"
# (whether MARKER, the asked file's content, came back), "renamed OLD", and "ready" once
# it listens.
import re
import socket
import struct
import sys
import threading

SENDFILE, IOLOG = 21, 17
HDR = struct.Struct("<HHIQIHH")


def crc16(data):
    crc = 0
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ 0xA001 if crc & 1 else crc >> 1
    return crc


def frame(version, opcode, flags, tag, payload):
    head = struct.pack("<HHIQI", version, opcode, flags, tag, len(payload))
    return head + struct.pack("<HH", crc16(head), crc16(payload)) + payload


class Stream:
    """Whole commands out of a byte stream."""

    def __init__(self, sock):
        self.sock, self.buf = sock, b""

    def next(self):
        while True:
            if len(self.buf) >= HDR.size:
                fields = HDR.unpack_from(self.buf)
                end = HDR.size + fields[4]
                if len(self.buf) >= end:
                    cmd, self.buf = self.buf[:end], self.buf[end:]
                    return fields, cmd[HDR.size:]
            data = self.sock.recv(65536)
            if not data:
                return None, None
            self.buf += data


def main():
    listen_port, server_port = int(sys.argv[1]), int(sys.argv[2])
    ask, write_to, report_path = sys.argv[3], sys.argv[4], sys.argv[5]
    marker = sys.argv[6].encode()
    report = open(report_path, "a", buffering=1)
    lock = threading.Lock()

    def say(line):
        with lock:
            report.write(line + "\n")

    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", listen_port))
    ls.listen(4)
    say("ready")

    def serve(client):
        server = socket.create_connection(("127.0.0.1", server_port))
        asked = threading.Event()

        def from_client():
            s = Stream(client)
            while True:
                fields, payload = s.next()
                if fields is None:
                    break
                if fields[1] == SENDFILE:
                    size, error = struct.unpack_from("<II", payload)
                    data = payload[8:]
                    say("reply error=%d bytes=%d leaked=%s" % (
                        error, len(data), "yes" if marker in data else "no"))
                    continue
                server.sendall(HDR.pack(*fields) + payload)
            server.close()

        def from_server():
            s = Stream(server)
            while True:
                fields, payload = s.next()
                if fields is None:
                    break
                version, opcode, flags, tag = fields[:4]
                if opcode == IOLOG:
                    m = re.search(rb"(?<=\x00)[\w.-]+\.log\x00", payload)
                    if m:
                        name = payload[m.start():m.end() - 1].decode()
                        field = write_to.encode()[:200] + b"\x00"
                        payload = payload[:m.start()] + field + payload[m.start() + len(field):]
                        say("renamed " + name)
                    client.sendall(frame(version, opcode, flags, tag, payload))
                    continue
                client.sendall(HDR.pack(*fields) + payload)
                if not asked.is_set():
                    asked.set()
                    path = ask.encode()[:255].ljust(256, b"\x00")
                    client.sendall(frame(version, SENDFILE, 0, 0x5eed, path))
                    say("asked " + ask)
            client.close()

        threads = [threading.Thread(target=f, daemon=True) for f in (from_client, from_server)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    while True:
        c, _ = ls.accept()
        threading.Thread(target=serve, args=(c,), daemon=True).start()


if __name__ == "__main__":
    main()
