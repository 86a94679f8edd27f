"""The XML readers (Merge, iPoker) read every file exactly as they did when their speed work
began: golden digests of what each file gives.

A digest covers everything a read yields, chunk by chunk: the event table (schema and every
value, `source` file:line included), the line of each row, and each quarantined hand (file,
line, hand id, reason, raw text); a read refused whole counts by its error. The file's folder
is left out (the digests hold wherever the corpus and the temporary copies are). The files: the
real Merge and iPoker logs of the corpus (../shared/data/fpdb-dev), the fixtures, and copies of
them mutated line by line at random (seeded, so the same copies every run). Each is read in
chunks of 5,000 hands and of 2 (chunk boundaries move). A reader change that alters one byte
of any of them fails here.

When a change of output is intended (a reader bug fixed, with its own test), regenerate the
digests and review the diff of tests/importers/xml_golden.json:

    PYTHONPATH=$PWD python -m tests.importers.test_xml_golden
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from audit.devtools.corpus import DEFAULT_CORPUS, site_files
from audit.importers.base import Importer
from audit.importers.ipoker import IPokerImporter
from audit.importers.merge import MergeImporter
from tests.importers.sitecheck import SITES, mutate

GOLDEN = Path(__file__).with_name("xml_golden.json")
READERS: dict[str, Callable[[int], Importer]] = {"merge": MergeImporter,
                                                 "ipoker": IPokerImporter}
FIXTURES = {"merge": "merge-*.txt", "ipoker": "ipoker-*.xml"}
MUTANTS = 60  # mutated copies per reader
CHUNKS = (5000, 2)
_OPS = ("delete", "duplicate", "truncate", "garbage", "swap")


def digest(importer: Importer, path: Path) -> str:
    """sha256 of everything `importer` yields for `path` (or of the error refusing it)."""
    h = hashlib.sha256()
    try:
        for chunk in importer.read(path):
            text = repr((str(chunk.table.schema), chunk.table.to_pylist(), chunk.lines,
                         [(r.source, r.line, r.hand_id, r.reason, r.raw)
                          for r in chunk.rejected]))
            h.update(_bytes(text, path))
    except Exception as exc:  # noqa: BLE001 - a refusal is an outcome too
        h.update(_bytes(f"refused: {type(exc).__name__}: {exc}", path))
    return h.hexdigest()


def _bytes(text: str, path: Path) -> bytes:
    """`text` with the file's folder left out (the digests hold wherever the files are)."""
    return text.replace(str(path.parent), "<folder>").encode("utf-8", "surrogatepass")


def mutants(site: str) -> Iterator[tuple[str, bytes]]:
    """(name, bytes) of the seeded mutated copies of a reader's fixtures."""
    rnd = random.Random(f"xml-golden-{site}")
    sources = sorted(SITES.glob(FIXTURES[site]))
    for k in range(MUTANTS):
        src = rnd.choice(sources)
        ops = [(rnd.randrange(10_000), rnd.choice(_OPS),
                bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 12))),
                rnd.randrange(200)) for _ in range(rnd.randint(1, 4))]
        yield f"mutant-{k:02}-{src.name}", mutate(src.read_bytes(), ops)


def cases(tmp: Path) -> Iterator[tuple[str, str, Path]]:
    """(key, reader, path) of every file the digests cover; mutants are written under `tmp`."""
    for site in READERS:
        if DEFAULT_CORPUS.exists():
            for path in site_files(DEFAULT_CORPUS / site):
                yield f"corpus/{path.relative_to(DEFAULT_CORPUS).as_posix()}", site, path
        for path in sorted(SITES.glob(FIXTURES[site])):
            yield f"fixtures/{path.name}", site, path
        for name, data in mutants(site):
            path = tmp / name
            path.write_bytes(data)
            yield f"mutants/{name}", site, path


def digests(tmp: Path) -> dict[str, str]:
    return {f"{key}@{size}": digest(READERS[site](size), path)
            for key, site, path in cases(tmp) for size in CHUNKS}


@pytest.mark.slow
def test_every_file_reads_as_its_golden_digest(tmp_path: Path) -> None:
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    got = digests(tmp_path)
    if not DEFAULT_CORPUS.exists():
        want = {k: v for k, v in want.items() if not k.startswith("corpus/")}
    assert sorted(got) == sorted(want)
    changed = sorted(k for k in got if got[k] != want[k])
    assert changed == []


if __name__ == "__main__":  # regenerate: PYTHONPATH=$PWD python -m tests.importers.test_xml_golden
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        out = digests(Path(folder))
    GOLDEN.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(out)} digests written to {GOLDEN}", file=sys.stderr)
