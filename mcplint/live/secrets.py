"""Find the secrets of a live target and mask them (``***``) in any text mcplint prints.

Masking is applied where live messages are made, so no reporter ever sees a secret.  It works
two ways: by value (everything from a config's ``env`` and ``headers``, expanded variables, URL
credentials and query values, the arguments after a secret-looking flag), and by shape, for text
a server wrote itself such as its stderr tail: ``--token=X``, ``--api-key X``, ``API_KEY=X``,
``"password": "X"``, ``Bearer X``, and the user info and query values of any URL.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit, urlunsplit

from mcplint import regex_cache as rx

MASK = "***"
# Shorter values ("1", "on") are no secrets, and masking them everywhere would garble text.
MIN_SECRET = 4

_WORDS = r"key|token|secret|passw|pass\b|pwd|auth|credential|cookie"
_SECRET_NAME = rx.compile(_WORDS, re.I)
_WORD = rf"[A-Za-z0-9_.-]*(?:{_WORDS})[A-Za-z0-9_.-]*"
# --api-key X, --token=X, -password 'X'
_FLAG_VALUE = rx.compile(rf"(?i)(?<![\w-])(--?{_WORD})(=|[ \t]+)(['\"]?)([^\s'\",;]+)")
# API_KEY=X, db_password=X
_ASSIGNMENT = rx.compile(rf"(?i)(?<![\w-])([A-Za-z_]{_WORD})=(['\"]?)([^\s'\",;&]+)")
# "api_key": "X"
_COLON_VALUE = rx.compile(rf"(?i)([\"']{_WORD}[\"']\s*:\s*)([\"'])([^\"'\n]+)\2")
_BEARER = rx.compile(r"(?i)\b(bearer)\s+([A-Za-z0-9._~+/=-]{8,})")
_URL = rx.compile(r"(?i)\b[a-z][a-z0-9+.-]*://[^\s'\"<>()\[\]{}`]+")
_TRAILING = ".,;:!?"


def secret_name(name: str) -> bool:
    """Whether a flag, variable, header or parameter name says its value is a secret."""
    return bool(_SECRET_NAME.search(name))


def mask_url(url: str) -> str:
    """The URL with its user info and every query value masked (parameter names are kept)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return "<malformed URL>"
    netloc = parts.hostname or ""
    if ":" in netloc:
        netloc = f"[{netloc}]"
    if port:
        netloc = f"{netloc}:{port}"
    if parts.username or parts.password:
        netloc = f"{MASK}@{netloc}"
    query = "&".join(f"{name}={MASK}" for name, _value in
                     parse_qsl(parts.query, keep_blank_values=True))
    if parts.query and not query:
        query = MASK
    return urlunsplit((parts.scheme, netloc, parts.path, query, MASK if parts.fragment else ""))


def url_secrets(url: str) -> list[str]:
    """User name, password and query values of a URL: a token is often in any of them."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return [url]
    values = [parts.username or "", parts.password or "", parts.fragment]
    if parts.username or parts.password:
        # HTTP clients send user info as Basic auth, which a server may echo.
        pair = f"{unquote(parts.username or '')}:{unquote(parts.password or '')}"
        values.append(base64.b64encode(pair.encode()).decode())
    values += [value for _name, value in parse_qsl(parts.query, keep_blank_values=True)]
    return values


def _urls(text: str) -> list[tuple[int, int]]:
    """Where the URLs in ``text`` are, without the punctuation that ends a sentence."""
    spans = []
    for match in _URL.finditer(text):
        end = match.end()
        while end > match.start() and text[end - 1] in _TRAILING:
            end -= 1
        spans.append((match.start(), end))
    return spans


def shaped_secrets(text: str) -> list[str]:
    """Values that look like secrets by where they stand: after ``--token``, in a URL's user
    info, as a ``Bearer`` token."""
    values = [m.group(4) for m in _FLAG_VALUE.finditer(text)]
    values += [m.group(3) for m in _ASSIGNMENT.finditer(text)]
    values += [m.group(3) for m in _COLON_VALUE.finditer(text)]
    values += [m.group(2) for m in _BEARER.finditer(text)]
    for start, end in _urls(text):
        values += url_secrets(text[start:end])
    return values


def _mask_shapes(text: str) -> str:
    for start, end in reversed(_urls(text)):
        text = text[:start] + mask_url(text[start:end]) + text[end:]
    text = _FLAG_VALUE.sub(lambda m: f"{m.group(1)}{m.group(2)}{m.group(3)}{MASK}", text)
    text = _ASSIGNMENT.sub(lambda m: f"{m.group(1)}={m.group(2)}{MASK}", text)
    text = _COLON_VALUE.sub(lambda m: f"{m.group(1)}{m.group(2)}{MASK}{m.group(2)}", text)
    return _BEARER.sub(lambda m: f"{m.group(1)} {MASK}", text)


def _follows_secret_flag(args: Sequence[str], index: int) -> bool:
    previous = args[index - 1] if index else ""
    return previous.startswith("-") and "=" not in previous and secret_name(previous)


def mask_args(args: Sequence[str]) -> list[str]:
    """Arguments with the values of secret-looking flags (``--api-key X``, ``TOKEN=X``,
    ``--token=X``) and URL credentials (a DSN's password) masked."""
    shown: list[str] = []
    for index, arg in enumerate(args):
        name, sep, _value = arg.partition("=")
        if sep and secret_name(name):
            shown.append(f"{name}={MASK}")
        elif _follows_secret_flag(args, index):
            shown.append(MASK)
        else:
            shown.append(_mask_shapes(arg))
    return shown


def arg_secrets(args: Sequence[str]) -> list[str]:
    """The values ``mask_args`` hides, so that a server echoing them is masked too."""
    values: list[str] = []
    for index, arg in enumerate(args):
        name, sep, value = arg.partition("=")
        if sep and secret_name(name):
            values.append(value)
        elif _follows_secret_flag(args, index):
            values.append(arg)
        values += shaped_secrets(arg)
    return values


def header_secrets(headers: Mapping[str, str]) -> list[str]:
    """Header values, and the token alone of ``Bearer <token>``: a server may echo either."""
    values = list(headers.values())
    values += [part for value in headers.values() for part in value.split()[1:]]
    return values


def collect(values: Iterable[str]) -> tuple[str, ...]:
    """The values worth masking, longest first so a secret containing another goes whole."""
    kept = {v for v in values if len(v.strip()) >= MIN_SECRET}
    return tuple(sorted(kept, key=lambda v: (-len(v), v)))


def _replace(text: str, secrets: Sequence[str]) -> str:
    for secret in secrets:
        text = text.replace(secret, MASK)
    return text


def mask(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with every known secret, and everything shaped like one, masked."""
    return _mask_shapes(_replace(text, collect([*secrets, *shaped_secrets(text)])))


def mask_values(data: Any, secrets: Iterable[str]) -> Any:
    """JSON data (what a server sent back) with the known secrets masked in every string.

    Only by value: a server's own text is what is linted, and keeps its shape otherwise.
    """
    found = collect(secrets)
    if not found:
        return data

    def walk(value: Any) -> Any:
        if isinstance(value, str):
            return _replace(value, found)
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {walk(k): walk(v) for k, v in value.items()}
        return value

    return walk(data)
