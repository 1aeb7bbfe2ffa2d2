"""``python -m aleph_mem.cli``: the same program as the ``aleph-mem`` command (installed
clients' hooks and units may call it so)."""

from aleph_mem.cli.main import main

raise SystemExit(main())
