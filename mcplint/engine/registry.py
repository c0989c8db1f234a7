"""Where check functions come from: the built-in modules, and configured plugins.

A plugin is an installed distribution that declares an entry point in the ``mcplint.checks``
group.  Only plugins named in the configuration are loaded, so linting a directory never imports
code because of what that directory contains.
"""

from __future__ import annotations

import pkgutil
from collections.abc import Iterable, Mapping
from importlib import import_module
from types import ModuleType

from mcplint.checks.base import Check

ENTRY_POINT_GROUP = "mcplint.checks"


class RegistryError(Exception):
    pass


def _checks_of(obj: object, origin: str) -> Iterable[Check]:
    checks = obj.CHECKS if isinstance(obj, ModuleType) else obj
    if not isinstance(checks, (list, tuple)) or not all(isinstance(c, Check) for c in checks):
        raise RegistryError(
            f"{origin} must be a module with a CHECKS tuple, or a sequence, of check functions "
            "made with mcplint.checks.base.check"
        )
    return checks


def builtin_checks() -> dict[str, Check]:
    """Every check of every module in ``mcplint.checks`` (each module lists its ``CHECKS``)."""
    import mcplint.checks as package

    registry: dict[str, Check] = {}
    for module in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if module.name == "base" or module.name.startswith("_"):
            continue
        name = f"{package.__name__}.{module.name}"
        for item in _checks_of(import_module(name), name):
            if item.id in registry:
                raise RegistryError(f'check "{item.id}" is defined twice ({name})')
            registry[item.id] = item
    return registry


def load_plugins(names: Iterable[str]) -> Mapping[str, Check]:
    """Checks from the named entry points, as ``<plugin>:<check id>``."""
    registry: dict[str, Check] = {}
    wanted = list(names)
    if not wanted:
        return registry
    # importlib.metadata costs ~15 ms of start-up (it pulls in email); only plugins need it.
    from importlib.metadata import entry_points

    available = {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}
    for name in wanted:
        ep = available.get(name)
        if ep is None:
            installed = ", ".join(sorted(available)) or "none installed"
            raise RegistryError(
                f'plugin "{name}" is not installed (entry point group {ENTRY_POINT_GROUP}: '
                f"{installed}); pip install the package that provides it"
            )
        try:
            loaded = ep.load()
        except Exception as exc:  # a broken plugin must not take the whole run down
            raise RegistryError(f'plugin "{name}" failed to load: {exc}') from exc
        for item in _checks_of(loaded, f'plugin "{name}"'):
            registry[f"{name}:{item.id}"] = item
    return registry
