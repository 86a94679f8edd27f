"""Arrow schemas built from the JSON schema files in schemas/ (the single source of truth)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pyarrow as pa

from audit.errors import SchemaVersionError

SCHEMA_VERSION_KEY = b"poker_audit.schema_version"
SCHEMA_NAME_KEY = b"poker_audit.schema"


def schemas_dir() -> Path:
    """schemas/ beside the package in a checkout, or the copy bundled into a wheel."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "schemas", here / "_schemas"):
        if (candidate / "events.json").exists():
            return candidate
    raise FileNotFoundError("schemas/ not found beside the audit package")


@cache
def schema_doc(name: str) -> dict[str, Any]:
    """The parsed JSON schema document `schemas/<name>.json`."""
    text = (schemas_dir() / f"{name}.json").read_text(encoding="utf-8")
    doc: dict[str, Any] = json.loads(text)
    return doc


_SCALARS: dict[str, pa.DataType] = {
    "string": pa.string(),
    "int8": pa.int8(),
    "int32": pa.int32(),
    "int64": pa.int64(),
    "bool": pa.bool_(),
    "timestamp_us_utc": pa.timestamp("us", tz="UTC"),
}


def _field(column: dict[str, Any], *, in_struct: bool = False) -> pa.Field:
    kind = column["type"]
    if kind == "struct":
        dtype: pa.DataType = pa.struct([_field(f, in_struct=True) for f in column["fields"]])
    else:
        dtype = _SCALARS[kind]
    # Fields inside a nullable struct are nullable in Arrow (a null struct has null children);
    # their "nullable": false is enforced by the structural validator instead.
    nullable = True if in_struct else column.get("nullable", True)
    return pa.field(column["name"], dtype, nullable=nullable)


@cache
def arrow_schema(name: str) -> pa.Schema:
    """The Arrow schema of `schemas/<name>.json`, with name and version in its metadata."""
    doc = schema_doc(name)
    return pa.schema(
        [_field(c) for c in doc["columns"]],
        metadata={SCHEMA_NAME_KEY: name.encode(), SCHEMA_VERSION_KEY: str(doc["version"]).encode()},
    )


def schema_version(name: str) -> int:
    return int(schema_doc(name)["version"])


def events_schema() -> pa.Schema:
    return arrow_schema("events")


def findings_schema() -> pa.Schema:
    return arrow_schema("findings")


def event_kinds() -> frozenset[str]:
    return frozenset(schema_doc("events")["kinds"])


def variants() -> frozenset[str]:
    return frozenset(schema_doc("events")["variants"])


def structures() -> frozenset[str]:
    return frozenset(schema_doc("events")["structures"])


def money_columns(name: str) -> list[str]:
    """Top-level columns that hold money (integer minor units)."""
    return [c["name"] for c in schema_doc(name)["columns"] if c.get("money")]


def game_money_fields() -> list[str]:
    game = next(c for c in schema_doc("events")["columns"] if c["name"] == "game")
    return [f["name"] for f in game["fields"] if f.get("money")]


def check_file_version(metadata: dict[bytes, bytes] | None, name: str, where: str) -> int:
    """The schema version recorded in a Parquet file; refuses versions newer than this reader."""
    raw = (metadata or {}).get(SCHEMA_VERSION_KEY)
    version = int(raw) if raw else 1
    if version > schema_version(name):
        raise SchemaVersionError(
            f"{where}: written with {name} schema version {version}, but this poker-audit "
            f"reads up to version {schema_version(name)}; upgrade poker-audit"
        )
    return version


def events_table(rows: list[dict[str, Any]]) -> pa.Table:
    """Event rows (dicts keyed by column name; missing keys are null) as an Arrow table."""
    return pa.Table.from_pylist(rows, schema=events_schema())
