"""The `referee` program's first line (its console script, and `python -m referee`).

Why not `referee.cli:main` itself: loading the command line takes ~70 ms of imports, and a
Ctrl-C in that time arrived before click's handler was in place and printed a traceback. Here
nothing is imported before the handler, so an interrupt at any point of the run ends as one
does later: `error: aborted (referee)`, exit code 130.
"""

import sys


def main() -> None:
    try:
        from referee.cli import main as command_line

        command_line()
    except KeyboardInterrupt:
        sys.stderr.write("error: aborted (referee)\n")
        sys.exit(130)


if __name__ == "__main__":
    main()
