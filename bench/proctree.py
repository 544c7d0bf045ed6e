#!/usr/bin/env python3
"""Runs one command and measures what it costs this machine, as /usr/bin/time -v does, plus its process tree.

    proctree.py OUT.json -- COMMAND [ARG...]

Writes one JSON object to OUT.json:
  wall_s            wall time from start to exit
  user_s, sys_s     CPU of the command and every descendant it waited for (wait4's rusage, as /usr/bin/time)
  maxrss_kib        the largest single process's peak RSS (rusage, as /usr/bin/time's "Maximum resident set size")
  tree_rss_kib      peak of the summed RSS of the command's live process tree (sampled from /proc every 0.2 s)
  tree_procs        peak number of processes in the tree
  tree_threads      peak number of threads in the tree
  tree_fds          peak number of open file descriptors in the tree
  exit              the command's exit status
The sampler runs in this process, outside the command's tree: its own CPU is not counted. Processes that leave
the tree (daemonised ssh ControlMaster processes) are not counted from then on, neither their CPU.
"""
import json
import os
import subprocess
import sys
import threading
import time

PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024


def children_map():
    kids = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # the command name may hold spaces and parentheses: fields start after the last ')'
        fields = stat[stat.rfind(b")") + 2:].split()
        kids.setdefault(int(fields[1]), []).append(int(name))
    return kids


def tree(root):
    kids = children_map()
    seen, todo = [], [root]
    while todo:
        pid = todo.pop()
        seen.append(pid)
        todo.extend(kids.get(pid, []))
    return seen


def sample(pid):
    rss = threads = fds = procs = 0
    for p in tree(pid):
        try:
            with open(f"/proc/{p}/statm") as f:
                rss += int(f.read().split()[1]) * PAGE_KIB
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("Threads:"):
                        threads += int(line.split()[1])
                        break
            fds += len(os.listdir(f"/proc/{p}/fd"))
            procs += 1
        except OSError:
            continue
    return rss, procs, threads, fds


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit("usage: proctree.py OUT.json -- COMMAND [ARG...]")
    out, command = sys.argv[1], sys.argv[3:]
    peaks = {"tree_rss_kib": 0, "tree_procs": 0, "tree_threads": 0, "tree_fds": 0}
    started = time.monotonic()
    child = subprocess.Popen(command)
    done = threading.Event()

    def sampler():
        while not done.is_set():
            values = sample(child.pid)
            for key, value in zip(("tree_rss_kib", "tree_procs", "tree_threads", "tree_fds"), values):
                peaks[key] = max(peaks[key], value)
            done.wait(0.2)

    thread = threading.Thread(target=sampler, daemon=True)
    thread.start()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.monotonic() - started
    done.set()
    thread.join()
    result = {
        "wall_s": round(wall, 3),
        "user_s": round(usage.ru_utime, 3),
        "sys_s": round(usage.ru_stime, 3),
        "maxrss_kib": usage.ru_maxrss,
        **peaks,
        "exit": os.waitstatus_to_exitcode(status),
    }
    with open(out, "w") as f:
        json.dump(result, f)
    sys.exit(0)


if __name__ == "__main__":
    main()
