"""The ``fairkit`` command of the wheel: the console script and ``python -m fairkit``.

Both run the Rust command itself (``fairkit_cli::entry::run``, compiled into the extension
module), so flags, output, report files and exit codes are those of the cargo-built binary.
"""

import signal
import sys
import threading
from typing import Optional, Sequence


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Runs ``fairkit`` with ``argv`` (default: ``sys.argv[1:]``) and returns its exit code.

    >>> from fairkit._cli import main
    >>> main(["--version"])  # doctest: +SKIP
    fairkit 0.1.0
    0
    """
    from fairkit._core import run_cli

    args = list(sys.argv[1:] if argv is None else argv)
    # The program name clap prints in usage lines: the command's own, whichever way it started.
    command = ["fairkit", *args]
    if threading.current_thread() is not threading.main_thread():
        return run_cli(command)
    # Python turns Ctrl-C into KeyboardInterrupt, which it can only raise once the command
    # returns; the binary simply ends. Give the signal its default action back while the command
    # runs, as the binary has it, so Ctrl-C stops a long audit at once; an in-process caller gets
    # its own handler back afterwards.
    previous = signal.signal(signal.SIGINT, signal.SIG_DFL)
    try:
        return run_cli(command)
    finally:
        signal.signal(signal.SIGINT, previous)
