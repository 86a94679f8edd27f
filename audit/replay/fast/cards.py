"""Cards in the compiled replay: card text read from the event bytes (as audit/poker/cards.py
reads it, the joker where the game plays it), cards written back as text for the projections,
and cards dealt to a seat joining his hand (a card seen twice sends the hand back)."""

from __future__ import annotations

from numba import njit

from audit.replay.fast.layout import JOKER, MAX_CARDS, S_HOLE_N


@njit(cache=True, inline="always")
def _parse_cards(data, lo, hi, out, joker):
    """Cards of one text into `out`; returns the count, -1 for text the reference replay
    must handle itself (malformed text, too many cards, and the joker unless `joker`: the
    games that play it, as JOKER = 52)."""
    n = 0
    i = lo
    while i < hi:
        ch = data[i]
        if ch == 32 or ch == 44 or (9 <= ch <= 13):
            i += 1
            continue
        j = i
        while j < hi and not (data[j] == 32 or data[j] == 44 or (9 <= data[j] <= 13)):
            j += 1
        if (j - i) % 2:
            return -1
        for k in range(i, j, 2):
            a = data[k]
            b = data[k + 1]
            if a == 63 and b == 63:  # ??
                card = -1
            elif joker and (a == 88 or a == 120) and (b == 106 or b == 74):  # Xj
                card = JOKER
            else:
                if 97 <= a <= 122:
                    a -= 32
                r = -1
                if 50 <= a <= 57:
                    r = a - 50
                elif a == 84:
                    r = 8
                elif a == 74:
                    r = 9
                elif a == 81:
                    r = 10
                elif a == 75:
                    r = 11
                elif a == 65:
                    r = 12
                if 65 <= b <= 90:
                    b += 32
                su = -1
                if b == 99:
                    su = 0
                elif b == 100:
                    su = 1
                elif b == 104:
                    su = 2
                elif b == 115:
                    su = 3
                if r < 0 or su < 0:
                    return -1
                card = r * 4 + su
            if n >= out.shape[0]:
                return -1
            out[n] = card
            n += 1
        i = j
    return n


@njit(cache=True)
def _write_cards(cards, n, buf, pos):
    for i in range(n):
        if i:
            buf[pos] = 32
            pos += 1
        c = cards[i]
        if c < 0:
            buf[pos] = 63
            buf[pos + 1] = 63
        elif c == JOKER:
            buf[pos] = 88
            buf[pos + 1] = 106
        else:
            buf[pos] = (50, 51, 52, 53, 54, 55, 56, 57, 84, 74, 81, 75, 65)[c >> 2]
            buf[pos + 1] = (99, 100, 104, 115)[c & 3]
        pos += 2
    return pos


@njit(cache=True, inline="always")
def _give(i, s, n, parsed, hole, seen, S):
    """Cards dealt to seat s (event i) join his hand: 0, or 12 (more cards than the kernel
    holds), 9 (DEAL-DUPLICATE-CARD: a card seen before)."""
    hn = S[S_HOLE_N, s]
    if hn + n > MAX_CARDS:
        return 12
    for j in range(n):
        c = parsed[j]
        hole[s, hn + j] = c
        if 0 <= c < JOKER:
            if seen[c] >= 0:
                return 9
            seen[c] = i
    S[S_HOLE_N, s] = hn + n
    return 0
