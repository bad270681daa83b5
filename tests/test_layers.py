"""The layers: the engine (calculator/) imports only the standard library and itself;
the kit (kit/) may import the engine, never the other way; build.py sits on top.
Every import counts, including those inside functions, and no cycle is allowed."""
import ast
import functools
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("calculator", "kit")


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def imports(path: Path) -> set[str]:
    """Every module a file imports, anywhere in it, resolved to absolute names."""
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module
            found.add(mod)
            found.update(f"{mod}.{alias.name}" for alias in node.names)  # `from pkg import module`
    return found


def graph() -> dict[str, set[str]]:
    """Each module's imports of the project's modules (a copy: a test may change it)."""
    return {name: set(found) for name, found in _graph(_sources()).items()}


def _sources() -> tuple:
    files = {module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}
    files["build"] = ROOT / "build.py"
    return tuple(sorted((name, path, path.stat().st_mtime_ns) for name, path in files.items()))


@functools.lru_cache(maxsize=2)
def _graph(sources: tuple) -> dict[str, frozenset[str]]:
    """The graph of these files as they are (their times are in the key): parsed once for this module's
    tests, which each parsed every file twice (1.1-1.25 CPU-s a test, December 8)."""
    files = {name: path for name, path, _ in sources}
    out = {}
    for name, path in files.items():
        found = imports(path)
        out[name] = frozenset({m for m in found if m in files} | {m.rpartition(".")[0] for m in found
                                                                    if m.rpartition(".")[0] in files and m not in files})
    return out


def test_the_engine_imports_only_the_standard_library_and_itself():
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    bad = {}
    for path in (ROOT / "calculator").rglob("*.py"):
        for mod in imports(path):
            top = mod.split(".")[0]
            if top != "calculator" and top not in stdlib and mod != "pypdf" and not mod.startswith("pypdf."):
                bad.setdefault(module_name(path), set()).add(mod)
    assert not bad, f"the engine must import only the standard library (pypdf inside fill_pdf): {bad}"


def test_pypdf_is_imported_only_inside_the_function_that_fills_the_pdf():
    tree = ast.parse((ROOT / "calculator" / "permits" / "application.py").read_text())
    top_level = [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert not any("pypdf" in ast.dump(n) for n in top_level)
    fill = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "fill_pdf")
    assert "pypdf" in ast.dump(fill)


def test_imports_flow_one_way_build_kit_calculator():
    g = graph()
    back = [(a, b) for a, deps in g.items() for b in deps
            if (a.startswith("calculator") and not b.startswith("calculator"))
            or (a.startswith("kit") and b == "build")]
    assert not back, back
    assert any(b.startswith("calculator") for a, deps in g.items() if a.startswith("kit") for b in deps)


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component of more than one module (or a self-import)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in g.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in g.get(v, ()):
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def test_there_is_no_import_cycle_anywhere():
    assert cycles(graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"a"}}) == [["a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


# ---- the rooms (docs/decisions/020-rooms.md): what each room may import, beyond itself ----
# The engine by whom it answers, around a core; the kit by what it makes. A room not named here
# may not be imported by any other; the shared floor (kit.errors, kit.buildcache) by any kit room.
KIT_FLOOR = {"kit", "kit.errors", "kit.buildcache", "kit.privacy"}
ENGINE = {"calculator"}
ROOMS = {
    "calculator.core": set(),
    "calculator.bills": {"calculator.core"},
    "calculator.permits": {"calculator.core"},
    "calculator.industry": {"calculator.core", "calculator.bills"},
    "calculator.rates": {"calculator.core", "calculator.bills"},
    "calculator.opendata": {"calculator.core", "calculator.bills"},
    "calculator.cli": {"calculator", "calculator.core", "calculator.bills", "calculator.permits",
                       "calculator.industry", "calculator.rates", "calculator.opendata"},
    "calculator.__main__": {"calculator.cli"},
    # the kit: reading rules/ stands on the engine alone; the words on the rules; the rest as named
    "kit.buildcache": {"calculator.core"},
    # the guard that no account data is published: the text's rules are the engine's (calculator/core/privacy.py)
    "kit.privacy": {"calculator.core"},
    "kit.rules": {"calculator.core", "calculator.permits", "calculator.rates"},
    "kit.words": {"calculator.core", "kit.rules"},
    "kit.browser": {"calculator", "calculator.core", "kit.rules", "kit.words"},
    "kit.documents": {"calculator.core", "calculator.permits", "kit.words"},
    # (calculator.cli: its `once`, the refusal of an option given twice, as kit.billrun takes it)
    "kit.clerk": {"calculator.core", "calculator.rates", "calculator.cli", "kit.rules", "kit.documents"},
    "kit.billrun": {"calculator.core", "calculator.bills", "calculator.cli", "kit.rules", "kit.words",
                    "kit.documents"},
    "kit.api": {"calculator", "calculator.core", "calculator.opendata", "kit.rules"},
    "kit.site": {"calculator", "calculator.core", "calculator.bills", "calculator.permits", "calculator.industry",
                 "calculator.rates", "calculator.opendata", "kit.rules", "kit.words", "kit.browser", "kit.documents",
                 "kit.clerk", "kit.billrun", "kit.api"},
    "kit.tools": {"calculator.core", "calculator.bills", "kit.rules"},
    "build": {"kit.site", "kit.rules", "kit.words", "kit.clerk", "kit.billrun", "kit.tools", "kit.privacy"},
}


def room(module: str) -> str:
    """The room a module lives in: `calculator.bills.bill` → `calculator.bills`; a module at a
    package's top (`calculator.cli`, `calculator.industry`, `kit.errors`) is a room of its own."""
    two = ".".join(module.split(".")[:2])
    return two if two in ROOMS and module.count(".") >= 2 else module


def forbidden(g: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Every import from one room into another that ROOMS does not allow."""
    bad = []
    for a, deps in sorted(g.items()):
        ra = room(a)
        for b in sorted(deps):
            rb = room(b)
            if ra == rb or (ra.startswith("kit") and rb in KIT_FLOOR):
                continue
            if ra not in ROOMS or rb not in ROOMS.get(ra, set()):
                bad.append((a, b))
    return bad


def test_every_module_is_in_a_room_the_layers_name():
    g = graph()
    assert {room(m) for m in g} - set(ROOMS) - KIT_FLOOR - ENGINE == set()


def test_each_room_imports_only_what_its_decision_allows():
    assert forbidden(graph()) == []


def test_tools_for_us_are_imported_by_nothing_in_the_product():
    users = {a for a, deps in graph().items() for b in deps if room(b) == "kit.tools" and room(a) != "kit.tools"}
    assert users == {"build"}


def test_documents_never_import_the_sites_steps():
    assert not [(a, b) for a, deps in graph().items() for b in deps
                if room(a) == "kit.documents" and room(b) == "kit.site"]


def test_a_forbidden_import_added_fails_the_rooms_check():
    g = {k: set(v) for k, v in graph().items()}
    assert forbidden(g) == []
    for a, b in [("calculator.core.money", "calculator.bills.bill"),       # the core leans on a room
                 ("calculator.permits.flow", "calculator.rates.vc"),        # two rooms that never meet
                 ("kit.documents.pdf", "kit.site.pages"),                   # a document on the site's steps
                 ("kit.site.build", "kit.tools.machine"),                   # the product on our tools
                 ("kit.rules.validate", "kit.words.messages")]:             # a cycle of rooms
        mutated = {k: set(v) for k, v in g.items()}
        mutated[a].add(b)
        assert forbidden(mutated) == [(a, b)], (a, b)


def test_every_file_the_code_and_the_readme_name_is_there():
    """A newcomer follows the paths the docstrings and the README give (the rooms' first outside reader
    found two that named files gone since the move)."""
    import re
    named = re.compile(r"\b((?:calculator|kit)/[\w/]+\.(?:py|mjs|txt))\b")
    sources = [p for pkg in ("calculator", "kit", "tests") for p in (ROOT / pkg).rglob("*.py")]
    missing = {(p.relative_to(ROOT).as_posix(), m) for p in [*sources, ROOT / "README.md", ROOT / "build.py"]
               for m in named.findall(p.read_text(encoding="utf-8")) if not (ROOT / m).exists()}
    assert missing == set()
