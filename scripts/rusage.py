#!/usr/bin/env python3
# rusage.py CMD...: run CMD (its output untouched) and print to stderr's last line
# "rusage CPU_SECONDS WALL_SECONDS MAXRSS_KB": user + system time of the command and
# everything it waited for (threads, io_uring workers and children included), and the
# largest resident set among them. Exits with the command's status.
import resource
import subprocess
import sys
import time

t0 = time.monotonic()
rc = subprocess.call(sys.argv[1:])
wall = time.monotonic() - t0
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"rusage {ru.ru_utime + ru.ru_stime:.3f} {wall:.3f} {ru.ru_maxrss}", file=sys.stderr)
sys.exit(rc)
