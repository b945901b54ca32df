"""The import layering of ARCHITECTURE.md: packages import only their own layer and the layers below.

    core -> trick -> missions -> engines -> experiments -> api -> cli
    core -> family -> experiments

A trick-taking package never imports Family Adventure's and Family Adventure never imports the
trick-taking game's; nothing in solver/ imports cli/. Every `import` and `from ... import` of the
modules is read with `ast` (function-level imports too).
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# What each layer may import (besides itself and the standard library and third-party packages).
ALLOWED = {
    "core": set(),
    "trick": {"core"},
    "missions": {"core", "trick"},
    "engines": {"core", "trick", "missions"},
    "family": {"core"},
    "experiments": {"core", "trick", "missions", "engines", "family"},
    "api": {"core", "trick", "missions", "engines", "family", "experiments"},
    "cli": {"core", "trick", "missions", "engines", "family", "experiments", "api"},
}


def layer_of(module: str) -> str | None:
    """Return the layer of a dotted module name of this project (None: not ours)."""
    parts = module.split(".")
    if parts[0] == "cli":
        return "cli"
    if parts[0] != "solver":
        return None
    return parts[1] if len(parts) > 1 and parts[1] in ALLOWED else "solver"  # solver.api is the layer "api"


def imported_modules(source: str, package: str) -> list[str]:
    """Return the modules a source file imports, relative imports resolved against `package`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            found += [base] + [f"{base}.{alias.name}" for alias in node.names if base in ("solver", "cli")]
    return found


def violations(module: str, source: str) -> list[str]:
    """Return the imports of `module` (dotted) that break the layering."""
    layer = layer_of(module)
    package = module.rsplit(".", 1)[0]
    bad = []
    for name in imported_modules(source, package):
        target = layer_of(name)
        if target is None or target == layer or name == "solver":
            continue
        if target == "solver" and layer != "solver":
            continue  # the package root (its version) is below everything
        if target not in ALLOWED.get(layer, set()):
            bad.append(f"{module} imports {name} ({layer} may import {sorted(ALLOWED.get(layer, ())) or 'nothing'})")
    return bad


def project_modules():
    for path in sorted([*ROOT.glob("solver/**/*.py"), *ROOT.glob("cli/**/*.py")]):
        relative = path.relative_to(ROOT).with_suffix("")
        yield ".".join(relative.parts).removesuffix(".__init__"), path


def test_every_module_sits_in_a_layer():
    loose = [module for module, _ in project_modules() if layer_of(module) == "solver" and module != "solver"]
    assert loose == [], f"modules outside the layered packages: {loose}"


@pytest.mark.parametrize("module, path", list(project_modules()), ids=lambda value: str(value))
def test_imports_flow_one_way(module, path):
    assert violations(module, path.read_text()) == []


@pytest.mark.parametrize(
    "module, source, broken",
    [
        ("solver.core.deal", "from solver.engines import kernel\n", True),  # upward
        ("solver.engines.kernel", "from solver.experiments.sweep import Cell\n", True),  # upward
        ("solver.family.turns", "from solver.trick.ghost import GHOST_SEAT\n", True),  # across games
        ("solver.trick.ghost", "from solver.family.cards import bit\n", True),  # across games
        ("solver.missions.stage", "def f():\n    import cli.main\n", True),  # the CLI, in a function
        ("solver.missions.setup", "from solver.core.cards import bit\nfrom solver.trick import chance\n", False),
        ("solver.experiments.sweep", "from solver.family.engines import auto_solve\n", False),
        ("solver.engines.kernel.search", "from .problem import TRICKS\n", False),  # relative, same package
        ("solver.core.deal", "from ..engines import kernel\n", True),  # relative, upward
    ],
)
def test_the_checker_catches_what_it_should(module, source, broken):
    assert bool(violations(module, source)) is broken
