"""The import directions of docs/architecture.md, read from the source.

Every ``import`` of every module under webapp/ is read with ast, the ones inside functions too (a
function-level import is still a dependency: it only hides a cycle from Python's import order).

What holds today and must go on holding:
- the engine (webapp/engine) imports nothing but itself and the standard library (no Flask, no
  SQLite, nothing of the app);
- the CPU players (webapp/ai) import nothing of the app but themselves, the engine and the clock
  (webapp/clock.py, which imports only the standard library);
- the engine reads no time, and every other module reads it from webapp/clock.py (docs/testing.md);
- the app factory (webapp/__init__.py) is imported by entry points only (the gevent switch ``SERVER``
  and ``ROOT`` are read from webapp/serving.py);
- an import against the layers (engine -> game services -> transports -> factory) is one of the
  known ones (KNOWN_UPWARD), and every cycle is inside one of the known cycles (KNOWN_CYCLES);
- inside the game services, a package imports only the packages on the floors below its own
  (SERVICE_FLOORS, docs/architecture.md "The service floor");
- code outside a package imports only its public names (docs/architecture.md "Public surfaces"): the
  names in ``__all__`` of a package that declares it (STRICT_SURFACES), never a name beginning with "_".

The known lists may only shrink: each entry is a knot docs/architecture.md lists to remove.
"""

import ast
import functools
import sys
from pathlib import Path

from tests import sources

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "webapp"

#: Layers from the bottom; a module may import its own layer and the ones below.
ENGINE, SERVICES, TRANSPORTS, FACTORY = range(4)

#: Modules besides the entry points that import the factory module: none any more.
KNOWN_FACTORY_IMPORTS = set()

#: (importer, imported) pairs that go up the layers: game services importing a transport. None any
#: more: the online service tells the players through the notifier the sockets layer sets on it.
KNOWN_UPWARD = set()

#: Groups of modules that import each other, directly or around a loop (strongly connected).
KNOWN_CYCLES = [
]

#: The service floor from the bottom (docs/architecture.md "The service floor"): each package or
#: top-level module of webapp/ in the game-services layer, by its name under webapp/. A service
#: imports the engine and the services on lower floors only; two on one floor import neither other.
SERVICE_FLOORS = [
    {"clock", "config", "serving"},  # utilities: the standard library (and gevent) only
    {"ai", "cards"},                 # on the engine alone: the CPU players; card text, art, prebuilt decks
    {"store"},                       # the SQL
    {"hosting", "i18n"},             # the server's machinery (rate limits, metrics, log, cluster); languages
    {"decks", "refusals"},           # collection, decks and packs; the engine's refusals in words
    {"accounts"},                    # registration and log-in (a new account's starter cards)
    {"game"},                        # play and its modes, replays, quests
    {"social"},                      # friends, challenges, the ladder, who may watch
    {"hosttools", "tools"},          # the host's tools; command-line programs (the bot)
]

#: (importer, imported) package edges against SERVICE_FLOORS: none.
KNOWN_FLOOR_EDGES = set()

#: Packages entered only through their __init__.py's ``__all__``: ``from P import name`` with the name
#: listed there (a submodule only when ``__all__`` lists it). Every other package offers its modules, and
#: in every package (and module) a name beginning with "_" is its own (docs/architecture.md "Public surfaces").
STRICT_SURFACES = {"webapp.engine", "webapp.ai"}

#: (importer, what it imports past a public surface): none.
KNOWN_PAST_SURFACE = set()


def modules():
    """{dotted name: source path} of every module under webapp/ (a package by its __init__.py)."""
    out = {}
    for path in sources.webapp_files():
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = modules()


def is_entry_point(name):
    """A command-line entry point (``python -m ...``): it may import anything, the factory included."""
    return name.endswith(".__main__")


def layer(name):
    if name == "webapp.engine" or name.startswith("webapp.engine."):
        return ENGINE
    if name == "webapp":
        return FACTORY
    if name.startswith(("webapp.web", "webapp.sockets")):
        return TRANSPORTS
    return SERVICES


def resolve(dotted):
    """The module of a dotted name: itself, or the longest prefix that is a module (a name in it)."""
    parts = dotted.split(".")
    while parts:
        if ".".join(parts) in MODULES:
            return ".".join(parts)
        parts.pop()
    return None


@functools.cache
def imports_of(name):
    """[(imported dotted name, line)] of every import in the module, at any depth; relative imports
    made absolute. ``from a import b`` counts as importing a.b when that is a module, else a."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in sources.nodes(path):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module
            for a in node.names:
                full = f"{module}.{a.name}"
                out.append((full if full in MODULES else module, node.lineno))
    return out


@functools.cache
def graph():
    """{module: {imported webapp module: [lines]}} over webapp/."""
    edges = {}
    for name in MODULES:
        out = edges.setdefault(name, {})
        for dotted, line in imports_of(name):
            target = resolve(dotted) if dotted.split(".")[0] == "webapp" else None
            if target is not None and target != name:
                out.setdefault(target, []).append(line)
    return edges


def cycles(edges):
    """Strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(edges[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(group)
    return found


def unit(name):
    """The package or top-level module of webapp/ a module belongs to ("game" for webapp.game.play)."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else None


def floor_of(name, floors=SERVICE_FLOORS):
    return next((i for i, group in enumerate(floors) if unit(name) in group), None)


def against_the_floors(edges, floors=SERVICE_FLOORS):
    """(importer, imported) module pairs of the game services where the imported module's package is not
    on a lower floor than the importer's (or either package is on no floor)."""
    bad = set()
    for a, out in edges.items():
        if is_entry_point(a) or layer(a) != SERVICES:
            continue
        for b in out:
            if layer(b) != SERVICES or unit(a) == unit(b):
                continue
            fa, fb = floor_of(a, floors), floor_of(b, floors)
            if fa is None or fb is None or fb >= fa:
                bad.add((a, b))
    return bad


def declared_all(package):
    """The names of ``__all__`` in a module's source (None if it declares none)."""
    path = MODULES.get(package)
    if path is None:
        return None
    for node in sources.tree(path).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return set(ast.literal_eval(node.value))
    return None


def private(part):
    return part.startswith("_") and not (part.startswith("__") and part.endswith("__"))


def past_surfaces(importer, tree, strict=STRICT_SURFACES, surface=declared_all):
    """[(line, what)] of the imports in ``tree`` (the source of module ``importer``) that reach past a
    public surface of webapp/: into a strict package other than through its ``__all__``, or to a name
    beginning with "_" of another package (relative imports stay inside their package)."""
    bad = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            pairs = [(a.name, None) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            pairs = [(node.module, a.name) for a in node.names]
        else:
            continue
        for module, name in pairs:
            if module.split(".")[0] != "webapp" or unit(module + ".x") == unit(importer):
                continue
            dotted = module if name is None else f"{module}.{name}"
            if any(private(part) for part in dotted.split(".")[1:]):
                bad.append((node.lineno, dotted))
                continue
            for package in strict:
                if importer == package or importer.startswith(package + "."):
                    continue
                if module == package and name is not None:
                    offered = name
                elif module.startswith(package + "."):
                    offered = module[len(package) + 1:].split(".")[0]
                else:
                    continue
                if offered not in surface(package):
                    bad.append((node.lineno, dotted))
    return bad


def where(edges, a, b):
    return f"{MODULES[a].relative_to(ROOT)}:{edges[a][b][0]} imports {b}"


def test_the_reader_sees_imports_inside_functions_and_relative_ones():
    edges = graph()
    # the factory's create_app imports the transports inside the function; the engine's game imports its siblings relatively
    assert {"webapp.sockets", "webapp.web", "webapp.web.testing"} <= set(edges["webapp"])
    assert {"webapp.engine.turn", "webapp.engine.battle", "webapp.engine.scenario"} <= set(edges["webapp.engine.game"])
    assert "webapp.engine" in edges["webapp.ai.baseline"]  # ``from webapp.engine import ...``: the package
    assert cycles({"a": {"b": []}, "b": {"c": []}, "c": {"a": []}, "d": {"a": []}}) == [{"a", "b", "c"}]


def test_the_floor_check_refuses_an_edge_against_the_order():
    """A synthetic graph: a lower floor importing a higher one, two packages of one floor importing each
    other and a package on no floor are each refused; an edge down the floors passes."""
    edges = {"webapp.store.games": {"webapp.game.play": [1], "webapp.clock": [2]},
             "webapp.decks.build": {"webapp.refusals": [3], "webapp.i18n": [4]},
             "webapp.newthing": {"webapp.store": [5]},
             "webapp.web.pages": {"webapp.game.play": [6]}}
    assert against_the_floors(edges) == {("webapp.store.games", "webapp.game.play"),
                                         ("webapp.decks.build", "webapp.refusals"),
                                         ("webapp.newthing", "webapp.store")}


def test_the_surface_check_refuses_an_import_past_a_public_surface():
    """Synthetic imports: past the engine's ``__all__`` (a submodule it does not offer, a name it does not
    list) and to a private name of another package are refused; the listed names and an offered module pass."""
    source = "\n".join([
        "from webapp.engine.board import LANDS",       # 1: a submodule not in __all__
        "from webapp.engine import blank_state",       # 2: a name not in __all__
        "import webapp.engine.views",                  # 3
        "from webapp.store.games import _row",         # 4: a private name
        "from webapp.engine import LANDS, Game",       # listed
        "from webapp.engine.choices import fill",      # an offered module
        "from webapp.store.games import load_game",    # a package that offers its modules
        "from webapp.decks import _cache",             # 8: private
    ])
    found = past_surfaces("webapp.game.fake", ast.parse(source))
    assert found == [(1, "webapp.engine.board.LANDS"), (2, "webapp.engine.blank_state"), (3, "webapp.engine.views"),
                     (4, "webapp.store.games._row"), (8, "webapp.decks._cache")]
    assert past_surfaces("webapp.engine.fake", ast.parse("from webapp.engine.board import LANDS")) == []


def test_every_service_package_is_on_a_floor_and_imports_only_lower_floors():
    edges = graph()
    bad = against_the_floors(edges) - KNOWN_FLOOR_EDGES
    assert not bad, ("the service floor, from the bottom: " + " < ".join("/".join(sorted(f)) for f in SERVICE_FLOORS)
                     + " (docs/architecture.md \"The service floor\"; a new package goes on a floor there and in "
                     "SERVICE_FLOORS):\n" + "\n".join(where(edges, a, b) for a, b in sorted(bad)))


def test_the_floors_are_the_ones_the_architecture_page_writes():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = text.split("<!-- floors -->")[1].split("```")[1]  # the fenced block after the marker, top floor first
    lines = [line for line in block.splitlines()[1:] if line.strip()]
    assert [set(line.split(": ")[1].replace(",", " ").split()) for line in reversed(lines)] == SERVICE_FLOORS


def test_no_import_reaches_past_a_public_surface():
    bad = set()
    for name, path in MODULES.items():
        for line, dotted in past_surfaces(name, sources.tree(path)):
            bad.add((name, dotted, line))
    new = sorted(b for b in bad if b[:2] not in KNOWN_PAST_SURFACE)
    assert not new, ("import a strict package's names from the package itself (its __all__), never a private "
                     "name (docs/architecture.md \"Public surfaces\"):\n"
                     + "\n".join(f"{MODULES[a].relative_to(ROOT)}:{line} imports {d}" for a, d, line in new))


def test_every_strict_surface_names_only_what_it_has():
    import importlib
    for package in STRICT_SURFACES:
        module = importlib.import_module(package)
        assert set(module.__all__) == declared_all(package)
        assert all(hasattr(module, name) for name in module.__all__), package


def test_the_engine_imports_only_itself_and_the_standard_library():
    bad = []
    for name in MODULES:
        if layer(name) != ENGINE:
            continue
        for dotted, line in imports_of(name):
            top = dotted.split(".")[0]
            inside = dotted == "webapp.engine" or dotted.startswith("webapp.engine.")
            if not inside and top not in sys.stdlib_module_names:
                bad.append(f"{MODULES[name].relative_to(ROOT)}:{line} imports {dotted}")
    assert not bad, "the engine imports nothing of the app, Flask or SQLite:\n" + "\n".join(bad)


#: Modules of the standard library's kind that every layer above the engine may import: they import
#: nothing of the app (checked below). The clock is read by the CPU players' worker pool too.
FOUNDATION = {"webapp.clock"}


def test_the_cpu_players_import_only_themselves_the_engine_and_the_clock():
    edges = graph()
    bad = [where(edges, name, target) for name, out in edges.items() if name.split(".")[:2] == ["webapp", "ai"]
           for target in out if target.split(".")[:2] not in (["webapp", "ai"], ["webapp", "engine"])
           and target not in FOUNDATION]
    assert not bad, "webapp/ai is built on the engine alone (and the clock):\n" + "\n".join(bad)


def test_the_foundation_modules_import_only_the_standard_library():
    outside = [f"{name}: {dotted}" for name in FOUNDATION for dotted, _ in imports_of(name)
               if dotted.split(".")[0] not in sys.stdlib_module_names]
    assert not outside, outside


def test_the_engine_reads_no_time():
    """The rules are deterministic: no module of the engine imports time or datetime (the app's time is
    webapp/clock.py's, read by the services that need it)."""
    readers = [f"{MODULES[name].relative_to(ROOT)}:{line} imports {dotted}" for name in MODULES if layer(name) == ENGINE
               for dotted, line in imports_of(name) if dotted.split(".")[0] in ("time", "datetime")]
    assert not readers, readers


def test_only_the_clock_reads_the_time_of_day():
    """Every module that reads wall-clock or monotonic time reads webapp/clock.py's (tests advance it);
    durations of work (time.perf_counter) are not the app's time."""
    readers = []
    for name, path in MODULES.items():
        if name == "webapp.clock":
            continue
        for node in sources.nodes(path):
            if isinstance(node, ast.Attribute) and node.attr in ("time", "time_ns", "monotonic", "monotonic_ns", "now",
                                                                  "utcnow", "today") \
                    and (isinstance(node.value, ast.Name) and node.value.id in ("time", "datetime", "date")
                         or isinstance(node.value, ast.Attribute) and node.value.attr in ("datetime", "date")):
                readers.append(f"{path.relative_to(ROOT)}:{node.lineno} reads {ast.unparse(node)}")
    assert not readers, "read the time from webapp.clock (now, now_ms, monotonic, utcnow):\n" + "\n".join(readers)


def test_only_entry_points_import_the_app_factory():
    edges = graph()
    importers = {name for name, out in edges.items() if "webapp" in out and not is_entry_point(name)}
    new = importers - KNOWN_FACTORY_IMPORTS
    assert not new, "only entry points (and tests) import webapp/__init__.py:\n" + "\n".join(
        where(edges, name, "webapp") for name in sorted(new))


def test_no_import_goes_up_the_layers_but_the_known_ones():
    edges = graph()
    upward = {(a, b) for a, out in edges.items() for b in out
              if not is_entry_point(a) and b != "webapp" and layer(b) > layer(a)}
    new = upward - KNOWN_UPWARD
    assert not new, "engine -> game services -> transports -> factory (docs/architecture.md):\n" + "\n".join(
        where(edges, a, b) for a, b in sorted(new))


def test_every_import_cycle_is_a_known_one():
    found = cycles(graph())
    new = [sorted(group) for group in found if not any(group <= known for known in KNOWN_CYCLES)]
    assert not new, "new import cycles (docs/architecture.md lists the known ones):\n" + "\n".join(map(str, new))


def test_the_gevent_switch_is_the_factorys_first_import_and_imports_nothing_of_the_app():
    # gevent patches the standard library in webapp/serving.py: it must run before the factory's other
    # imports (docs/decisions/0016-serve-with-gevent.md), and it may not import the app.
    tree = sources.tree(MODULES["webapp"])
    first = next(node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom)))
    assert isinstance(first, ast.ImportFrom) and first.module == "webapp.serving"
    outside = [dotted for dotted, _ in imports_of("webapp.serving")
               if dotted.split(".")[0] not in sys.stdlib_module_names and dotted.split(".")[0] != "gevent"]
    assert not outside, outside
