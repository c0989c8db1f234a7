"""Tool definitions in TypeScript/JavaScript and Go, by a careful literal search.

No parser for either language ships with Python, and none is needed to find a registration:
a small tokenizer that knows strings, template literals, comments and (in JS) regex literals
gives exact spans, and the registration calls of the official SDKs have fixed shapes:

- TypeScript SDK: ``server.tool("name", "description"?, {params}?, {annotations}?, cb)``,
  ``server.registerTool("name", {description, inputSchema, annotations}, cb)``, and low-level
  tool objects ``{name: "x", description: "...", inputSchema: {properties: {...}}}``;
- Go: ``mcp.NewTool("name", mcp.WithDescription("..."), mcp.WithString("p", ...), ...)``
  (mcp-go) and ``&mcp.Tool{Name: "x", Description: "..."}`` (the official go-sdk).

A name or description counts only when it is a literal: concatenated literals (``"a" + "b"``)
and template literals without ``${}`` are joined; anything computed is left unknown.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from typing import NamedTuple

from mcplint import regex_cache as rx
from mcplint.findings import SourceLocation
from mcplint.sources.definitions import Definition
from mcplint.sources.walk import GO

STR, ID, PUNCT, REGEX = "str", "id", "punct", "regex"
_WORD = rx.compile(r"[\w$]+")
_SKIP = rx.compile(r"(?:\s+|//[^\n]*|/\*[\s\S]*?(?:\*/|\Z))+")
_DOUBLE = rx.compile(r'"([^"\\\n]*)"')
_SINGLE = rx.compile(r"'([^'\\\n]*)'")
_TEMPLATE = rx.compile(r"`((?:[^`\\$]|\$(?!\{))*)`")
# After these, a "/" starts a regex literal rather than dividing.
_REGEX_AFTER_PUNCT = frozenset("(,=:[!&|?{};+-*%<>~^")
_REGEX_AFTER_WORD = frozenset({"return", "typeof", "case", "do", "else", "in", "of", "new",
                               "delete", "void", "throw", "yield", "await", "instanceof"})
_ANNOTATION_KEYS = frozenset({"title", "readOnlyHint", "destructiveHint", "idempotentHint",
                              "openWorldHint"})
_GO_PARAM_OPTIONS = frozenset({"WithString", "WithNumber", "WithInteger", "WithBoolean",
                               "WithArray", "WithObject", "WithAny"})
_JS_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_GO_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}


class Token(NamedTuple):
    # A NamedTuple, not a dataclass: a bundled file makes hundreds of thousands of these.
    kind: str
    text: str  # an identifier, a punctuation mark, or a string's decoded value
    start: int
    end: int
    static: bool = True  # False for a template literal with ${} in it


class _Scanner:
    def __init__(self, text: str, go: bool) -> None:
        self.text = text
        self.go = go
        self.tokens: list[Token] = []

    def scan(self) -> list[Token]:
        text, n, tokens = self.text, len(self.text), self.tokens
        i = 0
        # Regexes take the common cases (space, comments, words, strings without escapes) in
        # one step each; escapes, ${} and regex literals go the careful way below.
        while True:
            skipped = _SKIP.match(text, i)
            if skipped:
                i = skipped.end()
            if i >= n:
                return tokens
            char = text[i]
            if char in "\"'":
                plain = (_DOUBLE if char == '"' else _SINGLE).match(text, i)
                if plain:
                    tokens.append(Token(STR, plain.group(1), i, plain.end()))
                    i = plain.end()
                else:
                    i = self._string(i, char)
            elif char == "`":
                plain = None if self.go else _TEMPLATE.match(text, i)
                if plain:
                    value = plain.group(1).replace("\r\n", "\n").replace("\r", "\n")
                    tokens.append(Token(STR, value, i, plain.end()))
                    i = plain.end()
                else:
                    i = self._raw(i) if self.go else self._template(i)
            elif char == "/" and not self.go and self._regex_allowed():
                i = self._regex(i)
            else:
                word = _WORD.match(text, i)
                if word:
                    tokens.append(Token(ID, word.group(), i, word.end()))
                    i = word.end()
                else:
                    tokens.append(Token(PUNCT, char, i, i + 1))
                    i += 1

    def _regex_allowed(self) -> bool:
        if not self.tokens:
            return True
        last = self.tokens[-1]
        if last.kind == PUNCT:
            return last.text in _REGEX_AFTER_PUNCT
        return last.kind == ID and last.text in _REGEX_AFTER_WORD

    def _regex(self, start: int) -> int:
        text, i, in_class = self.text, start + 1, False
        while i < len(text) and text[i] != "\n":
            char = text[i]
            if char == "\\":
                i += 2
                continue
            if char == "[":
                in_class = True
            elif char == "]":
                in_class = False
            elif char == "/" and not in_class:
                flags = _WORD.match(text, i + 1)
                end = flags.end() if flags else i + 1
                self.tokens.append(Token(REGEX, "", start, end))
                return end
            i += 1
        # Not a regex after all (no closing slash on the line): a lone "/".
        self.tokens.append(Token(PUNCT, "/", start, start + 1))
        return start + 1

    def _string(self, start: int, quote: str) -> int:
        text, i = self.text, start + 1
        parts: list[str] = []
        while i < len(text):
            char = text[i]
            if char == quote:
                self.tokens.append(Token(STR, "".join(parts), start, i + 1))
                return i + 1
            if char == "\n":
                break  # unterminated: stop at the line's end rather than swallow code
            if char == "\\":
                decoded, i = self._escape(i)
                parts.append(decoded)
                continue
            parts.append(char)
            i += 1
        self.tokens.append(Token(STR, "".join(parts), start, i, static=False))
        return i

    def _escape(self, i: int) -> tuple[str, int]:
        """Decode the escape at ``text[i] == "\\"``; return it and the index after it."""
        text = self.text
        if i + 1 >= len(text):
            return "", i + 1
        char = text[i + 1]
        if char == "\r" and text.startswith("\r\n", i + 1):
            return "", i + 3
        if char in "\n\u2028\u2029" and not self.go:
            return "", i + 2  # line continuation
        table = _GO_ESCAPES if self.go else _JS_ESCAPES
        if char in table and not (char == "0" and text[i + 2:i + 3].isdigit()):
            return table[char], i + 2
        if char == "x":
            return _code(text[i + 2:i + 4], 2, i + 4)
        if char == "u":
            if not self.go and text.startswith("{", i + 2):
                close = text.find("}", i + 3)
                if close > 0:
                    return _code(text[i + 3:close], close - i - 3, close + 1)
            return _code(text[i + 2:i + 6], 4, i + 6)
        if char == "U" and self.go:
            return _code(text[i + 2:i + 10], 8, i + 10)
        if self.go and char in "01234567":
            digits = text[i + 1:i + 4]
            if len(digits) == 3 and all(c in "01234567" for c in digits):
                return chr(int(digits, 8)), i + 4
        return char, i + 2

    def _raw(self, start: int) -> int:
        end = self.text.find("`", start + 1)
        if end < 0:
            self.tokens.append(Token(STR, "", start, len(self.text), static=False))
            return len(self.text)
        value = self.text[start + 1:end].replace("\r", "")  # Go drops carriage returns
        self.tokens.append(Token(STR, value, start, end + 1))
        return end + 1

    def _template(self, start: int) -> int:
        text, i = self.text, start + 1
        parts: list[str] = []
        static = True
        while i < len(text):
            char = text[i]
            if char == "`":
                self.tokens.append(Token(STR, "".join(parts), start, i + 1, static))
                return i + 1
            if char == "\\":
                decoded, i = self._escape(i)
                parts.append(decoded)
                continue
            if text.startswith("${", i):
                static = False
                i = self._skip_expression(i + 2)
                continue
            if char == "\r":
                parts.append("\n")
                i += 2 if text.startswith("\r\n", i) else 1
                continue
            parts.append(char)
            i += 1
        self.tokens.append(Token(STR, "", start, len(text), static=False))
        return len(text)

    def _skip_expression(self, i: int) -> int:
        """Past the ``}`` closing a template's ``${``: nested strings and braces included."""
        inner = _Scanner(self.text, self.go)
        depth = 0
        text = self.text
        while i < len(text):
            char = text[i]
            if char in "\"'":
                i = inner._string(i, char)
            elif char == "`":
                i = inner._template(i)
            elif text.startswith("//", i):
                end = text.find("\n", i)
                i = len(text) if end < 0 else end
            elif text.startswith("/*", i):
                end = text.find("*/", i + 2)
                i = len(text) if end < 0 else end + 2
            elif char == "{":
                depth += 1
                i += 1
            elif char == "}":
                if depth == 0:
                    return i + 1
                depth -= 1
                i += 1
            else:
                i += 1
        return i


def _code(digits: str, width: int, after: int) -> tuple[str, int]:
    try:
        if len(digits) == width:
            return chr(int(digits, 16)), after
    except (ValueError, OverflowError):
        pass
    return digits, after


class _Source:
    """Tokens of one file with bracket partners and positions."""

    def __init__(self, file: str, text: str, go: bool) -> None:
        self.file = file
        self.text = text
        self.go = go
        self.tokens = _Scanner(text, go).scan()
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.partner: dict[int, int] = {}
        # The innermost open bracket around each `inputSchema` key, found in the same pass
        # (looking back from each key would be quadratic in a large file).
        self.holder: dict[int, int] = {}
        stack: list[int] = []
        pairs = {")": "(", "]": "[", "}": "{"}
        for index, token in enumerate(self.tokens):
            if token.kind != PUNCT:
                if token.kind == ID and token.text == "inputSchema" and stack:
                    self.holder[index] = stack[-1]
                continue
            if token.text in "([{":
                stack.append(index)
            elif token.text in pairs:
                # Skip unbalanced openers (from code the tokenizer misread) to the match.
                while stack and self.tokens[stack[-1]].text != pairs[token.text]:
                    stack.pop()
                if stack:
                    opener = stack.pop()
                    self.partner[opener] = index
                    self.partner[index] = opener

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.line_starts, offset) - 1
        return line + 1, offset - self.line_starts[line] + 1

    def span(self, first: int, last: int) -> SourceLocation:
        """From the start of token ``first`` to the end of token ``last`` (inclusive)."""
        line, column = self.position(self.tokens[first].start)
        end_line, end_column = self.position(self.tokens[last].end)
        return SourceLocation(self.file, line, column, end_line, end_column)

    def is_punct(self, index: int, char: str) -> bool:
        return (0 <= index < len(self.tokens) and self.tokens[index].kind == PUNCT
                and self.tokens[index].text == char)

    def parts(self, open_index: int) -> list[tuple[int, int]]:
        """Comma-separated ranges [start, end) inside the bracket at ``open_index``."""
        close = self.partner.get(open_index)
        if close is None:
            return []
        ranges: list[tuple[int, int]] = []
        start = index = open_index + 1
        while index < close:
            token = self.tokens[index]
            if token.kind == PUNCT and token.text in "([{" and index in self.partner:
                index = self.partner[index] + 1
                continue
            if token.kind == PUNCT and token.text == ",":
                ranges.append((start, index))
                start = index + 1
            index += 1
        if start < close:
            ranges.append((start, close))
        return ranges

    def entries(self, open_index: int) -> dict[str, tuple[int, int, int]]:
        """An object literal's ``key: value`` entries: key -> (key index, value start, end)."""
        found: dict[str, tuple[int, int, int]] = {}
        for start, end in self.parts(open_index):
            if end - start >= 3 and self.tokens[start].kind in (ID, STR) \
                    and self.is_punct(start + 1, ":"):
                found.setdefault(self.tokens[start].text, (start, start + 2, end))
        return found

    def string(self, start: int, end: int) -> tuple[str | None, bool]:
        """The value of ``"a" + "b"`` (or one literal, or a template) in [start, end).

        Returns (text, is_string_expression); text is None when a part is computed.
        """
        while end - start >= 2 and self.is_punct(start, "(") and self.partner.get(start) == end - 1:
            start, end = start + 1, end - 1
        if start >= end or self.tokens[start].kind != STR:
            return None, False
        parts: list[str] = []
        static = True
        index = start
        while index < end:
            token = self.tokens[index]
            if token.kind != STR:
                return None, True
            parts.append(token.text)
            static = static and token.static
            index += 1
            if index < end and not self.is_punct(index, "+"):
                return None, True
            index += 1
        return ("".join(parts) if static else None), True

    def object_in(self, start: int, end: int) -> int | None:
        """The object literal a value holds: ``{...}`` itself or the one in ``z.object({...})``."""
        if self.is_punct(start, "{"):
            return start
        for index in range(start, end):
            if self.is_punct(index, "{") and self.is_punct(index - 1, "("):
                return index
            if self.tokens[index].kind not in (ID,) and not self.is_punct(index, ".") \
                    and not self.is_punct(index, "("):
                return None
        return None


def _script_definitions(src: _Source) -> Iterator[Definition]:
    tokens = src.tokens
    for index, token in enumerate(tokens):
        if token.kind != ID:
            continue
        if token.text in ("tool", "registerTool") and src.is_punct(index - 1, ".") \
                and src.is_punct(index + 1, "("):
            found = _script_call(src, index, token.text == "registerTool")
        elif token.text == "inputSchema" and src.is_punct(index + 1, ":"):
            found = _tool_object(src, index)
        else:
            continue
        if found is not None:
            yield found


def _call_site(src: _Source, callee: int) -> SourceLocation:
    start = callee - 2 if src.is_punct(callee - 1, ".") and callee >= 2 \
        and src.tokens[callee - 2].kind == ID else callee
    close = src.partner.get(callee + 1, callee + 1)
    return src.span(start, close)


def _name(src: _Source, start: int, end: int) -> tuple[str, SourceLocation] | None:
    name, is_string = src.string(start, end)
    if name is None or not is_string:
        return None
    return name, src.span(start, end - 1)


def _keys(src: _Source, open_index: int) -> dict[str, SourceLocation]:
    return {key: src.span(key_index, end - 1)
            for key, (key_index, _value, end) in src.entries(open_index).items()}


def _script_call(src: _Source, callee: int, register: bool) -> Definition | None:
    args = src.parts(callee + 1)
    if not args:
        return None
    named = _name(src, *args[0])
    if named is None:
        return None
    description: str | None = ""  # absent unless found: known, not computed
    description_at = annotations_at = None
    params: dict[str, SourceLocation] = {}
    if register:
        if len(args) < 2 or not src.is_punct(args[1][0], "{"):
            return None
        config = src.entries(args[1][0])
        if "description" in config:
            _key, start, end = config["description"]
            description, _ = src.string(start, end)
            description_at = src.span(start, end - 1)
        if "inputSchema" in config:
            _key, start, end = config["inputSchema"]
            schema = src.object_in(start, end)
            params = _keys(src, schema) if schema is not None else {}
        if "annotations" in config:
            key, _start, end = config["annotations"]
            annotations_at = src.span(key, end - 1)
    else:
        rest = args[1:]
        if rest:
            text, is_string = src.string(*rest[0])
            if is_string:
                description, description_at = text, src.span(rest[0][0], rest[0][1] - 1)
                rest = rest[1:]
        for start, end in rest:
            if not src.is_punct(start, "{") or src.partner.get(start) != end - 1:
                continue
            keys = _keys(src, start)
            if keys and set(keys) <= _ANNOTATION_KEYS:
                annotations_at = annotations_at or src.span(start, end - 1)
            elif not params:
                params = keys
    return Definition(named[0], _call_site(src, callee), named[1], description,
                      description_at, annotations_at, params)


def _tool_object(src: _Source, key_index: int) -> Definition | None:
    """A low-level tool object: ``{name: "x", description: "...", inputSchema: {...}}``."""
    opener = _enclosing(src, key_index)
    if opener is None:
        return None
    fields = src.entries(opener)
    if "name" not in fields or fields.get("inputSchema", (None,))[0] != key_index:
        return None
    found = _literal_fields(src, fields, ("name", "description", "annotations"))
    if found is None:
        return None
    named, description, description_at, annotations_at = found
    params: dict[str, SourceLocation] = {}
    _key, start, _end = fields["inputSchema"]
    if src.is_punct(start, "{"):
        props = src.entries(start).get("properties")
        if props is not None and src.is_punct(props[1], "{"):
            params = _keys(src, props[1])
    close = src.partner.get(opener, opener)
    return Definition(named[0], src.span(opener, close), named[1], description,
                      description_at, annotations_at, params, registration=False)


def _enclosing(src: _Source, index: int) -> int | None:
    """The ``{`` whose object holds the ``inputSchema`` key at ``index`` directly."""
    opener = src.holder.get(index)
    return opener if opener is not None and src.is_punct(opener, "{") else None


def _go_definitions(src: _Source) -> Iterator[Definition]:
    for index, token in enumerate(src.tokens):
        if token.kind != ID:
            continue
        if token.text == "NewTool" and src.is_punct(index + 1, "("):
            found = _go_new_tool(src, index)
            if found is not None:
                yield found
        elif token.text == "Tool" and src.is_punct(index + 1, "{"):
            yield from _go_tool_structs(src, index)


def _go_option(src: _Source, start: int, end: int) -> tuple[str, int] | None:
    """``mcp.WithX(`` or ``WithX(`` at the start of an argument: the option and its ``(``."""
    index = start + 2 if src.is_punct(start + 1, ".") else start
    if index < end and src.tokens[index].kind == ID and src.is_punct(index + 1, "("):
        return src.tokens[index].text, index + 1
    return None


def _go_new_tool(src: _Source, callee: int) -> Definition | None:
    args = src.parts(callee + 1)
    if not args:
        return None
    named = _name(src, *args[0])
    if named is None:
        return None
    description: str | None = ""  # absent unless found: known, not computed
    description_at = annotations_at = None
    params: dict[str, SourceLocation] = {}
    for start, end in args[1:]:
        option = _go_option(src, start, end)
        if option is None:
            continue
        called, paren = option
        inner = src.parts(paren)
        if called == "WithDescription" and inner:
            description, _ = src.string(*inner[0])
            description_at = src.span(inner[0][0], inner[0][1] - 1)
        elif called in _GO_PARAM_OPTIONS and inner:
            param, is_string = src.string(*inner[0])
            if param is not None and is_string:
                params.setdefault(param, src.span(start, end - 1))
        elif called.endswith("Annotation") and annotations_at is None:
            annotations_at = src.span(start, end - 1)
    return Definition(named[0], _call_site(src, callee), named[1], description,
                      description_at, annotations_at, params)


def _go_tool_structs(src: _Source, type_index: int) -> Iterator[Definition]:
    """``mcp.Tool{Name: ...}``, or each element of ``[]mcp.Tool{{Name: ...}, ...}``."""
    opener = type_index + 1
    if "Name" in src.entries(opener):
        site_start = type_index - 2 if src.is_punct(type_index - 1, ".") else type_index
        found = _go_tool_struct(src, opener, site_start)
        if found is not None:
            yield found
        return
    for start, _end in src.parts(opener):
        if src.is_punct(start, "{"):
            found = _go_tool_struct(src, start, start)
            if found is not None:
                yield found


def _literal_fields(
    src: _Source, fields: dict[str, tuple[int, int, int]], keys: tuple[str, str, str]
) -> tuple[tuple[str, SourceLocation], str | None, SourceLocation | None,
           SourceLocation | None] | None:
    """Name, description and annotations of a tool written as an object or struct literal
    (the keys are ``name`` in TypeScript, ``Name`` in Go)."""
    name_key, description_key, annotations_key = keys
    _key, start, end = fields[name_key]
    named = _name(src, start, end)
    if named is None:
        return None
    description: str | None = ""  # absent unless found: known, not computed
    description_at = annotations_at = None
    if description_key in fields:
        _key, start, end = fields[description_key]
        description, _ = src.string(start, end)
        description_at = src.span(start, end - 1)
    if annotations_key in fields:
        key, _start, end = fields[annotations_key]
        annotations_at = src.span(key, end - 1)
    return named, description, description_at, annotations_at


def _go_tool_struct(src: _Source, opener: int, site_start: int) -> Definition | None:
    fields = src.entries(opener)
    if "Name" not in fields:
        return None
    found = _literal_fields(src, fields, ("Name", "Description", "Annotations"))
    if found is None:
        return None
    named, description, description_at, annotations_at = found
    close = src.partner.get(opener, opener)
    return Definition(named[0], src.span(site_start, close), named[1], description,
                      description_at, annotations_at, {})


def literal_definitions(file: str, text: str, language: str) -> list[Definition]:
    """Every tool registration in one TypeScript/JavaScript or Go file."""
    src = _Source(file, text, go=language == GO)
    found = _go_definitions(src) if language == GO else _script_definitions(src)
    return list(found)
