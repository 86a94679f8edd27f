"""The fast path of an audit: a whole event table replayed at once (table), compiled where it can
be (kernel); hands it cannot prove clean go to the per-hand replay.
"""
