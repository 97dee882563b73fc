"""`python -m delve ...` = the `delve` command."""

from delve.cli import main

if __name__ == "__main__":  # pragma: no cover
    main()
