"""Ruff-style rule selection: select, extend-select and ignore by code, prefix, name or group."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from mcplint.engine.packs import Rule


class SelectionError(Exception):
    pass


def _specificity(selector: str, rule: Rule) -> int:
    """How precisely a selector names a rule; 0 when it does not match it at all.

    The most specific selector decides, so ``select = ["SPEC"]`` with ``ignore = ["SPEC0"]`` and
    ``extend-select = ["SPEC002"]`` keeps SPEC002 alone of the SPEC0xx rules.
    """
    if selector in (rule.code, rule.name):
        return 1000
    if rule.code.startswith(selector):
        return 100 + len(selector)
    if selector in rule.groups:
        return 10
    if selector == "ALL":
        return 1
    return 0


def check_selectors(selectors: Iterable[str], rules: Mapping[str, Rule], where: str) -> None:
    vocabulary = {"ALL"}
    for rule in rules.values():
        vocabulary.update((rule.code, rule.name, *rule.groups))
    for selector in selectors:
        if any(_specificity(selector, rule) for rule in rules.values()) or selector == "ALL":
            continue
        from rapidfuzz import process  # only for the message

        guess = process.extractOne(selector, sorted(vocabulary), score_cutoff=60)
        hint = f'; did you mean "{guess[0]}"?' if guess else "; see `mcplint rules`"
        raise SelectionError(f'{where}: "{selector}" matches no rule code, prefix, name or '
                             f"group{hint}")


def resolve(
    rules: Mapping[str, Rule],
    select: Sequence[str] | None,
    extend_select: Sequence[str] = (),
    ignore: Sequence[str] = (),
) -> frozenset[str]:
    """The codes of the rules that run. ``select=None`` means the rules that are on by default."""
    chosen = set()
    for code, rule in rules.items():
        best_on = max((_specificity(s, rule) for s in [*(select or ()), *extend_select]),
                      default=0)
        if select is None and rule.default:
            best_on = max(best_on, 1)
        best_off = max((_specificity(s, rule) for s in ignore), default=0)
        if best_on and best_on > best_off:
            chosen.add(code)
    return frozenset(chosen)
