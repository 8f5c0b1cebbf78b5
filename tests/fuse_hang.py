#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/fuse_hang.py MOUNTPOINT FLAG: a FUSE file system (python3-fusepy) in the foreground
# that makes, renames and links files and takes writes (a file reads as zeros),
# and whose getattr and read wait for as long as FLAG exists, as a dead NFS server's
# mount does. tests/t_stacks.sh: the door and the screens must not wait on it.
import errno, os, stat, sys, time
from fusepy import FUSE, FuseOSError, Operations

flag = sys.argv[2]

class Hang(Operations):
    def __init__(self):
        self.files = {}

    def _hang(self):
        while os.path.exists(flag):
            time.sleep(0.1)

    def getattr(self, path, fh=None):
        self._hang()
        if path == "/":
            return dict(st_mode=stat.S_IFDIR | 0o755, st_nlink=2)
        if path in self.files:
            return dict(st_mode=stat.S_IFREG | 0o644, st_nlink=1, st_size=self.files[path])
        raise FuseOSError(errno.ENOENT)

    def create(self, path, mode, fi=None):
        self.files[path] = 0
        return 1

    def open(self, path, flags):
        return 1

    def write(self, path, data, offset, fh):
        self.files[path] = max(self.files.get(path, 0), offset + len(data))
        return len(data)

    # what a result's save asks: a temporary file renamed (or linked) into place
    def rename(self, old, new):
        self.files[new] = self.files.pop(old, 0)
        return 0

    def link(self, target, source):
        self.files[target] = self.files.get(source, 0)
        return 0

    def unlink(self, path):
        self.files.pop(path, None)
        return 0

    def chmod(self, path, mode):
        return 0

    def truncate(self, path, length, fh=None):
        self.files[path] = length

    def read(self, path, size, offset, fh):
        self._hang()
        return bytes(max(0, min(size, self.files.get(path, 0) - offset)))

    def readdir(self, path, fh):
        return [".", ".."] + [p[1:] for p in self.files]

FUSE(Hang(), sys.argv[1], foreground=True, nothreads=False, attr_timeout=0, entry_timeout=0)
