"""A note is handed to an agent unasked only when it is about the prompt: the prompt the
vault answers gets its note, the prompt of another subject that shares a common word
(the near miss) gets nothing."""

from __future__ import annotations

from pathlib import Path

from conftest import open_mem, write

from aleph_mem.index.relevance import about, coverage


def vault_of_recipes(vault: Path) -> None:
    write(vault, "Sourdough.md", "# Sourdough\n\nFeed the starter the night before; bake "
          "the loaf at 250 degrees with steam. Takes two days, few parameters matter.\n")
    write(vault, "Pesto.md", "# Pesto\n\nBasil, pine nuts, parmesan, garlic, olive oil.\n")
    for i in range(20):
        write(vault, f"Dish {i}.md", f"# Dish {i}\n\nA weeknight dish number {i}: rice, "
              "beans, onion, takes twenty minutes.\n")


def test_the_prompt_the_vault_answers_and_the_one_it_does_not(vault: Path) -> None:
    vault_of_recipes(vault)
    with open_mem(vault) as mem:
        mem.reindex()
        assert about(mem.store.con, "how long do I feed the sourdough starter", "Sourdough.md")
        assert not about(mem.store.con, "show me a decorator that takes parameters", "Sourdough.md")
        share, words = coverage(mem.store.con, "show me a decorator that takes parameters",
                                "Sourdough.md")
        assert words == 2 and share < 0.5  # "takes" and "parameters": not what it is about
        env = mem.context("python decorator that takes parameters")
        assert env.relevant == []
        env = mem.context("sourdough starter")
        assert [r["path"] for r in env.relevant] == ["Sourdough.md"]
