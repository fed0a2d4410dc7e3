"""The project's layers, read from the source: which package may import which, no import cycle
(imports inside functions count: they run too), and no module reaching into another's private
names. It reads every module of the four packages as text, so nothing needs to be imported."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Each top-level package and the project packages it may import: downward only, written once.
ALLOWED = {
    "pnp_shared": set(),
    "pnp_model": {"pnp_shared"},
    "referee": {"pnp_shared", "pnp_model"},
    "generator": {"pnp_shared", "pnp_model", "referee"},  # referee: `pnp verify --balance` only
}
# Libraries a layer must never load: the model is pure Python; the referee stays light.
FORBIDDEN = {
    "pnp_model": {"reportlab", "PIL", "click", "starlette", "uvicorn"},
    "referee": {"reportlab", "PIL"},
}


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules(root: Path = ROOT) -> dict[str, Path]:
    return {module_name(p, root): p for top in ALLOWED for p in (root / top).rglob("*.py")}


def imports(name: str, path: Path, modules: dict[str, Path]) -> list[tuple[str, str | None, int]]:
    """(module imported, name taken from it or None, line) for every import statement."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, None, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(up + ([node.module] if node.module else []))
            for a in node.names:
                sub = f"{base}.{a.name}"
                found.append((sub, None, node.lineno) if sub in modules
                             else (base, a.name, node.lineno))
    return found


def graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    return {m: {target for target, _, _ in imports(m, p, modules) if target in modules and target != m}
            for m, p in modules.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
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
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_packages_import_downward_only_and_never_the_forbidden_libraries():
    modules = project_modules()
    wrong = []
    for name, path in modules.items():
        top = name.split(".")[0]
        for target, _, line in imports(name, path, modules):
            other = target.split(".")[0]
            if other in ALLOWED and other != top and other not in ALLOWED[top]:
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
            if other in FORBIDDEN.get(top, ()):
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    assert not wrong, "imports against the layers:\n" + "\n".join(wrong)


def test_no_import_cycle_even_through_imports_inside_functions():
    found = cycles(graph(project_modules()))
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_no_module_imports_another_modules_private_name():
    modules = project_modules()
    wrong = [f"{path.relative_to(ROOT)}:{line} takes {target}.{taken}"
             for name, path in modules.items()
             for target, taken, line in imports(name, path, modules)
             if taken and taken.startswith("_") and not taken.startswith("__") and target in modules]
    assert not wrong, "private names taken from other modules:\n" + "\n".join(wrong)


def test_the_cycle_finder_finds_a_cycle_through_a_function_level_import(tmp_path):
    """The checks above would pass vacuously if the reader missed imports inside functions."""
    pkg = tmp_path / "referee"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from referee import b\n")
    (pkg / "b.py").write_text("def f():\n    from referee.a import thing\n")
    modules = {module_name(p, tmp_path): p for p in pkg.rglob("*.py")}
    assert cycles(graph(modules)) == [["referee.a", "referee.b"]]
