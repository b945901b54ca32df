"""Where Numba keeps the kernel's machine code: one directory per version of the sources it compiles.

Numba checks a cached function against its own source file only, but the kernel's functions freeze
constants of other modules into their machine code (each array layout's offsets, the deck's sizes):
after a field was added to problem.py's layout, the cached functions of the modules left untouched
kept the old offsets, and perft counted 0 sequences on most lines. A `git pull` that changes one
module does the same. So the cache directory is named by a hash of every module the kernel can
compile from: its own, the layers below the engines (core, trick, missions) and the capacity its
arrays are sized by (solver/engines/capacity.py); a change to any of them compiles the kernel afresh
(about 20 s on this 2-core machine), and the stale directories go.
"""

import hashlib
import os
import shutil
from pathlib import Path

import numba

KERNEL = Path(__file__).parent
SOLVER = KERNEL.parent.parent
SOURCES = (KERNEL, SOLVER / "core", SOLVER / "trick", SOLVER / "missions", SOLVER / "engines" / "capacity.py")
IN_TREE = KERNEL / "__pycache__" / "numba"  # unless NUMBA_CACHE_DIR names another place
PREFIX = "kernel-"


def sources_digest() -> str:
    """Return a hash of the kernel's sources and of the Numba version compiling them."""
    digest = hashlib.sha256(numba.__version__.encode())
    for path in sorted(p for source in SOURCES for p in (source.rglob("*.py") if source.is_dir() else [source])):
        digest.update(str(path.relative_to(SOLVER)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def use_cache_of_these_sources() -> Path:
    """Point Numba's cache at this version's directory (before the kernel's functions are decorated)."""
    base = Path(os.environ["NUMBA_CACHE_DIR"]) if os.environ.get("NUMBA_CACHE_DIR") else IN_TREE
    directory = base / f"{PREFIX}{sources_digest()}"
    if base == IN_TREE and base.is_dir():
        for stale in base.glob(f"{PREFIX}*"):
            if stale != directory:
                shutil.rmtree(stale, ignore_errors=True)  # another process may be removing it too
    numba.config.CACHE_DIR = str(directory)
    return directory
