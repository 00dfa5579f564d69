"""``python -m fairkit``: the ``fairkit`` command, as the console script runs it."""

from fairkit._cli import main

if __name__ == "__main__":
    raise SystemExit(main())
