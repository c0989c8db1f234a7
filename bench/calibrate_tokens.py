#!/usr/bin/env python3
"""Measure (and refit) mcplint's token estimator against exact o200k_base counts.

The shared corpus's ``tokens.json`` holds, for every tool of every server in ``real/``, the exact
o200k_base count of the tool's compact JSON. This script compares ``estimate_tokens`` with them:

    python3 bench/calibrate_tokens.py                  # errors of the estimator and of chars/4
    python3 bench/calibrate_tokens.py --fit            # refit the constants, cross-validate them
    python3 bench/calibrate_tokens.py --corpus PATH    # another corpus of the same layout

``--fit`` searches the estimator's length thresholds on a small grid and fits its rates by least
squares on relative error, then checks that choice by leave-servers-out cross-validation: fit
(thresholds included) on a random half of the servers, measure on the other half, repeat. It
prints a ``_Params(...)`` to paste into ``mcplint/tokens.py``. The three non-ASCII rates are held
fixed: the corpus is nearly all English, so they are set from ``MULTILINGUAL`` below instead.

Needs only the standard library and mcplint itself; the package never imports this file.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mcplint.tokens import (  # noqa: E402
    _PARAMS,
    _estimate,
    _features,
    _Params,
    estimate_tokens,
    tool_text,
)

# Short tool descriptions in other languages and scripts, with their exact o200k_base counts
# (taken with tiktoken 0.14). The corpus has almost no non-ASCII text, so these set the rates the
# corpus cannot: ``latin``, ``alphabetic`` and ``dense``.
MULTILINGUAL: dict[str, tuple[str, int]] = {
    "de": ("Sucht nach Dateien im angegebenen Verzeichnis und gibt eine Liste der gefundenen Pfade"
           " zurück. Größere Verzeichnisse können länger dauern; überprüfen Sie die Berechtigungen,"
           " bevor Sie fortfahren.", 42),
    "fr": ("Recherche les fichiers dans le répertoire indiqué et renvoie la liste des chemins"
           " trouvés. Les répertoires volumineux peuvent prendre plus de temps ; vérifiez les"
           " autorisations avant de continuer.", 41),
    "es": ("Busca archivos en el directorio indicado y devuelve la lista de rutas encontradas. Los"
           " directorios grandes pueden tardar más; verifique los permisos antes de continuar con"
           " la operación.", 36),
    "ru": ("Ищет файлы в указанном каталоге и возвращает список найденных путей. Обработка больших"
           " каталогов может занять больше времени; проверьте права доступа перед продолжением.",
           39),
    "el": ("Αναζητά αρχεία στον καθορισμένο κατάλογο και επιστρέφει τη λίστα των διαδρομών που"
           " βρέθηκαν. Οι μεγάλοι κατάλογοι μπορεί να χρειαστούν περισσότερο χρόνο.", 45),
    "uk": ("Шукає файли у вказаному каталозі та повертає список знайдених шляхів. Великі каталоги"
           " можуть оброблятися довше; перевірте права доступу.", 44),
    "ja": ("指定されたディレクトリ内のファイルを検索し、見つかったパスの一覧を返します。"
           "大きなディレクトリでは時間がかかる場合があります。続行する前に権限を確認してください。",
           53),
    "zh": ("在指定目录中搜索文件，并返回找到的路径列表。大型目录可能需要更长时间；"
           "请在继续之前检查访问权限。", 29),
    "ko": ("지정된 디렉터리에서 파일을 검색하고 찾은 경로 목록을 반환합니다."
           " 큰 디렉터리는 시간이 더 걸릴 수 있습니다. 계속하기 전에 권한을 확인하세요.", 42),
    "ar": ("يبحث عن الملفات في الدليل المحدد ويعيد قائمة بالمسارات التي تم العثور عليها. قد تستغرق"
           " الأدلة الكبيرة وقتًا أطول؛ تحقق من الأذونات قبل المتابعة.", 41),
    "hi": ("निर्दिष्ट निर्देशिका में फ़ाइलें खोजता है और मिले हुए पथों की सूची लौटाता है। बड़ी निर्देशिकाओं में"
           " अधिक समय लग सकता है।", 35),
    "he": ("מחפש קבצים בתיקייה שצוינה ומחזיר רשימה של הנתיבים שנמצאו. תיקיות גדולות עשויות להימשך"
           " זמן רב יותר; בדוק את ההרשאות לפני שתמשיך.", 48),
    "emoji": ("🚀 Deploy the app ✅ then check logs 📋 and metrics 📈 — if errors ⚠️ appear, roll"
              " back 🔙 → retry 🔁.", 32),
    "en": ("Searches for files in the given directory and returns the list of paths found. Large"
           " directories may take longer; check the permissions before continuing.", 28),
}

# The thresholds --fit tries; the rates are solved for each combination.
GRID: dict[str, tuple[int, ...]] = {
    "bare_free": (5, 6, 7),
    "spaced_free": (6, 8, 10),
    "json_free": (2, 3, 4),
    "punct_free": (1, 2, 3),
}
# The rates fitted by least squares, in the order _features returns their sums; the non-ASCII
# rates after them stay as they are (see MULTILINGUAL).
LINEAR_RATES = (
    "chunk", "bare_rate", "spaced_rate", "cheap_prefix", "other_prefix", "acronym", "json_rate",
    "punct_rate",
)
FIXED_RATES = ("latin", "alphabetic", "dense")


@dataclass(frozen=True)
class Tool:
    server: str
    name: str
    text: str  # compact JSON
    exact: int  # o200k_base tokens of text
    description: str
    description_exact: int


def load_corpus(corpus: Path) -> list[Tool]:
    counts = json.loads((corpus / "tokens.json").read_text(encoding="utf-8"))
    tools: list[Tool] = []
    for path in sorted((corpus / "real").glob("*.json")):
        server = path.stem
        for tool in json.loads(path.read_text(encoding="utf-8")).get("tools", []):
            entry = counts.get(server, {}).get(tool.get("name"))
            if entry is None:
                print(f"warning: no count for {server}/{tool.get('name')}", file=sys.stderr)
                continue
            text = tool_text(tool)
            if len(text) != entry["chars"]:
                print(f"warning: {server}/{tool['name']} serialises to {len(text)} chars,"
                      f" tokens.json says {entry['chars']}", file=sys.stderr)
            tools.append(Tool(server, tool["name"], text, entry["o200k"],
                              tool.get("description") or "", entry["desc_o200k"]))
    return tools


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile, as the tests compute it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def relative_errors(estimates: Sequence[float], exact: Sequence[int]) -> list[float]:
    return [abs(e - x) / x for e, x in zip(estimates, exact, strict=True)]


def summary(errors: Sequence[float]) -> str:
    return (f"p50 {percentile(errors, 0.5):6.2%}  p90 {percentile(errors, 0.9):6.2%}"
            f"  max {max(errors):6.2%}")


def report(name: str, estimates: Sequence[float], exact: Sequence[int]) -> None:
    total = sum(estimates) / sum(exact) - 1
    print(f"  {name:<24} per tool: {summary(relative_errors(estimates, exact))}"
          f"   total {total:+.2%}")


def rounded(value: float) -> int:
    return max(1, round(value))


def dot(rates: Sequence[float], values: Sequence[float]) -> float:
    return sum(r * v for r, v in zip(rates, values, strict=True))


# --- fitting -----------------------------------------------------------------------------------


def solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """Gauss-Jordan elimination with partial pivoting (the systems here are 8 x 8)."""
    n = len(rhs)
    a = [[*row, b] for row, b in zip(matrix, rhs, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        if abs(a[col][col]) < 1e-12:
            continue  # a feature absent from this sample: its rate stays 0
        for r in range(n):
            if r != col:
                factor = a[r][col] / a[col][col]
                for c in range(col, n + 1):
                    a[r][c] -= factor * a[col][c]
    return [a[i][n] / a[i][i] if abs(a[i][i]) >= 1e-12 else 0.0 for i in range(n)]


@dataclass(frozen=True)
class Design:
    """Every tool's features under one choice of thresholds."""

    thresholds: dict[str, int]
    offsets: list[float]  # keyword tokens plus what the fixed non-ASCII rates add
    rows: list[list[float]]  # the sums that LINEAR_RATES multiply

    def predict(self, rates: Sequence[float], index: Iterable[int]) -> list[int]:
        return [rounded(self.offsets[i] + dot(rates, self.rows[i])) for i in index]


def design(tools: Sequence[Tool], thresholds: dict[str, int]) -> Design:
    params = _PARAMS._replace(**thresholds)
    fixed = [getattr(params, name) for name in FIXED_RATES]
    n = len(LINEAR_RATES)
    offsets, rows = [], []
    for tool in tools:
        keyword_tokens, sums = _features(tool.text, params)
        offsets.append(keyword_tokens + dot(fixed, sums[n:]))
        rows.append([float(v) for v in sums[:n]])
    return Design(thresholds, offsets, rows)


def fit_rates(d: Design, exact: Sequence[int], index: Sequence[int]) -> list[float]:
    """Least squares on relative error: each tool weighs 1/exact, so big tools do not dominate."""
    k = len(LINEAR_RATES)
    ata = [[0.0] * k for _ in range(k)]
    atb = [0.0] * k
    for i in index:
        w2 = 1.0 / exact[i] ** 2
        row, target = d.rows[i], exact[i] - d.offsets[i]
        for p in range(k):
            atb[p] += w2 * row[p] * target
            for q in range(k):
                ata[p][q] += w2 * row[p] * row[q]
    return solve(ata, atb)


def best_fit(designs: Sequence[Design], exact: Sequence[int],
             index: Sequence[int]) -> tuple[Design, list[float]]:
    """The thresholds, and their rates, with the lowest p90 error on the tools in ``index``."""
    subset = [exact[i] for i in index]
    scored = []
    for d in designs:
        rates = fit_rates(d, exact, index)
        p90 = percentile(relative_errors(d.predict(rates, index), subset), 0.9)
        scored.append((p90, d, rates))
    _, d, rates = min(scored, key=lambda s: s[0])
    return d, rates


def fit(tools: Sequence[Tool], splits: int, seed: int) -> None:
    names = list(GRID)
    combos = [dict(zip(names, values, strict=True)) for values in itertools.product(*GRID.values())]
    print(f"\n--fit: features for {len(combos)} threshold combinations ...")
    designs = [design(tools, combo) for combo in combos]
    exact = [t.exact for t in tools]

    d, rates = best_fit(designs, exact, range(len(tools)))
    values: dict[str, Any] = {**_PARAMS._asdict(), **d.thresholds}
    values.update((n, round(r, 3)) for n, r in zip(LINEAR_RATES, rates, strict=True))
    fitted = _Params(**values)
    print("\nfitted on all servers (paste into mcplint/tokens.py):")
    print("_PARAMS: Final = _Params(")
    for name, value in fitted._asdict().items():
        print(f"    {name}={value!r},")
    print(")")
    report("in-sample (refit)", [rounded(_estimate(t.text, fitted)) for t in tools], exact)

    servers = sorted({t.server for t in tools})
    rng = random.Random(seed)
    held_out_errors: list[float] = []
    split_p90s: list[float] = []
    chosen: dict[str, int] = {}
    for _ in range(splits):
        held_out = set(rng.sample(servers, len(servers) // 2))
        train = [i for i, t in enumerate(tools) if t.server not in held_out]
        test = [i for i, t in enumerate(tools) if t.server in held_out]
        d, rates = best_fit(designs, exact, train)
        key = ",".join(str(v) for v in d.thresholds.values())
        chosen[key] = chosen.get(key, 0) + 1
        errors = relative_errors(d.predict(rates, test), [exact[i] for i in test])
        held_out_errors.extend(errors)
        split_p90s.append(percentile(errors, 0.9))
    print(f"\nleave-servers-out cross-validation: {splits} random halves of the {len(servers)}"
          " servers,\nthresholds and rates fitted on one half, errors measured on the other:")
    print(f"  held-out tools, pooled   per tool: {summary(held_out_errors)}")
    print(f"  p90 of each split        min {min(split_p90s):.2%}  median"
          f" {statistics.median(split_p90s):.2%}  max {max(split_p90s):.2%}")
    print(f"  thresholds chosen ({', '.join(names)}): "
          + ", ".join(f"{k} x{n}" for k, n in sorted(chosen.items(), key=lambda kv: -kv[1])))


# --- report ------------------------------------------------------------------------------------


def throughput(texts: Sequence[str]) -> float:
    """MB of UTF-8 estimated per second, best of three passes."""
    size = sum(len(t.encode()) for t in texts)
    best = math.inf
    for _ in range(3):
        start = time.perf_counter()
        for text in texts:
            estimate_tokens(text)
        best = min(best, time.perf_counter() - start)
    return size / best / 1e6


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus",
                        help="folder with tokens.json and real/ (default: %(default)s)")
    parser.add_argument("--fit", action="store_true",
                        help="refit the constants and cross-validate them")
    parser.add_argument("--splits", type=int, default=100,
                        help="cross-validation splits for --fit (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the splits")
    parser.add_argument("--show", type=int, default=8,
                        help="servers and tools to list by error (default: %(default)s)")
    args = parser.parse_args(argv)

    if not (args.corpus / "tokens.json").is_file():
        parser.error(f"no tokens.json in {args.corpus}")
    tools = load_corpus(args.corpus)
    exact = [t.exact for t in tools]
    print(f"{len(tools)} tools of {len({t.server for t in tools})} servers,"
          f" {sum(exact):,} o200k_base tokens; error = |estimate - exact| / exact")
    estimates = [estimate_tokens(t.text) for t in tools]
    report("estimate_tokens", estimates, exact)
    report("chars/4", [rounded(len(t.text) / 4) for t in tools], exact)
    # Descriptions alone are prose, not JSON: a check on text unlike what the fit saw most.
    described = [t for t in tools if t.description_exact >= 20]
    print(f"descriptions alone ({len(described)} of >= 20 tokens):")
    report("estimate_tokens", [estimate_tokens(t.description) for t in described],
           [t.description_exact for t in described])
    report("chars/4", [rounded(len(t.description) / 4) for t in described],
           [t.description_exact for t in described])

    by_server: dict[str, list[float]] = {}
    for est, tool in zip(estimates, tools, strict=True):
        by_server.setdefault(tool.server, []).append((est - tool.exact) / tool.exact)
    print("\nservers with the largest mean error (tools, mean, worst; signed):")
    worst = sorted(by_server.items(), key=lambda kv: -abs(statistics.fmean(kv[1])))
    for server, errors in worst[: args.show]:
        print(f"  {server:<30} {len(errors):4d}  {statistics.fmean(errors):+6.2%}"
              f"  {max(errors, key=abs):+6.2%}")
    print("\ntools with the largest error:")
    ranked = sorted(zip(estimates, tools, strict=True),
                    key=lambda pair: -abs(pair[0] - pair[1].exact) / pair[1].exact)
    for est, tool in ranked[: args.show]:
        print(f"  {tool.server + '/' + tool.name:<50} exact {tool.exact:5d}  estimate {est:5d}"
              f"  {(est - tool.exact) / tool.exact:+6.2%}")

    print("\nmultilingual check (plain text; sets the non-ASCII rates):")
    for lang, (text, count) in MULTILINGUAL.items():
        est = estimate_tokens(text)
        print(f"  {lang:<6} exact {count:3d}  estimate {est:3d} {(est - count) / count:+6.1%}"
              f"   chars/4 {rounded(len(text) / 4):3d} {(len(text) / 4 - count) / count:+6.1%}")

    print(f"\nthroughput: {throughput([t.text for t in tools]):.1f} MB/s of tool JSON")

    if args.fit:
        fit(tools, args.splits, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
