"""`poker-audit bench --corpus`: the real site logs of a corpus (by default the shared one,
../shared/data/fpdb-dev beside the checkout), read and audited site by site.

A corpus is a folder of site folders (`<site>/<cash|tour>/<family>/<file>`; files directly
under the corpus, such as its README, are not hand histories). For each site this measures:

- files, and hands counted at each site's hand header (`count_hands`), independently of the
  importers, so an importer that loses hands silently cannot hide it;
- hands imported (stored) and their share of the header count, hands quarantined with their
  reasons (digits read as N, grouped), files no importer recognises, and files skipped
  because identical bytes were already ingested;
- findings by severity of an audit under a rule profile (default auto: each room's house
  rules), and the money-check notes (`DQ-SITE-TOTALS`: the room's stated totals disagree
  with the hand);
- import speed: hands stored per CPU-second of `ingest` over the site's files (format
  sniffing, decoding, parsing, validation and the Parquet writes of the store; not the audit),
  and hands per CPU-second of the site's importers alone (`read_speed`: its files read again
  and again to a measurable size; on small folders the store's per-file commit dominates the
  first figure).

Each site is ingested into its own temporary store, removed afterwards. The corpus test
(tests/corpus/test_site_corpus.py) runs the same code, and checks the warning-or-worse findings
against the reviewed per-site allowlist (`load_allowlist`).
"""

from __future__ import annotations

import codecs
import json
import re
import tempfile
import time
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from audit.errors import AuditInputError
from audit.importers import IMPORTERS
from audit.ingest.pipeline import IngestSummary, ingest
from audit.rules.ids import DQ_SITE_TOTALS
from audit.rules.profiles import AUTO_PROFILE
from audit.rules.registry import Severity
from audit.run.runner import audit_store, read_findings
from audit.store.dataset import Store

DEFAULT_CORPUS = Path(__file__).resolve().parents[3] / "shared" / "data" / "fpdb-dev"

# The four sites of issue 21 (Real site logs read right), by corpus folder.
ISSUE_21_SITES = ("stars", "ftp", "partypoker", "ipoker")

# The money check of the room's stated totals (pot, rake, collected) against the hand; the
# rule is being added to the replay, and counts 0 until it lands.
SITE_TOTALS_RULE = DQ_SITE_TOTALS

SEVERITIES = tuple(s.value for s in Severity)  # info, warning, violation, critical
_WARNING = Severity.WARNING.level

# A room name as the PokerStars-style headers write it ("PokerStars", "PokerStars Home Game",
# "Run It Once Poker", "PokerMaster", a converter's "Full Tilt"): words, no colon.
_ROOM = r"[A-Za-z][\w'.]*(?: [\w'.]+)*"
# Hand headers by site folder, as in the corpus README. A text header starts a line; the XML
# formats open a <game> element wherever it stands.
HEADERS: dict[str, str] = {
    "stars": rf"^[ \t]*{_ROOM} (?:Hand|Game) #\d+:",
    "ftp": r"^[ \t]*Full ?Tilt ?Poker Game #\d+",
    "partypoker": r"^[ \t]*\*{5} Hand History [Ff]or Game ",
    "ipoker": r"<game gamecode=",
    "ggpoker": r"^[ \t]*Poker Hand #",
    "winamax": r"^[ \t]*Winamax Poker - ",
    "pacific": r"^[ \t]*#Game No : ",
    "winning": r"^[ \t]*(?:Game started at:|(?:Game )?Hand #\d+ - )",
    "bovada": rf"^[ \t]*{_ROOM} Hand #\d+",
    "merge": r"<game id=",
}
# A folder of another name is counted at any of them (each header once).
ANY_HEADER = "|".join(f"(?:{p})" for p in HEADERS.values())
# What a whole hand of a site holds after its header, by site folder: its summary's heading or
# the element's end. A file's last hand without it is cut short by the file's end (the hand
# began and the file stops): not a hand the site wrote whole, so no reader can import it, and
# it is counted apart as FPDB counts its "partial" hands (and must be quarantined, not lost).
# Sites without an entry never count a hand cut short.
ENDS: dict[str, str] = {
    "stars": r"^\*\*\* SUMMARY \*\*\*", "ftp": r"^\*\*\* SUMMARY \*\*\*",
    "ggpoker": r"^\*\*\* SUMMARY \*\*\*", "winamax": r"^\*\*\* SUMMARY \*\*\*",
    "bovada": r"^\*\*\* SUMMARY \*\*\*", "pacific": r"^\*\* Summary \*\*",
    "winning": r"^(?:------ Summary ------|\*\*\* SUMMARY \*\*\*)",  # older, newer format
    "ipoker": r"</game>", "merge": r"</game>",
}

_NOT_HANDS = ("README", "LICENSE")


class CorpusError(AuditInputError):
    """The corpus or an allowlist is missing or malformed."""


# --- reading files as text, whatever the site wrote ---------------------------------------

def decode(data: bytes) -> str:
    """Site log bytes as text: a BOM decides (UTF-8, UTF-16 LE/BE); without one, text that is
    mostly NUL bytes is UTF-16 (the NULs tell the byte order), else UTF-8, else cp1252. A stray
    last byte of UTF-16 and undecodable bytes become U+FFFD; NUL characters are dropped."""
    encoding = "utf-8"
    for bom, name in ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
                      (codecs.BOM_UTF16_BE, "utf-16-be")):
        if data.startswith(bom):
            data, encoding = data[len(bom):], name
            break
    else:
        if data.count(0) > len(data) // 4:
            odd_nuls = data[1::2].count(0)
            encoding = "utf-16-le" if odd_nuls >= data[0::2].count(0) else "utf-16-be"
    if encoding.startswith("utf-16"):
        text = data[: len(data) - len(data) % 2].decode(encoding, errors="replace")
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("cp1252", errors="replace")
    return text.replace("\x00", "")


def header_pattern(site: str) -> re.Pattern[str]:
    return re.compile(HEADERS.get(site, ANY_HEADER), re.MULTILINE)


def count_hands(path: Path, site: str) -> int:
    """Hands in one file, counted at the site's hand header (not by an importer)."""
    return len(header_pattern(site).findall(decode(path.read_bytes())))


def cut_short_from(path: Path, site: str) -> int | None:
    """The line on which a file's last hand starts when the file ends inside that hand
    (`ENDS`: what a whole hand holds is not after its header), else None."""
    if site not in ENDS:
        return None
    text = decode(path.read_bytes())
    last = max(header_pattern(site).finditer(text), key=lambda m: m.start(), default=None)
    if last is None or re.search(ENDS[site], text[last.end():], re.MULTILINE):
        return None
    return text.count("\n", 0, last.start()) + 1


def site_files(site_dir: Path) -> list[Path]:
    """The files of a site folder, sorted; hidden ones and READMEs/LICENSEs left out."""
    return sorted(
        p for p in site_dir.rglob("*")
        if p.is_file() and not any(part.startswith(".")
                                   for part in p.relative_to(site_dir).parts)
        and not p.name.upper().startswith(_NOT_HANDS)
    )


def corpus_sites(corpus: Path) -> list[str]:
    """The site folders of a corpus (its top-level folders, hidden ones left out)."""
    if not corpus.is_dir():
        raise CorpusError(f"{corpus}: no corpus there (a folder of site folders, e.g. the "
                          "shared ../shared/data/fpdb-dev); pass its path as DIR")
    sites = sorted(p.name for p in corpus.iterdir() if p.is_dir() and not p.name.startswith("."))
    if not sites:
        raise CorpusError(f"{corpus}: no site folder in it (layout <site>/<cash|tour>/...)")
    return sites


# A quoted echo of a source line: double quotes, or single quotes that open after a space, a
# colon or a parenthesis (an apostrophe inside a word, as in Hold'em, opens nothing).
_ECHOES = (re.compile(r'"[^"]{60,}"'), re.compile(r"(?<=[\s(:])'[^']{60,}'(?=[\s),.:;]|$)"))


def normalise_reason(reason: str, source: str = "") -> str:
    """A quarantine reason as a group: the file path out, every run of digits read as N, and
    a long quoted echo of the source line (60 characters or more) cut to "...", so that the
    hands of one cause fall in one group whatever their lines hold."""
    if source:
        reason = reason.replace(source, "<file>")
    reason = re.sub(r"\d+", "N", reason)
    for echo in _ECHOES:
        reason = echo.sub('"..."', reason)
    return reason.strip()


# --- one site ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Finding:
    file: str  # path under the corpus
    hand: str
    rule_id: str
    severity: str
    message: str


@dataclass(slots=True, kw_only=True)
class SiteResult:
    site: str
    files: int = 0
    hands: int = 0  # counted at the hand headers
    repeated: int = 0  # of those, hands in files byte-identical to one already read
    imported: int = 0  # stored
    quarantined: int = 0
    cut_short: int = 0  # of the quarantined, hands the file ends inside of (`cut_short_from`)
    cut_short_files: int = 0  # files read that end inside a hand: each such hand quarantined?
    reasons: Counter[str] = field(default_factory=Counter)
    examples: dict[str, str] = field(default_factory=dict)  # reason group -> file:line reason
    unrecognised: list[str] = field(default_factory=list)
    duplicates: list[str] = field(default_factory=list)  # identical bytes already ingested
    severities: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SEVERITIES, 0))
    site_totals: int = 0  # DQ-SITE-TOTALS findings
    ingest_cpu_s: float = 0.0
    audit_cpu_s: float = 0.0
    read_hands: int = 0  # hands the site's importers read in `read_cpu_s` (files repeated)
    read_cpu_s: float = 0.0
    findings: list[Finding] = field(default_factory=list)  # warning+ and DQ-SITE-TOTALS

    @property
    def distinct(self) -> int:
        """Hands to import: a file byte-identical to one already read holds the same hands
        again, stored once (the corpus keeps some files in two folders)."""
        return self.hands - self.repeated

    @property
    def whole(self) -> int:
        """Hands the site wrote whole: the distinct hands less those the file ends inside of
        (each quarantined, never lost: FPDB's "partial" hands)."""
        return self.distinct - self.cut_short

    @property
    def imported_pct(self) -> float:
        return 100.0 * self.imported / self.whole if self.whole else 0.0

    @property
    def hands_per_cpu_s(self) -> float:
        return self.imported / self.ingest_cpu_s if self.ingest_cpu_s > 0 else 0.0

    @property
    def read_per_cpu_s(self) -> float:
        return self.read_hands / self.read_cpu_s if self.read_cpu_s > 0 else 0.0

    def as_dict(self, top: int = 10) -> dict[str, Any]:
        serious = Counter(f.rule_id for f in self.findings
                          if Severity(f.severity).level >= _WARNING)
        return {
            "site": self.site, "files": self.files, "hands": self.hands,
            "repeated_hands": self.repeated, "distinct_hands": self.distinct,
            "imported": self.imported, "imported_pct": round(self.imported_pct, 2),
            "quarantined": self.quarantined, "cut_short": self.cut_short,
            "whole_hands": self.whole,
            "quarantine_reasons": [{"reason": reason, "count": n,
                                    "example": self.examples.get(reason, "")}
                                   for reason, n in self.reasons.most_common(top)],
            "unrecognised_files": self.unrecognised, "duplicate_files": self.duplicates,
            "findings": self.severities, "warning_plus_by_rule": dict(serious.most_common(top)),
            "site_totals_notes": self.site_totals,
            "ingest_cpu_s": round(self.ingest_cpu_s, 3),
            "audit_cpu_s": round(self.audit_cpu_s, 3),
            "hands_per_cpu_s": round(self.hands_per_cpu_s, 1),
            "read_hands": self.read_hands, "read_cpu_s": round(self.read_cpu_s, 3),
            "read_hands_per_cpu_s": round(self.read_per_cpu_s, 1),
        }


def measure_site(corpus: Path, site: str, *, profile: str = AUTO_PROFILE,
                 work: Path | None = None) -> SiteResult:
    """Count, ingest (into a temporary store under `work`) and audit one site folder."""
    site_dir = corpus / site
    files = site_files(site_dir)
    result = SiteResult(site=site, files=len(files),
                        hands=sum(count_hands(p, site) for p in files))
    if not files:
        return result
    with tempfile.TemporaryDirectory(prefix=f"corpus-{site}-", dir=work) as tmp:
        store = Store(Path(tmp) / "store")
        start = time.process_time()
        summary = ingest(files, store)
        result.ingest_cpu_s = time.process_time() - start
        _tally_ingest(result, summary, store, corpus)
        result.read_hands, result.read_cpu_s = read_speed(
            [(Path(f.path), f.format) for f in summary.files if f.format and not f.skipped])
        if result.imported:
            start = time.process_time()
            audit_store(store, profile=profile)
            result.audit_cpu_s = time.process_time() - start
            _tally_findings(result, store, _hand_files(summary, store, corpus))
    return result


def read_speed(files: Sequence[tuple[Path, str]], *, min_cpu_s: float = 0.5,
               max_rounds: int = 200) -> tuple[int, float]:
    """(hands read, CPU seconds) of the importers alone over `files` (path, format), the
    files read again and again until `min_cpu_s` is spent: a small folder is too quick to time
    once. The first round is a warm-up (compiled kernels loaded), not timed."""
    if not files:
        return 0, 0.0

    def one_round() -> int:
        hands = 0
        for path, fmt in files:
            for chunk in IMPORTERS[fmt].read(path):
                hands += hand_starts(chunk.table)
        return hands

    one_round()
    hands, start = 0, time.process_time()
    for _ in range(max_rounds):
        hands += one_round()
        if time.process_time() - start >= min_cpu_s:
            break
    return hands, time.process_time() - start


_HAND_STARTED = pa.scalar("hand_started")


def hand_starts(table: pa.Table) -> int:
    """The `hand_started` rows of `table`: the bench's own count, kept to a few µs a chunk
    (summing the compared column costs 20-80 µs, most of a one-hand file's read), so that
    `read_speed` times the reader."""
    return sum(pc.equal(chunk, _HAND_STARTED).true_count
               for chunk in table.column("kind").chunks)


def _tally_ingest(result: SiteResult, summary: IngestSummary, store: Store,
                  corpus: Path) -> None:
    recognised = set()
    for f in summary.files:
        rel = Path(f.path).relative_to(corpus).as_posix()
        if f.skipped:
            result.duplicates.append(rel)
            result.repeated += count_hands(Path(f.path), result.site)
        elif not f.format:  # no importer took it (or it could not be read at all)
            result.unrecognised.append(rel)
        else:
            recognised.add(f.path)
            result.imported += f.hands
            result.quarantined += f.quarantined
    cut_short = {source: at for source in recognised
                 if (at := cut_short_from(Path(source), result.site)) is not None}
    result.cut_short_files += len(cut_short)
    counted: set[str] = set()
    for path in store.quarantine_files():
        with path.open(encoding="utf-8") as lines:
            for line in lines:
                item = json.loads(line)
                at = cut_short.get(item["source"])
                if at is not None and (item["line"] or 0) >= at and item["source"] not in counted:
                    counted.add(item["source"])  # the hand the file ends inside, quarantined
                    result.cut_short += 1
                if item["source"] in recognised:
                    group = normalise_reason(item["reason"], item["source"])
                    result.reasons[group] += 1
                    if group not in result.examples:
                        where = Path(item["source"]).relative_to(corpus).as_posix()
                        result.examples[group] = (f"{where}:{item['line'] or '-'}: "
                                                  f"{item['reason']}")


def _hand_files(summary: IngestSummary, store: Store, corpus: Path) -> dict[str, str]:
    """hand_id -> the file (under the corpus) it was stored from: one batch per file."""
    records = {r.get("batch_id"): r for r in store.records()}
    out: dict[str, str] = {}
    for f in summary.files:
        if not f.batch_id:
            continue
        rel = Path(f.path).relative_to(corpus).as_posix()
        for path in store.event_files([records[f.batch_id]]):
            table = pq.read_table(path, columns=["hand_id", "seq"])
            starts = table.filter(pc.equal(table.column("seq"), 0)).column("hand_id")
            out.update(dict.fromkeys(starts.to_pylist(), rel))
    return out


def _tally_findings(result: SiteResult, store: Store, hand_files: dict[str, str]) -> None:
    columns = ["hand_id", "rule_id", "severity", "message"]
    for row in read_findings(store).select(columns).to_pylist():
        severity = row["severity"]
        result.severities[severity] = result.severities.get(severity, 0) + 1
        site_totals = row["rule_id"] == SITE_TOTALS_RULE
        result.site_totals += site_totals
        if site_totals or Severity(severity).level >= _WARNING:
            hand = row["hand_id"] or ""
            result.findings.append(Finding(file=hand_files.get(hand, ""), hand=hand,
                                           rule_id=row["rule_id"], severity=severity,
                                           message=row["message"] or ""))


# --- the whole corpus ---------------------------------------------------------------------

def bench_corpus(corpus: Path | None = None, *, sites: Sequence[str] | None = None,
                 profile: str = AUTO_PROFILE,
                 echo: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Every site of the corpus (or `sites` of it), measured; the JSON-ready result."""
    corpus = DEFAULT_CORPUS if corpus is None else corpus
    if not corpus.is_dir():
        raise CorpusError(f"{corpus}: corpus not found (the shared real site logs belong "
                          "there, beside the checkout); pass the corpus folder as DIR: "
                          "poker-audit bench --corpus DIR")
    names = corpus_sites(corpus)
    if sites is not None:
        names = [s for s in names if s in sites]
    results = []
    for name in names:
        if echo:
            echo(f"corpus: {name} ...")
        results.append(measure_site(corpus, name, profile=profile))
    total = total_of(results)
    return {"corpus": str(corpus), "profile": profile,
            "sites": [r.as_dict() for r in results], "total": total.as_dict()}


def total_of(results: Iterable[SiteResult]) -> SiteResult:
    total = SiteResult(site="total")
    for r in results:
        total.files += r.files
        total.hands += r.hands
        total.repeated += r.repeated
        total.imported += r.imported
        total.quarantined += r.quarantined
        total.cut_short += r.cut_short
        total.cut_short_files += r.cut_short_files
        total.reasons.update(r.reasons)
        total.examples = {**r.examples, **total.examples}
        total.unrecognised += [f"{r.site}: {f}" for f in r.unrecognised]  # already relative
        total.duplicates += r.duplicates
        for severity, n in r.severities.items():
            total.severities[severity] = total.severities.get(severity, 0) + n
        total.site_totals += r.site_totals
        total.ingest_cpu_s += r.ingest_cpu_s
        total.read_hands += r.read_hands
        total.read_cpu_s += r.read_cpu_s
        total.audit_cpu_s += r.audit_cpu_s
        total.findings += r.findings
    return total


def format_corpus(result: dict[str, Any], reasons: int = 3) -> str:
    """The per-site table (and each site's top quarantine reasons) for a person."""
    head = (f"{'site':<11}{'files':>6}{'hands':>7}{'imported':>9}{'%':>7}{'quar':>6}"
            f"{'unrec':>6}{'dup':>5}{'info':>7}{'warn':>6}{'viol':>6}{'crit':>6}{'totals':>7}"
            f"{'hands/cpu-s':>12}{'read/cpu-s':>11}")
    lines = [f"corpus {result['corpus']} (profile {result['profile']})", head,
             "-" * len(head)]
    rows = [*result["sites"], result["total"]]
    for r in rows:
        if r is result["total"]:
            lines.append("-" * len(head))
        f = r["findings"]
        lines.append(
            f"{r['site']:<11}{r['files']:>6}{r['hands']:>7}{r['imported']:>9}"
            f"{r['imported_pct']:>7.1f}{r['quarantined']:>6}{len(r['unrecognised_files']):>6}"
            f"{len(r['duplicate_files']):>5}"
            f"{f['info']:>7}{f['warning']:>6}{f['violation']:>6}{f['critical']:>6}"
            f"{r['site_totals_notes']:>7}{r['hands_per_cpu_s']:>12.0f}"
            f"{r.get('read_hands_per_cpu_s', 0):>11.0f}")
    lines.append("")
    lines.append("hands: counted at the site's hand header; %: imported of those (less the "
                 "hands of files byte-identical to one already read, stored once, and the "
                 "hands a file ends inside of, quarantined: cut short in the JSON); "
                 "quar: quarantined; unrec: files no importer recognises; dup: files skipped "
                 "as identical to one already read; totals: DQ-SITE-TOTALS notes; "
                 "hands/cpu-s: hands stored per CPU-second of the import (a store commit per "
                 "file included); read/cpu-s: hands per CPU-second of the site's importers "
                 "alone, its files read repeatedly")
    for r in result["sites"]:
        top = r["quarantine_reasons"][:reasons]
        if top:
            lines.append(f"{r['site']} quarantined:")
            for group in top:
                lines.append(f"  {group['count']:>5}  {_shorten(group['reason'])}")
                lines.append(f"         e.g. {_shorten(group['example'].partition(': ')[0])}")
    t = result["total"]
    lines.append(f"CPU: import {t['ingest_cpu_s']:.1f} s, audit {t['audit_cpu_s']:.1f} s")
    return "\n".join(lines)


def _shorten(text: str, width: int = 110) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


# --- the reviewed allowlist of true irregularities -----------------------------------------

ALLOWLIST_KEYS = ("file", "hand", "rule_id", "why")


@dataclass(frozen=True, slots=True)
class Allowed:
    file: str
    hand: str
    rule_id: str
    why: str

    def matches(self, finding: Finding) -> bool:
        return (self.hand, self.rule_id) == (finding.hand, finding.rule_id) and (
            not finding.file or finding.file == self.file)


def load_allowlist(path: Path, corpus: Path) -> list[Allowed]:
    """The reviewed findings of an allowlist file ([[finding]] tables of file, hand, rule_id,
    why), validated: every entry has the four keys as non-empty strings and nothing else, its
    file is in the corpus, and the hand's number is in that file's text."""
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise CorpusError(f"{path}: not a readable allowlist ({exc})") from None
    unknown = set(doc) - {"finding"}
    if unknown:
        raise CorpusError(f"{path}: unknown top-level keys {sorted(unknown)}; only [[finding]]")
    entries = doc.get("finding", [])
    if not isinstance(entries, list):
        raise CorpusError(f"{path}: `finding` must be an array of tables ([[finding]])")
    out = []
    texts: dict[str, str] = {}
    for i, entry in enumerate(entries, 1):
        where = f"{path}: finding {i}"
        if not isinstance(entry, dict):
            raise CorpusError(f"{where} is not a table")
        missing = [k for k in ALLOWLIST_KEYS if not isinstance(entry.get(k), str)
                   or not entry[k].strip()]
        extra = sorted(set(entry) - set(ALLOWLIST_KEYS))
        if missing or extra:
            raise CorpusError(f"{where}: needs the keys {', '.join(ALLOWLIST_KEYS)} as "
                              f"non-empty text (missing {missing}, unknown {extra})")
        allowed = Allowed(**{k: entry[k] for k in ALLOWLIST_KEYS})
        source = corpus / allowed.file
        if allowed.file not in texts:
            if not source.is_file():
                raise CorpusError(f"{where}: {allowed.file} is not a file of {corpus}")
            texts[allowed.file] = decode(source.read_bytes())
        number = allowed.hand.rpartition(":")[2]
        if not number or number not in texts[allowed.file]:
            raise CorpusError(f"{where}: hand {allowed.hand} does not appear in "
                              f"{allowed.file}")
        out.append(allowed)
    return out


def unexplained(findings: Iterable[Finding], allowed: Sequence[Allowed]) -> list[Finding]:
    """The findings no allowlist entry names."""
    return [f for f in findings if not any(a.matches(f) for a in allowed)]


def stale(allowed: Iterable[Allowed], findings: Sequence[Finding]) -> list[Allowed]:
    """Allowlist entries that no longer match any finding (the bug or the hand went away)."""
    return [a for a in allowed if not any(a.matches(f) for f in findings)]
