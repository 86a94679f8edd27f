"""A batch's Merkle root from its leaves laid end to end (how BatchWriter keeps them) is the
RFC 6962 root of the leaf list, for every tree shape (odd levels promote a node)."""

from __future__ import annotations

import hashlib

import pytest

from audit.store import merkle


@pytest.mark.parametrize("count", [*range(0, 34), 255, 256, 257])
def test_packed_root_is_the_root_of_the_leaf_list(count: int) -> None:
    leaves = [hashlib.sha256(f"hand {i}".encode()).digest() for i in range(count)]
    packed = b"".join(leaves)
    assert merkle.merkle_root_packed(packed) == merkle.merkle_root(leaves)
    assert merkle.merkle_root_packed(bytearray(packed)) == merkle.merkle_root(leaves)
    if count >= 2:  # every leaf counts, in its place
        swapped = packed[32:64] + packed[:32] + packed[64:]
        assert merkle.merkle_root_packed(swapped) != merkle.merkle_root(leaves)
