"""Plain-text summary of an audit run, shared by `poker-audit audit` and the demo."""

from __future__ import annotations

from typing import Any

from audit.run.money import is_currency


def format_summary(summary: Any) -> str:
    profile = str(summary.profile)
    lines = [
        f"audit run {summary.run_id} (profile {profile.partition('(')[0]}): {summary.hands} "
        f"hands, {summary.findings} findings",
    ]
    judged = getattr(summary, "by_profile", ())
    if judged:  # which profile judged how many hands (auto: each room's house rules)
        lines.append("  judged by: " + ", ".join(f"{p} {n} hands" for p, n in judged))
    if summary.by_severity:
        lines.append("  by severity: " + ", ".join(f"{s} {n}" for s, n in summary.by_severity))
        lines.append("  by category: " + ", ".join(f"{c} {n}" for c, n in summary.by_category))
        lines.append("  by rule:")
        lines += [f"    {n:>7}  {s:<9} {c:<13} {r}" for r, c, s, n in summary.by_rule]
    money = getattr(summary, "money", ())
    if money:  # never added across currencies: one line per currency, tournament chips apart
        lines.append("  house collection (rake, logged or implied by pot minus awards):")
        lines += [f"    {unit}: {rake} {'minor units' if is_currency(unit) else 'chips'} over "
                  f"{raked} of {hands} hands" for unit, hands, rake, raked in money]
    else:
        lines.append(
            f"  house collection (rake, logged or implied by pot minus awards): {summary.rake} "
            f"minor units over {summary.rake_hands} hands"
        )
    fast = getattr(summary, "fast_hands", 0)
    if summary.hands:
        lines.append(f"  replay: {fast} hands proven clean by the compiled fast path, "
                     f"{summary.hands - fast} judged by the reference replay")
    return "\n".join(lines)
