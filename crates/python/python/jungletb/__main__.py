"""``python -m jungletb``: the command line, as the ``jungletb`` script."""

from jungletb import _main

_main()
