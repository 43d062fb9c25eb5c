#!/usr/bin/env python3
"""How the README's commands look to a newcomer: run one in a fresh clone of this checkout and
time what it prints.

    scripts/first_minutes.py                      # `cargo test`, on a pseudo-terminal
    scripts/first_minutes.py --piped              # the same, its output into a pipe (a log, CI)
    scripts/first_minutes.py -- cargo run --release -- build

The clone (of HEAD, into a temporary directory, removed afterwards unless --keep) has no target
directory; the crates are taken from cargo's cache as they are (download them first with `cargo
fetch` for the README's "the crates already downloaded"). On a pseudo-terminal (100 columns) cargo
draws its progress bar, which it redraws when a compile starts or ends; piped, it prints only its
`Compiling` lines. Printed: the total, the longest gap between two lines (a newline), and, at a
terminal, the longest the screen stayed the same (a redrawn bar counts when its text changes).
Every write is logged with its time in LOG (--log, default first-minutes.log in the current
directory). Run it on an idle machine: the figures are wall-clock.
"""

import argparse
import os
import pty
import re
import shutil
import subprocess
import sys
import tempfile
import time

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class Clock:
    """Gaps between lines and between changes of the screen's last line."""

    def __init__(self) -> None:
        self.t0 = time.monotonic()
        self.last_line = self.last_change = self.t0
        self.gap_line = (0.0, "(start)")
        self.gap_change = (0.0, "(start)")
        self.current = ""
        self.started = self.t0  # when the segment in `current` began to arrive
        self.shown = "(start)"
        self.line = "(start)"

    def feed(self, text: str, now: float) -> None:
        for part in re.split(r"(\r|\n)", ANSI.sub("", text).replace("\r\n", "\n")):
            if part == "\n":
                at = self.started if self.current else now
                self.gap_line = max(self.gap_line, (at - self.last_line, self.line))
                self.gap_change = max(self.gap_change, (at - self.last_change, self.shown))
                self.last_line = self.last_change = at
                self.line = self.shown = self.current
                self.current = ""
            elif part == "\r":
                if self.current.strip() and self.current != self.shown:
                    self.gap_change = max(self.gap_change, (self.started - self.last_change, self.shown))
                    self.last_change = self.started
                    self.shown = self.current
                self.current = ""
            elif part:
                if not self.current:
                    self.started = now
                self.current += part

    def end(self, now: float) -> None:
        self.gap_line = max(self.gap_line, (now - self.last_line, self.line))
        self.gap_change = max(self.gap_change, (now - self.last_change, self.shown))


def run_pty(cmd: list[str], cwd: str, log) -> tuple[int, Clock]:
    import codecs
    import fcntl
    import struct
    import termios

    clock = Clock()
    pid, fd = pty.fork()
    if pid == 0:
        try:
            # 100 columns, set before the command asks
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
            os.chdir(cwd)
            os.execvp(cmd[0], cmd)
        except OSError as e:
            print(f"first_minutes: {cmd[0]}: {e}", file=sys.stderr)
        os._exit(127)
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    pending = ""  # a trailing \r, which may be the first half of a \r\n
    while True:
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        now = time.monotonic()
        text = pending + decoder.decode(data)
        pending = "\r" if text.endswith("\r") else ""
        text = text[: len(text) - len(pending)]
        log.write(f"{now - clock.t0:8.2f} {data!r}\n")
        clock.feed(text, now)
    clock.feed(pending + decoder.decode(b"", final=True), time.monotonic())
    _, status = os.waitpid(pid, 0)
    clock.end(time.monotonic())
    return os.waitstatus_to_exitcode(status), clock


def run_piped(cmd: list[str], cwd: str, log) -> tuple[int, Clock]:
    clock = Clock()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
    assert p.stdout is not None
    for line in p.stdout:
        now = time.monotonic()
        log.write(f"{now - clock.t0:8.2f} {line}")
        clock.feed(line, now)
    code = p.wait()
    clock.end(time.monotonic())
    return code, clock


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--piped", action="store_true", help="output into a pipe instead of a pseudo-terminal")
    ap.add_argument("--log", default="first-minutes.log", help="where every write goes, timed")
    ap.add_argument("--keep", action="store_true", help="keep the clone (its path is printed)")
    ap.add_argument("command", nargs="*", default=["cargo", "test"], help="default: cargo test")
    args = ap.parse_args()
    root = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=True).stdout.strip()
    commit = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    work = tempfile.mkdtemp(prefix="first-minutes-")
    clone = os.path.join(work, "slidetable")
    try:
        subprocess.run(["git", "clone", "--quiet", root, clone], check=True)
        with open(args.log, "w") as log:
            code, clock = (run_piped if args.piped else run_pty)(args.command, clone, log)
            total = time.monotonic() - clock.t0
            how = "piped" if args.piped else "at a terminal"
            line = (f"{' '.join(args.command)} ({how}, commit {commit}, {os.cpu_count()} cores): exit {code}, "
                    f"total {total:.1f} s; longest gap between lines {clock.gap_line[0]:.1f} s, "
                    f"after {clock.gap_line[1].strip()[:80]!r}")
            if not args.piped:
                line += f"; screen unchanged at most {clock.gap_change[0]:.1f} s, showing {clock.gap_change[1].strip()[:80]!r}"
            log.write("# " + line + "\n")
        print(line)
        if args.keep:
            print(f"the clone: {clone}")
        return code
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
