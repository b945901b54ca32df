"""The kernel's Numba cache is keyed by every source it compiles from (solver/engines/kernel/cache.py)."""

import ast
import importlib

from solver.engines.kernel import cache


def test_every_module_the_kernel_imports_is_in_the_cache_key():
    # The jitted code freezes the constants it reads from the modules it imports: a module outside
    # the key could change one under a cached function.
    imported = {
        node.module
        for path in cache.KERNEL.glob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("solver.")
    }
    files = [importlib.import_module(name).__file__ for name in sorted(imported)]
    assert len(files) > 10
    assert [f for f in files if not any(f.startswith(f"{source}/") or f == str(source) for source in cache.SOURCES)] == []


def test_the_key_changes_with_any_source(tmp_path, monkeypatch):
    (tmp_path / "core").mkdir()
    source = tmp_path / "core" / "cards.py"
    source.write_text("CARD_COUNT = 40\n")
    monkeypatch.setattr(cache, "SOLVER", tmp_path)
    monkeypatch.setattr(cache, "SOURCES", (tmp_path / "core",))
    first = cache.sources_digest()
    source.write_text("CARD_COUNT = 41\n")
    changed = cache.sources_digest()
    (tmp_path / "core" / "deal.py").write_text("")
    assert len({first, changed, cache.sources_digest()}) == 3
