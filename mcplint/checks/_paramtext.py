"""Reading parameter schemas and their prose: effective types, declared closed sets, and the
values a description lists.  Shared by the parameter and response checks; holds no vocabulary
(word lists are rule options)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from mcplint import regex_cache as rx
from mcplint.model import Parameter, Tool

_MAX_REF_DEPTH = 8


def resolve(schema: Any, root: Any, depth: int = 0) -> Mapping[str, Any]:
    """A schema with a local ``$ref`` (``#/$defs/Sort``) followed; anything else as it is."""
    if not isinstance(schema, Mapping):
        return {}
    ref = schema.get("$ref")
    if not isinstance(ref, str) or not ref.startswith("#/") or depth > _MAX_REF_DEPTH:
        return schema
    node: Any = root
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        node = node.get(part) if isinstance(node, Mapping) else None
    if not isinstance(node, Mapping):
        return schema
    merged = {**node, **{k: v for k, v in schema.items() if k != "$ref"}}
    return resolve(merged, root, depth + 1)


def _branches(schema: Mapping[str, Any], root: Any) -> list[Mapping[str, Any]]:
    """The schema itself plus its anyOf/oneOf alternatives (pydantic writes ``Optional[str]``
    as ``anyOf: [{type: string}, {type: null}]``)."""
    out = [schema]
    for key in ("anyOf", "oneOf"):
        alternatives = schema.get(key)
        if isinstance(alternatives, list):
            out.extend(resolve(a, root) for a in alternatives if isinstance(a, Mapping))
    return out


def _types(schema: Mapping[str, Any]) -> set[str]:
    declared = schema.get("type")
    if isinstance(declared, str):
        return {declared}
    if isinstance(declared, list):
        return {t for t in declared if isinstance(t, str)}
    return set()


def effective_types(schema: Mapping[str, Any], root: Any = None) -> set[str]:
    """Every non-null JSON type a value may take, across anyOf/oneOf alternatives."""
    found: set[str] = set()
    for branch in _branches(resolve(schema, root), root):
        found |= _types(branch)
    return found - {"null"}


def _declares_set(schema: Mapping[str, Any]) -> bool:
    return "enum" in schema or "const" in schema


def declares_closed_set(schema: Mapping[str, Any], root: Any = None) -> bool:
    """Whether the schema (or an alternative, or its array items) pins the values down."""
    schema = resolve(schema, root)
    for branch in _branches(schema, root):
        if _declares_set(branch):
            return True
        items = resolve(branch.get("items"), root)
        if items and any(_declares_set(b) for b in _branches(items, root)):
            return True
    # oneOf/anyOf of anything but plain types is a structured choice the author already made.
    return any(
        isinstance(schema.get(key), list)
        and any(isinstance(a, Mapping) and "properties" in a for a in schema[key])
        for key in ("oneOf", "anyOf")
    )


def is_stringish(schema: Mapping[str, Any], root: Any = None) -> bool:
    """A string, or an array of strings, possibly nullable; nothing else mixed in."""
    schema = resolve(schema, root)
    types = effective_types(schema, root)
    if types == {"string"}:
        return True
    if types == {"array"} or types == {"array", "string"}:
        item_types: set[str] = set()
        for branch in _branches(schema, root):
            items = resolve(branch.get("items"), root)
            if items:
                item_types |= effective_types(items, root)
        return item_types == {"string"}
    return False


def has_text(schema: Mapping[str, Any], key: str = "description") -> bool:
    value = schema.get(key)
    return isinstance(value, str) and bool(value.strip())


def description_of(param: Parameter, root: Any = None) -> str:
    """The parameter's description, or one on its items or an alternative when it has none."""
    schema = resolve(param.schema, root)
    for branch in [schema, *(_branches(schema, root)[1:]), resolve(schema.get("items"), root)]:
        if has_text(branch):
            return str(branch["description"]).strip()
    return ""


# A parameter's own line in a tool description: ``- owner: …``, ``owner (string): …``,
# ``Args: owner — …`` or a backticked name.  Zero-width, so lines that hold several
# (``a: x, b: y``) yield each; one pass per text finds every name at once.
_LINE = rx.compile(r"(?=(?:^|(?<=\n)|(?<=[-*•]\s)|(?<=,\s)|(?<=;\s))\s*[`'\"]?([A-Za-z_$][\w.$\-]*)"
                   r"[`'\"]?\s*(?:\([^)\n]*\)\s*)?(?::|-\s|–|—|=)([^\n]*))|(?=`([A-Za-z_$][\w.$\-]*)`"
                   r"([^\n]*))")


@lru_cache(maxsize=512)
def _lines(text: str) -> Mapping[str, str]:
    found: dict[str, str] = {}
    for match in _LINE.finditer(text):
        name, rest = (match.group(1), match.group(2)) if match.group(1) else (
            match.group(3), match.group(4))
        if name:
            found.setdefault(name, (rest or "").strip() or name)
    return found


def tool_line(param: Parameter, tool: Tool, root: Any = None) -> str:
    """What the tool's description (or the parent object's) says about the parameter on a line
    of its own, or "" when it has no such line."""
    texts = [tool.description or ""]
    if param.depth:
        parent = next((p for p in tool.parameters
                       if param.path.startswith(p.path + ".") and p.depth == param.depth - 1),
                      None)
        if parent is not None:
            texts.append(description_of(parent, root))
    for text in texts:
        line = _lines(text).get(param.name) if text else None
        if line:
            return line
    return ""


def schema_root(tool: Tool) -> Any:
    return tool.input_schema


# --- values listed in prose --------------------------------------------------------------------

_QUOTE = (r"""(?:'([^'\n]{1,40})'|"([^"\n]{1,40})"|`([^`\n]{1,40})`"""
          r"""|‘([^’\n]{1,40})’|“([^”\n]{1,40})”)""")
# A short aside may follow a value: "'summary' (default) or 'raw'".
_SEP = r"(?:\s*\([^()\n]{1,120}\))?\s*(?:,\s*(?:or\s+|and\s+)?|\s+or\s+|\s*\|\s*|\s*/\s*)\s*"
# A value may also carry a short gloss of its own: "'asc' for oldest first or 'desc' for
# newest first", '"table" (default) for a flat table, or "dot" for a call graph'.  The gloss
# opens with a word that explains a value and holds no quote, so two quotes a sentence apart
# are not joined.
_GLOSS = r"""(?:(?:\s*\([^()\n]{1,60}\))?\s*(?:for|to|means|=|-|–|—|:)\s[^'"`‘’“”.;\n]{1,60}?)?"""
_QUOTED_RUN = rx.compile(f"{_QUOTE}(?:{_GLOSS}{_SEP}{_QUOTE})+")
_BARE = r"[A-Za-z0-9][\w.:+\-]{0,29}"
_BARE_SEP = r"\s*(?:,\s*(?:or\s+)?|\s+or\s+|\s*\|\s*)\s*"
_PIPE_RUN = rx.compile(r"(?<![\w|/\\(])([A-Za-z][\w\-]{0,29}(?:\|[A-Za-z][\w\-]{0,29})+)"
                       r"(?![\w|/\\)])")
_PAREN = rx.compile(r"\(([^()]{3,200})\)")
_BULLET = rx.compile(r"^\s*[-*•]\s*[\"'`]?([A-Za-z0-9][\w.:+\-]{0,29})[\"'`]?\s*(?::|-|–|—|=)\s*\S",
                     re.MULTILINE)
_EXAMPLE_CUE = rx.compile(r"(?:\be\.g\.?|\beg\.|\bex\.|\bi\.e\.|\bfor (?:example|instance)\b"
                          r"|\bexamples?\b|\bsuch as\b|\blike\b|\bsample\b|\bcommon\b"
                          r"|\btypical(?:ly)?\b|\bincluding\b)", re.IGNORECASE)
# A sentence end, but not the dots of "e.g." and "i.e.".
_SENTENCE_END = rx.compile(r"(?<!\be\.g)(?<!\bi\.e)[.!?]\s|\n\s*\n")
_PLACEHOLDER = rx.compile(r"YYYY|yyyy|MM-|HH:|\{|\}|<|>|\*|\$|\d{4}-\d\d|\d\d:\d\d")
_BOOLEAN_WORDS = frozenset({"true", "false", "yes", "no", "on", "off", "0", "1"})


class Listing(NamedTuple):
    """Values a description offers for a parameter, and whether it offers them as examples."""

    values: tuple[str, ...]
    examples: bool


_QUOTE_RE = rx.compile(_QUOTE)


def _quoted_values(match: re.Match[str]) -> list[str]:
    return [next(g for g in groups if g) for groups in _QUOTE_RE.findall(match.group(0))]


# "a, b and c": after a comma, "and" ends a list as "or" does; "a and b" alone names two things.
_LAST_AND = rx.compile(r",\s*and\s+|(?<=\w)\s+and\s+(?=[^,]*$)", re.IGNORECASE)
_LIST_LEAD = rx.compile(r"^(?:either|one of|only)\s+", re.IGNORECASE)
_BARE_SEP_RE = rx.compile(_BARE_SEP)
_BARE_RE = rx.compile(_BARE)


def _bare_values(text: str) -> list[str] | None:
    """``a, b, or c`` (or ``a, b and c``) with single-word items only, or None when the text
    is not such a list."""
    text = text.strip().rstrip(".;)]")
    text = _LIST_LEAD.sub("", text)
    if "," in text:
        text = _LAST_AND.sub(", ", text)
    parts = [p.strip().strip("'\"`") for p in _BARE_SEP_RE.split(text) if p.strip()]
    if len(parts) < 2 or not all(_BARE_RE.fullmatch(p) for p in parts):
        return None
    return parts


def _about_other_values(text: str, start: int, siblings: frozenset[str] = frozenset()) -> bool:
    """Whether the list at ``start`` says when the parameter applies, not what it takes:
    "(required for 'create', 'update')", "used when mode is 'a' or 'b'", or gives another
    parameter's values: "combine with mode set to 'strict' or 'loose'"."""
    before = text[max(0, start - 30):start]
    named = _NAMED_OTHER.search(before)
    if named and named.group(1).lower() in siblings:
        return True
    return (_CONDITION_END.search(before) is not None
            and not _VALUES_ARE_END.search(before))


_CONDITION_END = rx.compile(r"\b(?:for|when|if|with|unless|is|are)\s*(?::\s*)?$", re.IGNORECASE)
_VALUES_ARE_END = rx.compile(r"\b(?:values?|options?|one of)\s+(?:is|are)\s*(?::\s*)?$",
                             re.IGNORECASE)


# A parameter's name, then what sets it: "mode set to", "`format` =", "type equals".
_NAMED_OTHER = rx.compile(r"[`'\"]?(\w+)[`'\"]?\s*(?:set\s+to|=|==|equals|is|are|of)\s*$",
                          re.IGNORECASE)


_QUOTED_SPAN = rx.compile(r"'[^']{0,200}'|\"[^\"]{0,200}\"")


def _in_quotes(text: str, start: int, end: int) -> bool:
    spans = _QUOTED_SPAN.finditer(text)
    return any(m.start() < start and end < m.end() for m in spans)


def _preceded_by_example(text: str, start: int) -> bool:
    """Whether the sentence before ``start`` offers what follows as examples."""
    window = text[max(0, start - 100):start]
    ends = list(_SENTENCE_END.finditer(window))
    if ends:
        window = window[ends[-1].end():]
    return bool(_EXAMPLE_CUE.search(window))


_COLON_NEXT = rx.compile(r"\s*:")
_EXAMPLE_LEAD = rx.compile(r"^\s*(?:e\.g\.?|eg\.|for example|such as|like|ex\.)[\s,:]*",
                           re.IGNORECASE)
_COLON_LIST = rx.compile(r"(?<!\bfor):\s*([^.;:\n()]{3,200})(?:[.;\n(]|$)")
_LOWER_WORD = rx.compile(r"[a-z]+")


def listed_values(text: str, lead_ins: Sequence[str], max_values: int,
                  exclude: Iterable[str] = (), name_words: Iterable[str] = (),
                  forms: Iterable[str] = ()) -> Listing | None:
    """The values a parameter description enumerates: quoted alternatives (``'asc' or 'desc'``,
    each with a gloss if need be), a pipe list (``asc|desc``), a parenthesised or lead-in list
    of single words (``one of: a, b, c``, ``(GET, POST, PUT)``), two words after a label that
    names the parameter (``Theme: light or dark``) or as the whole text (``proxy or direct``),
    unless one of them is in ``forms``, or a bullet list of ``- value: meaning`` lines."""
    found: list[tuple[list[str], bool]] = []
    siblings = frozenset(e.lower() for e in exclude)
    own = {w.lower() for w in name_words}

    def pair_of_values(values: list[str] | None) -> bool:
        """Two bare words are values, not kinds or forms of one ("ID or name")."""
        return bool(values) and not {v.lower() for v in values or ()} & {
            f.lower() for f in forms}

    for match in _QUOTED_RUN.finditer(text):
        if (_COLON_NEXT.match(text, match.end())
                or _about_other_values(text, match.start(), siblings)):
            continue  # keys of a JSON example, or the values of another parameter
        found.append((_quoted_values(match), _preceded_by_example(text, match.start())))
    for match in _PIPE_RUN.finditer(text):
        if not _in_quotes(text, match.start(), match.end()):  # '1. Step|Result' is a format
            found.append((match.group(1).split("|"), False))
    for match in _PAREN.finditer(text):
        inner = match.group(1)
        examples = bool(_EXAMPLE_CUE.search(inner))
        inner = _EXAMPLE_LEAD.sub("", inner)
        values = _bare_values(inner)
        # Two bare words in brackets are as often kinds or forms of the value as values:
        # "owner (username or organization)", "timestamp (RFC3339 or Unix)".
        if values and len(values) >= 3:
            found.append((values, examples or _preceded_by_example(text, match.start())))
    if lead_ins:
        for match in _lead_pattern(tuple(lead_ins)).finditer(text):
            values = _bare_values(match.group(1))
            if values:
                found.append((values, False))
    # A bare list after a colon counts in the first sentence, which says what the parameter
    # is, or where the words before the colon name the parameter ("State on error: A, B, C");
    # others list something else ("Used for: list, get", "Modifiers: Control, Shift").
    # Two values there need the label to name the parameter ("Theme: light or dark").
    for number, sentence in enumerate(_SENTENCE_END.split(text)):
        for match in _COLON_LIST.finditer(sentence):
            lead_words = set(_LOWER_WORD.findall(sentence[:match.start()].lower()))
            if number and not lead_words & own:
                continue
            values = _bare_values(match.group(1))
            if values and (len(values) >= 3 or (lead_words & own and pair_of_values(values))):
                found.append((values, _preceded_by_example(sentence, match.start() + 1)))
    # A description that is nothing but the values: "proxy or direct".
    whole = None if _SENTENCE_END.search(text.strip()) else _bare_values(text)
    if whole and pair_of_values(whole):
        found.append((whole, False))
    bullets = list(_BULLET.finditer(text))
    if len(bullets) >= 2:
        found.append(([b.group(1) for b in bullets],
                      _preceded_by_example(text, bullets[0].start())))
    # Lists of sibling parameters ("either github_url or owner_repo") are not values.
    excluded = {e.lower() for e in exclude}
    best: Listing | None = None
    for values, examples in found:
        unique = tuple(dict.fromkeys(v.strip() for v in values if v.strip()))
        lowered = {v.lower() for v in unique}
        if (not 2 <= len(unique) <= max_values or lowered <= _BOOLEAN_WORDS
                or any(len(v.split()) > 3 for v in unique)
                or lowered & excluded or any(_PLACEHOLDER.search(v) for v in unique)):
            continue
        candidate = Listing(unique, examples)
        if best is None or (best.examples and not examples) or (
                best.examples == examples and len(unique) > len(best.values)):
            best = candidate
    return best


def offers_examples(text: str) -> bool:
    return bool(_EXAMPLE_CUE.search(text))


def mentions(text: str, phrases: Iterable[str]) -> bool:
    """Whether the text contains any of the phrases as whole words, case-insensitively."""
    if not text:
        return False
    pattern = _mentions_pattern(tuple(phrases))
    return pattern is not None and pattern.search(text) is not None


# Both are asked for with the same option lists for every parameter; escaping a few hundred
# words each time cost more than the searches.
@lru_cache(maxsize=256)
def _mentions_pattern(phrases: tuple[str, ...]) -> re.Pattern[str] | None:
    words = [p for p in phrases if p]
    if not words:
        return None
    return rx.compile(r"(?<![\w])(?:" + "|".join(re.escape(w) for w in words) + r")(?![\w])",
                      re.IGNORECASE)


@lru_cache(maxsize=64)
def _lead_pattern(lead_ins: tuple[str, ...]) -> re.Pattern[str]:
    return rx.compile(r"\b(?:" + "|".join(re.escape(w) for w in lead_ins) +
                      r")\b\s*(?:are|is|include)?\s*[:\-–]?\s*([^.;\n]{3,200})",
                      re.IGNORECASE)
