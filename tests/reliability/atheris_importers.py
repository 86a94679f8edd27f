"""Coverage-guided fuzzing of every importer with atheris (libFuzzer), run as a script:

    python tests/reliability/atheris_importers.py -runs=5000 -max_len=8192 CORPUS_DIR

The first byte of an input picks the importer, the rest is the file. An importer may refuse
input only with AuditInputError (ingest quarantines the file with the reason); any other
exception is a crash that ingest would not survive, and libFuzzer reports it with the input.
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

with atheris.instrument_imports():
    from audit.errors import AuditInputError
    from audit.importers import IMPORTERS
    from audit.ingest.validate import validate_events

FORMATS = sorted(IMPORTERS)
SCRATCH = Path("atheris-scratch")  # beside the corpus (set below): libFuzzer exits hard


def one_input(data: bytes) -> None:
    if not data:
        return
    fmt = FORMATS[data[0] % len(FORMATS)]
    path = SCRATCH / f"input.{fmt}"
    path.write_bytes(data[1:])
    try:
        for chunk in IMPORTERS[fmt].read(path):
            validate_events(chunk.table, chunk.lines, str(path))
    except AuditInputError:
        pass  # refused with a reason: ingest quarantines the whole file


def write_corpus(directory: Path) -> None:
    """One seed per format: its valid sample, prefixed with the byte that selects it."""
    from audit.devtools.hostile import seeds

    directory.mkdir(parents=True, exist_ok=True)
    for fmt, sample in seeds().items():
        (directory / fmt).write_bytes(bytes([FORMATS.index(fmt)]) + sample[:8000])


if __name__ == "__main__":
    corpus = [a for a in sys.argv[1:] if not a.startswith("-")]
    if corpus:
        SCRATCH = Path(corpus[0]).resolve().parent / "atheris-scratch"
    SCRATCH.mkdir(parents=True, exist_ok=True)
    for directory in corpus:
        if not Path(directory).is_file():  # a file is one input to replay (a crash-* file)
            write_corpus(Path(directory))
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
