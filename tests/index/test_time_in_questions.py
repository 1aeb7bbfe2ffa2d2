"""Facts with their time, and dates in questions read against the question's own day
(``--now``): "last month", "in March", "before the migration", each beside a near miss."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import open_mem, write


def ports(vault: Path) -> None:
    write(vault, "infra/db 2025.md", "---\nvalid_from: 2025-01-01\nvalid_until: 2026-02-10\n"
          "superseded_by: '[[db]]'\nstatus: superseded\n---\n# Database, 2025\n\n"
          "The postgres port is 5432.\n")
    write(vault, "infra/db.md", "---\nvalid_from: 2026-02-10\n---\n# Database\n\n"
          "The postgres port is 5433.\n")
    write(vault, "log/migration.md", "---\ndate: 2026-02-10\n---\n# The migration\n\n"
          "We moved the database to the new cluster.\n")


def test_the_port_is_the_new_one_and_before_the_migration_the_old_one(vault: Path) -> None:
    ports(vault)
    with open_mem(vault) as mem:
        mem.reindex()
        now = [h.path for h in mem.search("postgres port", mode="fts").hits][:2]
        before = mem.search("postgres port before the migration", mode="fts").hits
        after = [h.path for h in mem.search("postgres port after the migration",
                                             mode="fts").hits][:2]
    assert now == ["infra/db.md", "infra/db 2025.md"]  # what is true now first
    assert before[0].path == "infra/db 2025.md"  # what was true then, with its period
    assert before[0].period == "2025-01-01 to 2026-02-10 (superseded)"
    assert after == ["infra/db.md", "infra/db 2025.md"]  # the near miss: after it


def test_last_month_and_in_march_are_read_against_the_questions_day(vault: Path) -> None:
    for day in ("2026-03-14", "2026-04-20", "2025-03-03"):
        write(vault, f"log/{day}.md", f"---\ndate: {day}\n---\n# Standup {day}\n\n"
              "Standup notes about the heron release.\n")
    with open_mem(vault) as mem:
        mem.reindex()
        april = mem.search("heron standup last month", mode="fts", now="2026-05-02").hits
        march = mem.search("heron standup last month", mode="fts", now="2026-04-02").hits
        in_march = mem.search("heron standup in March 2026", mode="fts", now="2026-11-01").hits
    assert april[0].path == "log/2026-04-20.md"
    assert march[0].path == "log/2026-03-14.md"  # the near miss: another "now"
    assert in_march[0].path == "log/2026-03-14.md"


def test_the_cli_reads_now_and_as_of(vault: Path) -> None:
    ports(vault)
    cli = [sys.executable, "-m", "aleph_mem.cli", "--vault", str(vault)]
    subprocess.run([*cli, "index"], check=True, capture_output=True)
    out = subprocess.run([*cli, "search", "postgres port before the migration", "--mode",
                          "fts", "--json", "--now", "2026-11-24"], capture_output=True,
                         text=True, check=True)
    first = json.loads(out.stdout)[0]
    assert (first["path"], first["period"]) == ("infra/db 2025.md",
                                                "2025-01-01 to 2026-02-10 (superseded)")
    bad = subprocess.run([*cli, "search", "port", "--as-of", "yesterday-ish"],
                         capture_output=True, text=True)
    assert bad.returncode == 1 and bad.stderr.startswith("error: --as-of 'yesterday-ish' is "
                                                         "not a date or time; use YYYY")
