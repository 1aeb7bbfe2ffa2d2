"""The house's rules (docs/architecture.md), read from the code's own imports: floors, the
shells' one door, cheap faces, no cycles, every folder packaged, no class of ours extending
a class of another module. Each rule is also shown to fail on a planted bad import."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "aleph_mem"

# low to high: a module imports only what lives on its own floor or below
FLOORS = [
    {"errors", "logs", "clock", "ulid", "settings", "redaction", "shown", "llm"},
    {"files"},
    {"plugin_index", "plugins"},
    {"notes"},
    {"embed"},
    {"index"},
    {"writes"},
    {"store"},
    {"recall"},
    {"dream"},
    {"sessions"},
    {"memory"},
    {"install"},
    {"running"},
    {"mcp", "web"},
    {"cli"},
]
GROUND_FOLDERS = {"redaction"}  # the ground floor's one folder: its rules outgrew a module
FLOOR = {room: n for n, rooms in enumerate(FLOORS) for room in rooms}

# the shells reach every verb on a vault, and its values, through ``memory``; below it they
# may name only the stamp of their own activity, the vault's location, the machine's
# cores, the server's lock, and the hook's own door
SHELL_MAY_NAME = {
    "cli": {"aleph_mem.files.activity", "aleph_mem.files.vault", "aleph_mem.embed.pool",
            "aleph_mem.sessions.hook"},
    "mcp": {"aleph_mem.files.activity", "aleph_mem.files.locks"},
    "web": set(),
}
SHELL_OPEN = {"memory", "store", "install", "running", "mcp", "web"} | FLOORS[0] | FLOORS[2]
HEAVY = ("numpy", "onnxruntime", "markdown_it", "yaml", "networkx", "apsw", "mcp.server")


def modules(pkg: Path) -> dict[str, Path]:
    out = {}
    for p in pkg.rglob("*.py"):
        parts = list(p.relative_to(pkg.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = p
    return out


def imports(pkg: Path) -> set[tuple[str, str]]:
    """Every (importer, imported) pair of aleph_mem modules, lazy imports included."""
    mods = modules(pkg)
    edges = set()
    for name, path in mods.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    here = name.split(".") if path.name == "__init__.py" else \
                        name.split(".")[:-1]
                    base = ".".join(here[:len(here) - node.level + 1] + [base]).strip(".")
                found = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in mods]
                edges |= {(name, m) for m in (found or [base]) if m in mods and m != name}
            elif isinstance(node, ast.Import):
                edges |= {(name, a.name) for a in node.names if a.name in mods}
    return edges


def room(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "aleph_mem"


def broken_rules(pkg: Path) -> list[str]:
    out = []
    edges = imports(pkg)
    for a, b in sorted(edges):
        ra, rb = room(a), room(b)
        if "aleph_mem" in (ra, rb) or ra == rb:
            continue
        if ra not in FLOOR or rb not in FLOOR:
            out.append(f"{a} -> {b}: a room on no floor (add it to docs/architecture.md)")
        elif FLOOR[rb] > FLOOR[ra]:
            out.append(f"{a} -> {b}: {ra} (floor {FLOOR[ra]}) imports {rb} (floor "
                       f"{FLOOR[rb]}), above it")
        elif ra in SHELL_MAY_NAME and rb not in SHELL_OPEN and b not in SHELL_MAY_NAME[ra]:
            out.append(f"{a} -> {b}: a shell reaches past the front door (call a Memory verb)")
    graph = nx.DiGraph(list(edges))
    out += [f"import cycle: {' -> '.join(sorted(c))}" for c in nx.simple_cycles(graph)]
    return out


def test_the_package_keeps_its_floors_and_has_no_cycles() -> None:
    assert broken_rules(PKG) == []


def test_a_planted_bad_import_breaks_the_rules(tmp_path: Path) -> None:
    copy = tmp_path / "aleph_mem"
    shutil.copytree(PKG, copy, ignore=shutil.ignore_patterns("__pycache__", "model_files"))
    parser = copy / "notes" / "parser.py"
    parser.write_text(parser.read_text() + "\nfrom aleph_mem.store import Store  # noqa\n")
    tools = copy / "mcp" / "tools.py"
    tools.write_text(tools.read_text() + "\nfrom aleph_mem.sessions import library  # noqa\n")
    broken = broken_rules(copy)
    assert any(b.startswith("import cycle: ") and "aleph_mem.notes.parser" in b
               and "aleph_mem.store" in b for b in broken)
    assert [b for b in broken if not b.startswith("import cycle: ")] == [
        "aleph_mem.mcp.tools -> aleph_mem.sessions.library: a shell reaches past the front "
        "door (call a Memory verb)",
        "aleph_mem.notes.parser -> aleph_mem.store: notes (floor 3) imports store (floor 7), "
        "above it",
    ]


def test_a_planted_cycle_is_found(tmp_path: Path) -> None:
    copy = tmp_path / "aleph_mem"
    shutil.copytree(PKG, copy, ignore=shutil.ignore_patterns("__pycache__", "model_files"))
    vault = copy / "files" / "vault.py"
    vault.write_text(vault.read_text() + "\nfrom aleph_mem.files import names  # noqa\n")
    assert broken_rules(copy) == ["import cycle: aleph_mem.files.names -> aleph_mem.files.vault"]


def test_faces_say_what_the_folder_holds_and_cost_nothing() -> None:
    faces = sorted(p for p in PKG.glob("*/__init__.py") if p.parent.name != "model_files")
    assert len(faces) >= 10
    for face in faces:
        tree = ast.parse(face.read_text())
        assert ast.get_docstring(tree), f"{face}: a face says what its folder holds"
        names = [n.id for n in ast.walk(tree) if isinstance(n, ast.Name)]
        assert "__all__" in names, f"{face}: __all__ names what other folders use"
    code = ("import sys\n" + "".join(f"import aleph_mem.{p.parent.name}\n" for p in faces)
            + f"print([m for m in {HEAVY!r} if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_every_module_is_in_a_folder_but_the_front_door_and_the_ground_floor() -> None:
    loose = sorted(p.stem for p in PKG.glob("*.py") if p.stem != "__init__")
    assert loose == sorted(FLOORS[0] - GROUND_FOLDERS | FLOORS[2] | {"memory", "store"})


def test_every_folder_is_packaged() -> None:
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())
                 ["tool"]["setuptools"]["packages"])
    folders = {".".join(p.parent.relative_to(ROOT).parts) for p in PKG.rglob("__init__.py")}
    assert folders <= listed


# each rule about a note or the vault written once, in its home (docs/architecture.md)
def _spelled(test: Callable[[str], bool]) -> Callable[[ast.AST], bool]:
    """A whole string constant that spells it (a folder inside an SQL string is not one)."""
    return lambda n: isinstance(n, ast.Constant) and isinstance(n.value, str) and \
        test(n.value)


def _strips_brackets(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
        node.func.attr == "strip" and bool(node.args) and \
        isinstance(node.args[0], ast.Constant) and node.args[0].value == "[]"


IDIOMS: dict[str, tuple[str, Callable[[ast.AST], bool]]] = {
    "the archive folder spelled out": (
        "aleph_mem/files/vault.py", _spelled(lambda c: c.startswith("archive/"))),
    "the dream's folder spelled out": (
        "aleph_mem/files/vault.py", _spelled(lambda c: c.startswith("_dream/"))),
    "a frontmatter link read by hand (.strip('[]'))": (
        "aleph_mem/notes/note_parts.py", _strips_brackets),
}


def idioms_written_again(pkg: Path) -> list[str]:
    """Each idiom written outside its home."""
    out = []
    for path in sorted(pkg.rglob("*.py")):
        rel = f"aleph_mem/{path.relative_to(pkg).as_posix()}"
        for node in ast.walk(ast.parse(path.read_text())):
            for name, (home, written) in IDIOMS.items():
                if rel != home and written(node):
                    out.append(f"{rel}:{getattr(node, 'lineno', 0)}: {name} (its home: "
                               f"{home})")
    return out


def test_each_idiom_lives_in_its_one_home() -> None:
    assert idioms_written_again(PKG) == []


def test_an_idiom_written_again_is_caught(tmp_path: Path) -> None:
    copy = tmp_path / "aleph_mem"
    shutil.copytree(PKG, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "dream" / "planted.py").write_text(
        'def gone(p: str) -> bool:\n    return p.startswith("archive/")\n'
        'SQL = "SELECT path FROM notes WHERE path LIKE \'archive/%\'"  # SQL: not the idiom\n')
    assert idioms_written_again(copy) == [
        "aleph_mem/dream/planted.py:2: the archive folder spelled out (its home: "
        "aleph_mem/files/vault.py)"]


# every table of the index has one owner, the room that holds its SQL (issue #32): the rooms
# above ask the owner's named questions (``index/reading.py``, ``writes/events.py``, ...).
# ``judgments`` is the index's: ranking and ``show`` read it below the dream, which makes it
# anew through ``index/judgments.py``
TABLE_OWNERS = {"events": "writes", "event_files": "writes",
                "sessions": "sessions", "session_chunks": "sessions", "session_fts": "sessions",
                "version_chunks": "recall", "versions_read": "recall", "version_fts": "recall",
                **{t: "index" for t in ("notes", "chunks", "chunks_fts", "links", "tags",
                                        "aliases", "headings", "blocks", "skipped",
                                        "attachments", "meta", "vec_chunks", "vectors",
                                        "judgments")}}
SQL_TABLE = re.compile(r"\b(?:FROM|JOIN|INTO|UPDATE|DELETE\s+FROM)\s+([a-z_]+)\b")
CREATED = re.compile(r"CREATE (?:VIRTUAL )?TABLE (?:IF NOT EXISTS )?([a-z_]+)")


def _strings(tree: ast.AST) -> list[str]:
    """Every string in the code, whole: literals written side by side are one string (``"...
    FROM " "notes"``), and an f-string is its text with ``{}`` for what it fills in."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.append(node.value)
        elif isinstance(node, ast.JoinedStr):
            out.append("".join(v.value if isinstance(v, ast.Constant) else "{}"
                               for v in node.values))
    return out


def tables_outside_their_owner(pkg: Path) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for path in sorted(pkg.rglob("*.py")):
        rel = path.relative_to(pkg).with_suffix("").as_posix()
        here = rel.split("/")[0]
        for text in _strings(ast.parse(path.read_text())):
            for table in SQL_TABLE.findall(text):
                if table in TABLE_OWNERS and TABLE_OWNERS[table] != here:
                    out.setdefault(rel, set()).add(table)
    return out


def test_no_sql_about_a_table_outside_its_owner() -> None:
    assert tables_outside_their_owner(PKG) == {}


def test_every_table_of_the_index_has_an_owner() -> None:
    created = {t for p in (PKG / "index").glob("*.py") for t in CREATED.findall(p.read_text())}
    assert len(created) >= 20 and created <= set(TABLE_OWNERS)


def test_a_query_planted_outside_a_tables_owner_is_caught(tmp_path: Path) -> None:
    copy = tmp_path / "aleph_mem"
    shutil.copytree(PKG, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "recall" / "planted.py").write_text('Q = "SELECT status FROM judgments"\n')
    (copy / "dream" / "planted.py").write_text(  # split after FROM, and in an f-string
        'Q = ("SELECT path FROM "\n     "notes")\nW = f"SELECT {1} FROM links WHERE x"\n')
    (copy / "index" / "planted.py").write_text(  # the owner may: a near miss
        'Q = "SELECT status FROM judgments"\nR = ("SELECT path FROM "\n     "notes")\n')
    (copy / "sessions" / "planted.py").write_text(  # prose, not SQL: a near miss
        '"""Notes from the links are read elsewhere."""\nQ = "SELECT id FROM sessions"\n')
    assert tables_outside_their_owner(copy) == {"recall/planted": {"judgments"},
                                                "dream/planted": {"notes", "links"}}


# no class extends a class of another of our modules (issue #32): a room that needs another
# room's object holds one and calls it, so what runs is what the code names, never an
# override found by dispatch. The errors are the one family: every error is an ``AlephError``
# of ``errors.py`` (a Protocol is met by shape, not subclassed)
SUBCLASS_FROM_ANYWHERE = {"aleph_mem.errors"}


def _names_imported(module: str, tree: ast.AST, mods: dict[str, Path]) -> dict[str, str]:
    """Each name a module binds by import, as the dotted name it stands for."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                here = module.split(".") if mods[module].name == "__init__.py" else \
                    module.split(".")[:-1]
                base = ".".join(here[:len(here) - node.level + 1] + [base]).strip(".")
            out |= {a.asname or a.name: f"{base}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):  # ``import a.b`` binds ``a``; ``as x``, ``a.b``
            out |= {a.asname or a.name.split(".")[0]: a.name if a.asname else
                    a.name.split(".")[0] for a in node.names}
    return out


def subclassing_across_modules(pkg: Path) -> list[str]:
    mods = modules(pkg)
    trees = {m: ast.parse(p.read_text()) for m, p in mods.items()}
    imported = {m: _names_imported(m, t, mods) for m, t in trees.items()}
    classes = {(m, n.name) for m, t in trees.items() for n in ast.walk(t)
               if isinstance(n, ast.ClassDef)}

    def origin(dotted: str, hops: int = 0) -> tuple[str, str] | None:
        """The module and class a dotted name stands for (through re-exports)."""
        module, _, name = dotted.rpartition(".")
        if (module, name) in classes:
            return module, name
        if module in imported and name in imported[module] and hops < 5:
            return origin(imported[module][name], hops + 1)
        return None

    out = []
    for module, tree in trees.items():
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            for base in node.bases:
                base = base.value if isinstance(base, ast.Subscript) else base
                head, _, rest = ast.unparse(base).partition(".")
                if head not in imported[module]:
                    continue  # defined here, or not ours
                found = origin(imported[module][head] + (f".{rest}" if rest else ""))
                if found and found[0] != module and found[0] not in SUBCLASS_FROM_ANYWHERE:
                    out.append(f"{module}.{node.name} extends {'.'.join(found)}: hold one "
                               "and call it instead")
    return sorted(out)


def test_no_class_extends_a_class_of_another_module() -> None:
    assert subclassing_across_modules(PKG) == []


def test_a_planted_subclass_across_modules_is_caught(tmp_path: Path) -> None:
    copy = tmp_path / "aleph_mem"
    shutil.copytree(PKG, copy, ignore=shutil.ignore_patterns("__pycache__", "model_files"))
    (copy / "cli" / "planted.py").write_text(
        "from aleph_mem import store\n"
        "from aleph_mem.errors import BadInput\n"
        "from aleph_mem.memory import NoteView\n"  # re-exported from store
        "from aleph_mem.store import Store\n\n\n"
        "class Wider(Store):\n    pass\n\n\n"
        "class Dotted(store.Store):\n    pass\n\n\n"
        "class Again(NoteView):\n    pass\n\n\n"
        # near misses: an error of errors.py, a class of this module, the standard
        # library's, a class holding a store
        "class Refused(BadInput):\n    pass\n\n\n"
        "class Local(Wider):\n    pass\n\n\n"
        "class Named(dict[str, int]):\n    pass\n\n\n"
        "class Holder:\n    def __init__(self, s: Store) -> None:\n        self.s = s\n")
    assert subclassing_across_modules(copy) == [
        "aleph_mem.cli.planted.Again extends aleph_mem.store.NoteView: hold one and call it "
        "instead",
        "aleph_mem.cli.planted.Dotted extends aleph_mem.store.Store: hold one and call it "
        "instead",
        "aleph_mem.cli.planted.Wider extends aleph_mem.store.Store: hold one and call it "
        "instead"]
