"""``python -m nardy``: the engine's command line."""

from nardy.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
