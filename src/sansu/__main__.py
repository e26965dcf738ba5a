"""``python -m sansu``: the same as the ``sansu`` command."""

from sansu.cli.main import main

raise SystemExit(main())
