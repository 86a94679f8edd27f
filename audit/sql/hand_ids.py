"""A hand named the way an analyst has it: our stored id (`ps:47656382023`) or the room's own
hand number (`47656382023`, as the site's log and its support desk write it)."""

from __future__ import annotations

from audit.errors import AuditInputError
from audit.sql.query import query
from audit.store.dataset import Store

MAX_LISTED = 10  # matching ids named in the error when a number is ambiguous


def _ends_with_number(hand_id: str, number: str) -> bool:
    """`hand_id` is `number` behind a prefix ending in a separator (`ps:`, `phh:pokerstars:`):
    123 never matches ps:99123."""
    if not hand_id.endswith(number) or len(hand_id) == len(number):
        return False
    return not hand_id[-len(number) - 1].isalnum()


def resolve_hand_id(store: Store, text: str) -> str:
    """The stored hand id `text` names: itself when stored, else the one stored id that ends
    with it behind its prefix. None, or several, is an AuditInputError saying so (several:
    the matching ids, to pick one)."""
    text = text.strip()
    rows = query(store, "SELECT DISTINCT hand_id FROM hands_started "
                        "WHERE hand_id = $t OR ends_with(hand_id, $t) ORDER BY hand_id",
                 {"t": text}).column("hand_id").to_pylist()
    if text in rows:
        return text
    matches = [h for h in rows if _ends_with_number(h, text)]
    if len(matches) == 1:
        return str(matches[0])
    if not matches:
        raise AuditInputError(
            f"hand {text!r} is not in {store.root}, neither as a hand id nor as a room's hand "
            'number; list hand ids with "poker-audit query \\"SELECT hand_id FROM '
            'hands_started\\""')
    shown = ", ".join(matches[:MAX_LISTED])
    more = f" and {len(matches) - MAX_LISTED} more" if len(matches) > MAX_LISTED else ""
    raise AuditInputError(f"hand number {text} is in {len(matches)} stored hands: {shown}{more}; "
                          "give the whole id")
