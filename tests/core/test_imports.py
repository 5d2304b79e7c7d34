"""No module import cycle anywhere in ``tablero``, imports inside functions and TYPE_CHECKING included.

``lint-imports`` (in ``make lint``) checks the layer contracts of ``pyproject.toml``; this test
checks the stronger property the contracts cannot say: between *modules*, imports form no cycle.
"""

from __future__ import annotations

import grimp


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm: the groups of modules that import each other in a circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def module_graph() -> dict[str, set[str]]:
    g = grimp.build_graph("tablero", exclude_type_checking_imports=False, cache_dir=None)
    graph = {m: set(g.find_modules_directly_imported_by(m)) for m in g.modules}
    # A package's __init__ re-exporting its modules is not a cycle of the code.
    for m, deps in graph.items():
        graph[m] = {d for d in deps if not (m.startswith(d + ".") and d in g.modules)}
    return graph


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert strongly_connected({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_between_modules() -> None:
    cycles = strongly_connected(module_graph())
    assert cycles == [], "modules importing each other in a circle: " + "; ".join(" <-> ".join(c) for c in cycles)
