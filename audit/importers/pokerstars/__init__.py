"""The PokerStars hand history reader: header and game lines (game), the line reader (reader),
the columnar fast path (fast) and its compiled kernel (kernel).
"""
