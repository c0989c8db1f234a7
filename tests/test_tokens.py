"""Token counts: the estimator's accuracy on real tools, and exact mode that never downloads."""

from __future__ import annotations

import contextlib
import json
import math
import random
import socket
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from mcplint import tokens
from mcplint.tokens import (
    _ALPHABETIC,
    _CHEAP_PREFIXES,
    _CHUNK,
    _JSON_PUNCT,
    _KEYWORD_TOKENS,
    _LATIN,
    _NON_ASCII,
    _PARAMS,
    TokenCounter,
    _fold,
    _Params,
    estimate_tokens,
    get_counter,
    tool_text,
)

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"

needs_corpus = pytest.mark.skipif(not (CORPUS / "real").is_dir(),
                                  reason=f"the shared corpus is not at {CORPUS}")

# The name tiktoken (0.14, and every version with o200k_base) gives the cached vocabulary:
# sha1 of https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken.
O200K_CACHE_NAME = "fb374d419588a4632f3f557e76b4b70aebbca790"

# Exact o200k_base counts below were taken with tiktoken 0.14 and the real vocabulary.
SEARCH_TOOL = {
    "name": "search_issues",
    "description": "Search issues in a GitHub repository by text, label or state. Returns at"
                   " most 100 issues, newest first.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "repo": {"type": "string",
                     "description": 'Repository as owner/name, e.g. "octocat/hello-world".'},
            "query": {"type": "string", "description": "Words to match in the title or body."},
            "state": {"type": "string", "enum": ["open", "closed", "all"], "default": "open"},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 30},
        },
        "required": ["repo", "query"],
        "additionalProperties": False,
    },
    "annotations": {"readOnlyHint": True, "openWorldHint": True},
}
SEARCH_TOOL_O200K = 150

MULTILINGUAL = {
    "en": ("Searches for files in the given directory and returns the list of paths found. Large"
           " directories may take longer; check the permissions before continuing.", 28),
    "de": ("Sucht nach Dateien im angegebenen Verzeichnis und gibt eine Liste der gefundenen Pfade"
           " zurück. Größere Verzeichnisse können länger dauern; überprüfen Sie die Berechtigungen,"
           " bevor Sie fortfahren.", 42),
    "ru": ("Ищет файлы в указанном каталоге и возвращает список найденных путей. Обработка больших"
           " каталогов может занять больше времени; проверьте права доступа перед продолжением.",
           39),
    "ja": ("指定されたディレクトリ内のファイルを検索し、見つかったパスの一覧を返します。"
           "大きなディレクトリでは時間がかかる場合があります。続行する前に権限を確認してください。",
           53),
    "zh": ("在指定目录中搜索文件，并返回找到的路径列表。大型目录可能需要更长时间；"
           "请在继续之前检查访问权限。", 29),
    "emoji": ("🚀 Deploy the app ✅ then check logs 📋 and metrics 📈 — if errors ⚠️ appear, roll"
              " back 🔙 → retry 🔁.", 32),
}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


# --- tool_text -----------------------------------------------------------------------------------


def test_tool_text_is_compact_json_keeping_non_ascii() -> None:
    assert tool_text({"name": "café", "xs": [1, 2], "o": {"a": None}}) == (
        '{"name":"café","xs":[1,2],"o":{"a":null}}')


# --- the estimator on the shared corpus ----------------------------------------------------------


@pytest.fixture(scope="module")
def corpus() -> list[tuple[str, str, int]]:
    """(server/tool, compact JSON, exact o200k_base count) for every tool in the corpus."""
    if not (CORPUS / "tokens.json").is_file():
        pytest.skip(f"the shared corpus is not here ({CORPUS}); it sits beside the repository in"
                    " the development workplace, not in a user's clone")
    counts = json.loads((CORPUS / "tokens.json").read_text(encoding="utf-8"))
    rows = []
    for path in sorted((CORPUS / "real").glob("*.json")):
        for tool in json.loads(path.read_text(encoding="utf-8"))["tools"]:
            entry = counts[path.stem][tool["name"]]
            text = tool_text(tool)
            assert len(text) == entry["chars"], "tool_text must serialise as tokens.json measured"
            rows.append((f"{path.stem}/{tool['name']}", text, entry["o200k"]))
    assert len(rows) > 1000
    return rows


def test_estimator_p90_error_per_tool_is_within_5_percent(
        corpus: list[tuple[str, str, int]]) -> None:
    errors = [abs(estimate_tokens(text) - exact) / exact for _, text, exact in corpus]
    assert percentile(errors, 0.9) <= 0.05
    assert percentile(errors, 0.5) <= 0.025


def test_estimator_total_is_unbiased_and_beats_chars_over_4(
        corpus: list[tuple[str, str, int]]) -> None:
    estimated = sum(estimate_tokens(text) for _, text, _ in corpus)
    exact = sum(count for _, _, count in corpus)
    assert abs(estimated / exact - 1) <= 0.02
    baseline = [abs(len(text) / 4 - count) / count for _, text, count in corpus]
    errors = [abs(estimate_tokens(text) - count) / count for _, text, count in corpus]
    assert percentile(errors, 0.9) < percentile(baseline, 0.9) / 3


# --- the estimator on small cases ----------------------------------------------------------------


def test_empty_text_has_no_tokens() -> None:
    assert estimate_tokens("") == 0


@pytest.mark.parametrize(("text", "exact"), [
    ("a", 1), (" ", 1), ("hello", 1), ("hello world", 2), ("Get the weather for a city.", 7),
])
def test_short_texts(text: str, exact: int) -> None:
    assert estimate_tokens(text) == exact


def test_a_tool_definition_is_estimated_within_5_percent() -> None:
    estimate = estimate_tokens(tool_text(SEARCH_TOOL))
    assert abs(estimate - SEARCH_TOOL_O200K) <= 0.05 * SEARCH_TOOL_O200K


def test_estimate_grows_with_the_text() -> None:
    text = tool_text(SEARCH_TOOL)
    previous = 0
    for end in range(0, len(text) + 1, 7):
        estimate = estimate_tokens(text[:end])
        # A cut through a word can merge differently, but never costs more than a token or two.
        assert estimate >= previous - 2
        previous = max(previous, estimate)
    once = estimate_tokens(text)
    assert 9.5 * once <= estimate_tokens(text * 10) <= 10.5 * once


@pytest.mark.parametrize("lang", ["ru", "ja", "zh", "emoji"])
def test_non_ascii_text_costs_more_tokens_per_character(lang: str) -> None:
    english, _ = MULTILINGUAL["en"]
    text, _ = MULTILINGUAL[lang]
    assert estimate_tokens(text) / len(text) > estimate_tokens(english) / len(english)


@pytest.mark.parametrize("lang", list(MULTILINGUAL))
def test_other_languages_are_estimated_within_25_percent(lang: str) -> None:
    text, exact = MULTILINGUAL[lang]
    assert abs(estimate_tokens(text) - exact) <= 0.25 * exact


@pytest.mark.parametrize("text", [
    "A" * 200_000, " " * 200_000, "\\" * 200_000, "a" * 200_000, "é" * 200_000, "字" * 200_000,
    " \n" * 100_000, ("x" + "\u0301") * 100_000, "<|endoftext|>", "\ud800 lone surrogate",
])
def test_odd_text_is_estimated_in_linear_time(text: str) -> None:
    start = time.perf_counter()
    estimate = estimate_tokens(text)
    assert time.perf_counter() - start < 5  # a backtracking blow-up would take minutes
    assert estimate >= 1


# --- the memoised pieces give the per-chunk loop's sums exactly ---------------------------------

# _features as it was before texts were cut into memoised pieces, copied verbatim: the estimate
# must not move by a token for any text, and only a frozen copy of the loop over whole texts can
# tell whether a cut ever falls where _CHUNK would have chunked differently. It shares _CHUNK and
# the constants with the module, so a change to those is still tested, not pinned.
def reference_features(text: str, params: _Params) -> tuple[int, tuple[int, ...]]:
    """Keyword tokens and the feature sums, one per rate of ``_Params`` in field order."""
    latin = alphabetic = dense = 0
    if not text.isascii():
        latin = len(_LATIN.findall(text))
        alphabetic = len(_ALPHABETIC.findall(text))
        # U+1100 (Hangul Jamo) on: CJK, Hangul, symbols and emoji, all dense in o200k.
        dense = sum(map(len, _NON_ASCII.findall(text))) - latin - alphabetic
        text = _NON_ASCII.sub(_fold, text)
    bare_free, spaced_free = params.bare_free, params.spaced_free
    json_free, punct_free = params.json_free, params.punct_free
    keyword_tokens = chunks = bare = spaced = cheap = other = acronyms = json_extra = punct = 0
    keywords = _KEYWORD_TOKENS
    for prefix, word, run in _CHUNK.findall(text):
        if word:
            if not prefix:
                known = keywords.get(word)
                if known is not None:
                    keyword_tokens += known
                    continue
            length = len(word)
            if prefix == " ":
                if length > spaced_free:
                    spaced += length - spaced_free
            else:
                if length > bare_free:
                    bare += length - bare_free
                if prefix:
                    if prefix in _CHEAP_PREFIXES:
                        cheap += 1
                    else:
                        other += 1
            if length > 2 and word.isupper():
                acronyms += 1
        elif run:
            if run[0] == " ":
                run = run[1:]
            if "\\" in run:
                # JSON inside a JSON string: o200k has tokens for the escaped punctuation too.
                run = run.replace('\\"', '"')
            length = len(run)
            if _JSON_PUNCT.issuperset(run):
                if length > json_free:
                    json_extra += length - json_free
            elif length > punct_free:
                punct += length - punct_free
        chunks += 1
    return keyword_tokens, (
        chunks, bare, spaced, cheap, other, acronyms, json_extra, punct, latin, alphabetic, dense
    )


# Thresholds from the corners of bench/calibrate_tokens.py's grid: the pieces are memoised per set.
OTHER_PARAMS = [
    _PARAMS._replace(bare_free=7, spaced_free=6, json_free=2, punct_free=1),
    _PARAMS._replace(bare_free=6, spaced_free=10, json_free=4, punct_free=2),
]

# Fragments that sit on or near a cut: contractions (one may follow another), apostrophes,
# camelCase and acronyms, JSON escapes, and spaces before and after every kind of character.
FRAGMENTS = [
    *"aZqXbyAB09 _-.\\/\"'{}[]:,;!?#$%&*+=<>|~`@^()\t\n\r\x0b\x0c\x1c\x85",
    "'s", "'S", "'t", "'ll", "'LL", "'l", "'ve", "'Re", "'d", "'m", "'x", "''",
    "it's", "don't", "x's's's", "fooBar", "HTTPServer", "getURL", "ABC", "IDs", "name", "Schema",
    "description", "idempotent", "readOnlyHint", "\\\"", "\\n", "\\u00e9", "\\\\", '\\":\\"',
    '":"', '","', '":{"', "  ", " \n ", "\r\n", "123", "12345", "//", "/\n",
    "é", "ß", "Ωμέγα", "Жук", "字", "한국어", "😀", "👍🏽", "⚠️", "e\u0301", "\u0301", "\ufe0f",
    "\u00a0", "\u2028", "\u3000", "١٢", "Ⅻ", "ǅ", "\ud800",
]


def random_texts(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choice(FRAGMENTS) for _ in range(rng.randint(0, 60)))
            for _ in range(count)]


def texts_of(value: object) -> Iterator[str]:
    """A JSON document's tool-like objects as tool_text, and every string in it."""
    if isinstance(value, dict):
        if "name" in value:
            yield tool_text(value)
        for item in value.values():
            yield from texts_of(item)
    elif isinstance(value, list):
        for item in value:
            yield from texts_of(item)
    elif isinstance(value, str):
        yield value


def assert_same_sums(texts: list[str], params: _Params = _PARAMS) -> None:
    mismatched = [text for text in texts
                  if tokens._features(text, params) != reference_features(text, params)]
    assert mismatched == [], f"{len(mismatched)} of {len(texts)} differ: {mismatched[0]!r:.200}"


def test_random_texts_have_the_reference_sums() -> None:
    texts = random_texts(4000, seed=20260)
    assert_same_sums(texts)
    for params in OTHER_PARAMS:
        assert_same_sums(texts[:1000], params)


def test_the_fixtures_have_the_reference_sums() -> None:
    texts = []
    for path in sorted((ROOT / "fixtures").rglob("*")):
        if not path.is_file():
            continue
        raw = path.read_text(encoding="utf-8", errors="surrogateescape")
        texts.append(raw)
        with contextlib.suppress(ValueError):  # not JSON, or broken on purpose: raw text will do
            texts.extend(texts_of(json.loads(raw)))
    assert len(texts) > 1000
    assert_same_sums(texts)
    assert_same_sums(texts[::10], OTHER_PARAMS[0])


@needs_corpus
def test_the_corpus_tools_and_descriptions_have_the_reference_sums() -> None:
    texts = []
    for path in sorted((CORPUS / "real").glob("*.json")):
        for tool in json.loads(path.read_text(encoding="utf-8"))["tools"]:
            texts.append(tool_text(tool))
            if isinstance(tool.get("description"), str):
                texts.append(tool["description"])
    assert len(texts) > 2000
    assert_same_sums(texts)
    assert_same_sums(texts[::5], OTHER_PARAMS[1])


@needs_corpus
def test_a_generated_manifest_has_the_reference_sums(tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(ROOT / "bench" / "generate.py"), str(tmp_path),
                    "--sizes", "500"], check=True, capture_output=True)
    manifest = json.loads((tmp_path / "tools-500.json").read_text(encoding="utf-8"))
    texts = [tool_text(tool) for tool in manifest["tools"]]
    assert len(texts) == 500
    assert_same_sums(texts)


def test_the_sums_do_not_depend_on_what_the_memo_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = random_texts(300, seed=7)
    monkeypatch.setattr(tokens, "_MAX_PIECES", 16)  # cleared many times over
    monkeypatch.setattr(tokens, "_piece_sums", tokens._PieceSums(_PARAMS))
    assert_same_sums(texts)
    assert len(tokens._piece_sums) <= 16
    # Changing thresholds mid-run starts a fresh memo, and changing them back again.
    assert_same_sums(texts[:50], OTHER_PARAMS[0])
    assert_same_sums(texts[:50])
    assert_same_sums([text * 3 for text in texts[:50]], _PARAMS._replace(chunk=2.0))


# --- get_counter: exact only when it needs no network ---------------------------------------------


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """No network, an empty tiktoken cache, and a fresh get_counter; yields the cache folder."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("get_counter tried the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    get_counter.cache_clear()
    yield tmp_path
    get_counter.cache_clear()


class FakeEncoding:
    def encode_ordinary(self, text: str) -> list[int]:
        return list(range(len(text.split())))


def fake_tiktoken(monkeypatch: pytest.MonkeyPatch, fail: bool = False) -> list[str]:
    """Put a stand-in tiktoken in sys.modules; returns the names get_encoding is called with."""
    calls: list[str] = []

    def get_encoding(name: str) -> FakeEncoding:
        calls.append(name)
        if fail:
            raise ValueError("no such encoding")
        return FakeEncoding()

    module = types.ModuleType("tiktoken")
    module.get_encoding = get_encoding  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "tiktoken", module)
    return calls


def assert_estimator(counter: TokenCounter) -> None:
    assert not counter.exact
    assert counter.method.startswith("estimate (calibrated on o200k_base")
    text = tool_text(SEARCH_TOOL)
    assert counter.count(text) == estimate_tokens(text)


def test_without_tiktoken_the_estimator_is_used(
        offline: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tokens, "_vocabulary_cached", lambda: True)
    monkeypatch.setitem(sys.modules, "tiktoken", None)  # import tiktoken now raises ImportError
    assert_estimator(get_counter())


def test_without_the_cached_vocabulary_tiktoken_is_not_asked(
        offline: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_tiktoken(monkeypatch)
    assert_estimator(get_counter())
    assert calls == []  # get_encoding would have downloaded the vocabulary


def test_a_corrupt_cached_vocabulary_is_not_used_or_replaced(
        offline: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_tiktoken(monkeypatch)
    cached = offline / O200K_CACHE_NAME
    cached.write_bytes(b"not the vocabulary")  # tiktoken would delete this and download again
    assert_estimator(get_counter())
    assert calls == []
    assert cached.read_bytes() == b"not the vocabulary"


def test_with_the_cached_vocabulary_counts_are_exact(
        offline: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_tiktoken(monkeypatch)
    monkeypatch.setattr(tokens, "_vocabulary_cached", lambda: True)
    counter = get_counter()
    assert counter.exact and counter.method == "o200k_base (tiktoken, exact)"
    assert calls == ["o200k_base"]
    assert counter.count("three plain words") == 3
    assert get_counter() is counter  # cached: tiktoken loads once per process


def test_a_failing_tiktoken_falls_back_to_the_estimator(
        offline: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = fake_tiktoken(monkeypatch, fail=True)
    monkeypatch.setattr(tokens, "_vocabulary_cached", lambda: True)
    assert_estimator(get_counter())
    assert calls == ["o200k_base"]


def test_the_cache_file_is_where_tiktoken_looks(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "tiktoken"))
    monkeypatch.setenv("DATA_GYM_CACHE_DIR", str(tmp_path / "gym"))
    assert tokens._tiktoken_cache_file() == str(tmp_path / "tiktoken" / O200K_CACHE_NAME)
    monkeypatch.delenv("TIKTOKEN_CACHE_DIR")
    assert tokens._tiktoken_cache_file() == str(tmp_path / "gym" / O200K_CACHE_NAME)
    monkeypatch.delenv("DATA_GYM_CACHE_DIR")
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path))
    assert tokens._tiktoken_cache_file() == str(tmp_path / "data-gym-cache" / O200K_CACHE_NAME)
    # An empty cache directory makes tiktoken download on every call: never usable offline.
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")
    assert tokens._tiktoken_cache_file() is None


def test_importing_the_module_does_not_import_tiktoken() -> None:
    code = "import sys, mcplint.tokens; print('tiktoken' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, check=True)
    assert result.stdout.strip() == "False"


def test_real_tiktoken_agrees_with_the_corpus(corpus: list[tuple[str, str, int]]) -> None:
    pytest.importorskip("tiktoken")
    get_counter.cache_clear()
    try:
        counter = get_counter()
        if not counter.exact:
            pytest.skip("tiktoken is installed but its o200k_base vocabulary is not cached")
        mismatched = [name for name, text, exact in corpus if counter.count(text) != exact]
        assert mismatched == []
    finally:
        get_counter.cache_clear()
